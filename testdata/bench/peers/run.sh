#!/usr/bin/env bash
# Times relurl beside its peers, whole process against whole process, on the same
# corpus, and prints one table (median wall, MB/s, CPU, peak RSS, ratio vs relurl).
#
#   testdata/bench/peers/run.sh [RELURL_BINARY]
#
# A copy of the project's shared harness (../shared/bench/peers), with the rows
# and ratios issue 20's targets are stated in. With no binary, only the peers
# are timed. With one, two more rows are timed:
#   relurl        RELURL rewrite -j 1 --base BASE -o OUTDIR INDIR   (the reference for ratios)
#   relurl-links  RELURL links -j 1 --base BASE INDIR > file        (JSON Lines; no ratio peer)
# and, with JOBS2=1, relurl-j2 and relurl-links-j2 (the same with -j 2); with
# BEFORE=BINARY, the same rows of that binary (before, before-links, ...) in the
# same rounds. With OUT set, ratios.py OUT prints the median over the rounds of
# each round's ratio (links/rewrite, -j 1/-j 2, peer/relurl, before/after).
#
# Environment:
#   CORPUS_B=1        also run corpus B (python3.11-doc, ~50.7 MB; about 1.5 min more)
#   RUNS=5 WARMUP=1   counted runs and uncounted warm-up runs per peer
#   RETRIES=1         reruns of a counted run that the rest of the machine disturbed
#   QUIET_PCT=25      ... i.e. used more than this % of one core during it
#   SETTLE=30         wait up to this many seconds for a quiet machine before each corpus
#                     (a sixth of it before each round); 0 = never wait
#   PEERS=a,b         subset of: xnet-tokenize,goquery,lxml,lolhtml,parse5 (default all)
#   BASE=URL          base of the mirrored tree (default https://www.example.com/mirror/)
#   CACHE=DIR         corpus cache (default /tmp/relurl-corpus; built by corpus.sh)
#   WORK=DIR          scratch folder for outputs (default: a fresh mktemp -d under /tmp)
#   PIN=CPU           run every command under taskset -c CPU
#   OUT=FILE          also write the results, every run included, as JSON to FILE
#   KEEP=1            keep the last round's outputs (WORK/CORPUS/PEER/out) for diffing
#   SKIP_SETUP=1      do not run setup.sh first
#   JOBS2=1           also time -j 2 (relurl-j2, relurl-links-j2)
#   BEFORE=BINARY     also time another relurl binary's rows in the same rounds
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
RELURL=${1:-}
if [ -n "$RELURL" ]; then
  [ -x "$RELURL" ] || { echo "run.sh: $RELURL is not an executable" >&2; exit 2; }
  RELURL=$(cd "$(dirname "$RELURL")" && pwd)/$(basename "$RELURL")
fi
CACHE=${CACHE:-/tmp/relurl-corpus}
BASE=${BASE:-https://www.example.com/mirror/}
PEERS=${PEERS:-xnet-tokenize,goquery,lxml,lolhtml,parse5}

if [ "${SKIP_SETUP:-0}" != 1 ]; then
  versions=$("$HERE/setup.sh")
else
  versions=""
fi
if [ "${CORPUS_B:-0}" = 1 ]; then
  "$HERE/corpus.sh" "$CACHE" >&2
else
  CORPUS_A_ONLY=1 "$HERE/corpus.sh" "$CACHE" >&2
fi

WORK_GIVEN=${WORK:-}
WORK=${WORK:-$(mktemp -d /tmp/relurl-peers.XXXXXX)}
[ -n "$WORK_GIVEN" ] || [ "${KEEP:-0}" = 1 ] || trap 'rm -rf "$WORK"' EXIT

pin=()
[ -z "${PIN:-}" ] || pin=(taskset -c "$PIN")
BUN=$HERE/js/node_modules/@oven/bun-linux-x64/bin/bun

args=(--base "$BASE" --work "$WORK" --runs "${RUNS:-5}" --warmup "${WARMUP:-1}")
args+=(--retries "${RETRIES:-1}" --quiet-pct "${QUIET_PCT:-25}" --settle "${SETTLE:-30}")
args+=(--corpus "A=$CACHE/A")
[ "${CORPUS_B:-0}" != 1 ] || args+=(--corpus "B=$CACHE/B")

q() { printf '%q ' "$@"; }  # quote a command for bench.py's shlex split
if [ -n "$RELURL" ]; then
  args+=(--peer "relurl=$(q "${pin[@]}" "$RELURL") rewrite -j 1 --base {base} -o {out} {in}" --ref relurl)
  args+=(--peer "relurl-links=$(q "${pin[@]}" "$RELURL") links -j 1 --base {base} {in}" --stdout-peer relurl-links)
  if [ "${JOBS2:-0}" = 1 ]; then
    args+=(--peer "relurl-j2=$(q "${pin[@]}" "$RELURL") rewrite -j 2 --base {base} -o {out} {in}")
    args+=(--peer "relurl-links-j2=$(q "${pin[@]}" "$RELURL") links -j 2 --base {base} {in}" --stdout-peer relurl-links-j2)
  fi
fi
if [ -n "${BEFORE:-}" ]; then
  # The binary before the change, timed in the same rounds (20d).
  args+=(--peer "before=$(q "${pin[@]}" "$BEFORE") rewrite -j 1 --base {base} -o {out} {in}")
  args+=(--peer "before-links=$(q "${pin[@]}" "$BEFORE") links -j 1 --base {base} {in}" --stdout-peer before-links)
  if [ "${JOBS2:-0}" = 1 ]; then
    args+=(--peer "before-j2=$(q "${pin[@]}" "$BEFORE") rewrite -j 2 --base {base} -o {out} {in}")
    args+=(--peer "before-links-j2=$(q "${pin[@]}" "$BEFORE") links -j 2 --base {base} {in}" --stdout-peer before-links-j2)
  fi
fi
IFS=, read -ra want <<< "$PEERS"
for p in "${want[@]}"; do
  case $p in
    xnet-tokenize) args+=(--peer "xnet-tokenize=$(q "${pin[@]}" "$HERE/bin/xnet-tokenize") {base} {in} {out}" --identity xnet-tokenize) ;;
    goquery)       args+=(--peer "goquery=$(q "${pin[@]}" "$HERE/bin/goquery") {base} {in} {out}") ;;
    lxml)          args+=(--peer "lxml=$(q "${pin[@]}" /usr/bin/python3 "$HERE/py/lxml_peer.py") {base} {in} {out}") ;;
    lolhtml)       args+=(--peer "lolhtml=$(q "${pin[@]}" "$BUN" "$HERE/js/lolhtml.mjs") {base} {in} {out}") ;;
    parse5)        args+=(--peer "parse5=$(q "${pin[@]}" node "$HERE/js/parse5.mjs") {base} {in} {out}") ;;
    *) echo "run.sh: unknown peer $p" >&2; exit 2 ;;
  esac
done
while IFS= read -r v; do [ -z "$v" ] || args+=(--meta "${v%% *}=${v#* }"); done <<< "$versions"
[ -z "$RELURL" ] || args+=(--meta "relurl=$RELURL")
[ -z "${PIN:-}" ] || args+=(--meta "pinned_cpu=$PIN")
[ -z "${OUT:-}" ] || args+=(--json "$OUT")
[ "${KEEP:-0}" != 1 ] || args+=(--keep)

/usr/bin/python3 "$HERE/bench.py" "${args[@]}"
[ -z "${OUT:-}" ] || [ -z "$RELURL" ] || /usr/bin/python3 "$HERE/ratios.py" "$OUT"
