#!/usr/bin/env bash
# Builds the benchmark corpus of real-world HTML pages and prints its folder.
#   corpus A: 258 pages of real sites (npm package htmlparser-benchmark@1.1.3, files/*.html, ~24.6 MB)
# Usage: testdata/bench/corpus.sh [CACHE_DIR]   (default: $RELURL_CORPUS or ~/.cache/relurl-corpus)
# Idempotent: a second call only prints the folder. Needs npm (the machine has node and npm).
set -euo pipefail
dir=${1:-${RELURL_CORPUS:-$HOME/.cache/relurl-corpus}}
a="$dir/A"
if [ ! -f "$a/.complete" ]; then
  mkdir -p "$dir/tmp"
  (cd "$dir/tmp" && npm pack --silent htmlparser-benchmark@1.1.3 >/dev/null && tar -xzf htmlparser-benchmark-1.1.3.tgz)
  rm -rf "$a" && mkdir -p "$a"
  cp "$dir"/tmp/package/files/*.html "$a"/
  rm -rf "$dir/tmp"
  touch "$a/.complete"
fi
echo "$a"
