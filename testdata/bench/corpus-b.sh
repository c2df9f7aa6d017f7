#!/usr/bin/env bash
# Builds corpus B and prints its folder: 530 .html files (~50.7 MB), the
# Sphinx-built Python 3.11 docs of Debian's python3.11-doc package
# (usr/share/doc/python3.11/html/**/*.html; only .html files are kept, the
# tree preserved under B/html). The same corpus as the project's shared
# bench script (../shared/bench/peers/corpus.sh), for CI and benchmarks:
#   RELURL_CORPUS_B=$(testdata/bench/corpus-b.sh) go test -run CheckFixCorpusB ./cmd/relurl
# Usage: testdata/bench/corpus-b.sh [CACHE_DIR]   (default: $RELURL_CORPUS or ~/.cache/relurl-corpus)
# Idempotent. Needs apt-get (download only: nothing is installed) and dpkg-deb.
set -euo pipefail
dir=${1:-${RELURL_CORPUS:-$HOME/.cache/relurl-corpus}}
b="$dir/B"
if [ ! -f "$b/.complete" ]; then
  tmp="$dir/.tmp-B"
  rm -rf "$tmp" "$b" && mkdir -p "$tmp"
  if ! (cd "$tmp" && apt-get download python3.11-doc >/dev/null 2>&1); then
    apt-get update >/dev/null
    (cd "$tmp" && apt-get download python3.11-doc >/dev/null)
  fi
  dpkg-deb -x "$tmp"/python3.11-doc_*.deb "$tmp/root"
  doc="$tmp/root/usr/share/doc/python3.11"
  mkdir -p "$tmp/out"
  (cd "$doc" && find . -type f -name '*.html' -exec cp --parents -t "$tmp/out" {} +)
  echo "deb:$(basename "$tmp"/python3.11-doc_*.deb) usr/share/doc/python3.11/**/*.html" > "$tmp/out/.source"
  mv "$tmp/out" "$b" && rm -rf "$tmp"
  touch "$b/.complete"
fi
echo "$b"
