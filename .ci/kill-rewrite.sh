#!/usr/bin/env bash
# Issue 19: "relurl rewrite -i" killed with SIGKILL at random moments, 20
# times, on a tree of a few hundred pages. After each kill every file must
# be byte-identical to its original or to its full rewrite (never a mix,
# never missing), and the next run must finish the job and leave no
# temporary file (it removes those the killed run left, whose writer it
# proves dead). Usage: .ci/kill-rewrite.sh [ROUNDS] [TREE]
# TREE is a tree to copy (CI gives corpus B, testdata/bench/corpus-b.sh);
# without it a tree of 300 generated pages is used.
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-20}
source_tree=${2:-}
pages=300
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
go build -o "$work/relurl" ./cmd/relurl
relurl=$work/relurl
args=(rewrite -i -j 2 --quiet --spec rfc3986 --base https://example.org/site/)

# The tree: pages of about 40 KB in 10 directories, full of relative links,
# and a few other files.
orig=$work/orig
if [ -n "$source_tree" ]; then
  cp -a "$source_tree" "$orig"
  rm -f "$orig/.complete" "$orig/.source"
fi
for ((i = 0; i < pages && ${#source_tree} == 0; i++)); do
  d=$orig/d$((i % 10))
  mkdir -p "$d"
  {
    printf '<!DOCTYPE html>\n<title>page %d</title>\n' "$i"
    for ((n = 0; n < 400; n++)); do
      printf '<p><a href="p%d.html#s%d">link %d</a> <img src="../img/%d.png"></p>\n' $((n % 97)) "$n" "$n" $((n % 13))
    done
  } >"$d/p$i.html"
done
mkdir -p "$orig/img" && printf '\x89PNG\r\n\x1a\n' >"$orig/img/0.png"
files=$(find "$orig" -type f | wc -l)

# The full rewrite, and how long it takes.
want=$work/want
cp -a "$orig" "$want"
start=$(date +%s%N)
"$relurl" "${args[@]}" "$want"
took=$((($(date +%s%N) - start) / 1000000))
echo "kill-rewrite: ${source_tree:-$pages generated pages}: $files files, a full run takes ${took} ms; $rounds rounds"

tree=$work/tree
olds=0 news=0
for ((r = 1; r <= rounds; r++)); do
  rm -rf "$tree" && cp -a "$orig" "$tree"
  "$relurl" "${args[@]}" "$tree" &
  pid=$!
  # A random moment within the run (and now and then at its very start).
  ms=$((RANDOM % (took * 2 / 3 + 1)))
  sleep "$(printf '%d.%03d' $((ms / 1000)) $((ms % 1000)))"
  kill -KILL "$pid" 2>/dev/null || true
  wait "$pid" 2>/dev/null || true
  o=0 n=0
  while IFS= read -r -d '' f; do
    rel=${f#"$tree"/}
    if cmp -s "$f" "$orig/$rel"; then
      o=$((o + 1))
    elif cmp -s "$f" "$want/$rel"; then
      n=$((n + 1))
    else
      echo "kill-rewrite: round $r: $rel is neither the original nor the rewrite" >&2
      exit 1
    fi
  done < <(find "$tree" -type f ! -name '.relurl-*' -print0)
  if [ $((o + n)) -ne "$files" ]; then
    echo "kill-rewrite: round $r: $((o + n)) files, want $files" >&2
    exit 1
  fi
  left=$(find "$tree" -name '.relurl-*' | wc -l)
  # The next run finishes the job and removes what the killed one left.
  "$relurl" "${args[@]}" "$tree" 2>"$work/stderr"
  if find "$tree" -name '.relurl-*' | grep -q .; then
    echo "kill-rewrite: round $r: temporary files left after the next run:" >&2
    find "$tree" -name '.relurl-*' >&2
    exit 1
  fi
  if ! diff -r "$tree" "$want" >/dev/null; then
    echo "kill-rewrite: round $r: the next run did not finish the rewrite" >&2
    exit 1
  fi
  removed=$(grep -c 'a temporary file its dead writer left' "$work/stderr" || true)
  if [ "$removed" -ne "$left" ]; then
    echo "kill-rewrite: round $r: $left temporary files left by the kill, $removed reported removed" >&2
    exit 1
  fi
  echo "kill-rewrite: round $r: killed after ${ms} ms: $o original, $n rewritten, $left temporary files, removed by the next run"
  olds=$((olds + o)) news=$((news + n))
done
echo "kill-rewrite: ok: $rounds rounds, $olds files original and $news rewritten at the kills, none mixed, no temporary file left"
