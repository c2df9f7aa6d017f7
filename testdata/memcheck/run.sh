#!/usr/bin/env bash
# Peak RSS of relurl on inputs larger than memory should matter (issue 11:
# streams stay streams): every whole-process memory case of the project
# (the reads, a <style> sheet, the writes -o/-i, MHTML links, the WARC reads and materialize),
# and the hostile inputs, each within its reader's budget (refused by a
# named error where a limit of the reader's design is met). Inputs are
# generated on the fly and piped; those that must be files are written to
# a temporary directory and removed.
#   usage: testdata/memcheck/run.sh        env: MEMCHECK_SCALE=N divides the sizes (quick runs),
#   MEMCHECK_ONLY=hostile runs only the hostile inputs (warc: only the WARC
#   and WAT reads), MEMCHECK_BIN=PATH
#   measures that relurl binary instead of building one (an older build,
#   to compare)
# Prints one row per case (peak RSS in MiB, limit, wall seconds) and fails
# when a case exceeds its limit or relurl fails. Needs GNU time (/usr/bin/time -v).
set -euo pipefail
cd "$(dirname "$0")/../.."
scale=${MEMCHECK_SCALE:-1}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if [ -n "${MEMCHECK_BIN:-}" ]; then
  cp "$MEMCHECK_BIN" "$tmp/relurl"
else
  go build -o "$tmp/relurl" ./cmd/relurl
fi
go build -o "$tmp/gen" ./testdata/memcheck/gen.go
if [ ! -x /usr/bin/time ]; then
  echo "memcheck: /usr/bin/time (Debian package time) is missing" >&2
  exit 1
fi

# enough NAME MIN: the measured output (bytes on stdin) must be at least MIN.
enough() {
  local n; n=$(wc -c)
  if [ "$n" -lt "$2" ]; then
    echo "memcheck: $1: only $n bytes of output" >&2
    touch "$tmp/failed"
  fi
}
exec 3>&1 # the table, whatever the measured command's stdout is
printf '%-44s %10s %8s %8s\n' case peak_MiB limit wall_s
# measure NAME LIMIT_MIB COMMAND...: runs COMMAND under time -v (its stdin
# and stdout as given by the caller), records the peak RSS. With
# want_status set (refused below), COMMAND must exit with that status.
want_status=0
[ -z "${MEMCHECK_BIN:-}" ] || want_status=any # an older build: measured, not judged
measure() {
  local name=$1 limit=$2; shift 2
  local start end kb status=0
  start=$(date +%s.%N)
  /usr/bin/time -v -o "$tmp/time" "$@" || status=$?
  if [ "$want_status" != any ] && [ "$status" != "$want_status" ]; then
    echo "memcheck: $name: relurl exited $status, not $want_status" >&2
    touch "$tmp/failed"
  fi
  end=$(date +%s.%N)
  kb=$(awk -F': ' '/Maximum resident set size/ {print $2}' "$tmp/time")
  local mib=$(( (kb + 1023) / 1024 ))
  printf '%-44s %10d %8d %8.1f\n' >&3 "$name" "$mib" "$limit" "$(awk "BEGIN {print $end - $start}")"
  if [ "$mib" -gt "$limit" ]; then
    echo "memcheck: $name: peak RSS $mib MiB over $limit MiB" >&2
    touch "$tmp/failed"
  fi
}

# refused NAME LIMIT_MIB COMMAND...: measure, for an input a reader
# refuses (a named error, exit status 1) within its bound.
refused() {
  local want=1
  [ -z "${MEMCHECK_BIN:-}" ] || want=any
  want_status=$want measure "$@" 2>"$tmp/refused.err"
  if [ -z "${MEMCHECK_BIN:-}" ] && [ ! -s "$tmp/refused.err" ]; then
    echo "memcheck: $1: refused without a word on standard error" >&2
    touch "$tmp/failed"
  fi
}

gib=$((1024 * 1024 * 1024 / scale))
page=$((250 * 1000 * 1000 / scale))
warc=$((300 * 1000 * 1000 / scale))

# gen KIND SIZE: the generator, for a pipe whose reader may stop early (a
# refused input): its broken pipe is no failure.
gen() { local s=0; "$tmp/gen" "$@" || s=$?; [ "$s" = 0 ] || [ "$s" = 141 ] || [ "$s" = 1 ]; }

# The hostile inputs: each grows where a reader would hold something per
# item (an open element, an attribute, a srcset candidate, a stylesheet or
# module read whole, a decoded body), and each stays within the bound of
# its reader, refused by a named error where a cap is met.
hostile() {
  local deep1=$((2700000 / scale)) deep2=$((5500000 / scale))
  "$tmp/gen" deepsvg "$deep1" > "$tmp/d1.svg"
  "$tmp/gen" deepsvg "$deep2" > "$tmp/d2.svg"
  refused "links FILE.svg ($((deep1 / 1000))k levels)" 64 "$tmp/relurl" links "$tmp/d1.svg" > /dev/null
  refused "rewrite FILE.svg ($((deep1 / 1000))k levels)" 64 "$tmp/relurl" rewrite --base https://gen.example/ "$tmp/d1.svg" > /dev/null
  refused "links FILE.svg ($((deep2 / 1000))k levels)" 64 "$tmp/relurl" links "$tmp/d2.svg" > /dev/null
  refused "rewrite FILE.svg ($((deep2 / 1000))k levels)" 64 "$tmp/relurl" rewrite --base https://gen.example/ "$tmp/d2.svg" > /dev/null
  mkdir "$tmp/svgs"
  mv "$tmp/d1.svg" "$tmp/svgs/a.svg"; cp "$tmp/svgs/a.svg" "$tmp/svgs/b.svg"
  refused "rewrite -j 2 -o DIR (two deep SVGs)" 128 "$tmp/relurl" rewrite --quiet -j 2 --base https://gen.example/ -o "$tmp/svg.out" "$tmp/svgs"
  rm -rf "$tmp/svgs" "$tmp/svg.out" "$tmp/d2.svg"

  local attrs=$((1600000 / scale)) cands=$((700000 / scale))
  # A tag is held whole up to its 16 MiB cap: its buffer grows by doubling
  # and the heap peaks near 32 MiB; the buffers it outgrew are not yet
  # given back to the system, so RSS reads 55-72 MiB (CI has seen 72).
  gen attrs "$attrs" | refused "rewrite - (a tag of $((attrs / 1000))k attributes)" 80 \
    "$tmp/relurl" rewrite --base https://gen.example/ - > /dev/null
  gen attrs "$attrs" | refused "links - (a tag of $((attrs / 1000))k attributes)" 80 \
    "$tmp/relurl" links - > /dev/null
  gen srcset "$cands" | refused "rewrite - (srcset of $((cands / 1000))k candidates)" 64 \
    "$tmp/relurl" rewrite --base https://gen.example/ - > /dev/null
  gen srcset "$cands" | refused "links - (srcset of $((cands / 1000))k candidates)" 64 \
    "$tmp/relurl" links - > /dev/null

  # Stylesheets stream: generated and piped, never stored.
  local css1=$((100 * 1000 * 1000 / scale)) css2=$((1000 * 1000 * 1000 / scale))
  gen css "$css1" | measure "rewrite --input-format css - ($((css1 / 1000000)) MB)" 64 \
    "$tmp/relurl" rewrite --input-format css --base https://gen.example/ - | enough "rewrite css" "$css1"
  gen css "$css2" | measure "rewrite --input-format css - ($((css2 / 1000000)) MB)" 64 \
    "$tmp/relurl" rewrite --input-format css --base https://gen.example/ - | enough "rewrite css" "$css2"

  local depth=$((5000000 / scale)) module=$((36 * 1000 * 1000 / scale))
  "$tmp/gen" manifest "$depth" > "$tmp/deep.webmanifest"
  refused "links FILE.webmanifest ($((depth / 1000))k deep)" 64 "$tmp/relurl" links "$tmp/deep.webmanifest" > /dev/null
  rm -f "$tmp/deep.webmanifest"
  "$tmp/gen" module "$module" > "$tmp/big.mjs"
  refused "links FILE.mjs ($((module / 1000000)) MB module)" 64 "$tmp/relurl" links "$tmp/big.mjs" > /dev/null
  rm -f "$tmp/big.mjs"

  # A WARC record's decode is bounded at 128 MiB: a 2 GiB gzip body is
  # refused within 1.25 times that.
  local member=$((2048 * 1024 * 1024 / scale))
  "$tmp/gen" gzipwarc "$member" > "$tmp/zip.warc"
  want_status=any measure "links FILE.warc ($((member >> 20)) MiB gzip body)" 160 "$tmp/relurl" links "$tmp/zip.warc" > /dev/null 2>&1
  rm -f "$tmp/zip.warc"
}
warcs() {
  # One .warc.gz for every WARC case: links from the file and from standard
  # input (the status line must count every record, with no record error),
  # and materialize into a tree (issue 17). 128 MiB while issue 10's revisit
  # cache (16 MiB of payloads) is counted.
  "$tmp/gen" warc.gz "$warc" > "$tmp/big.warc.gz"
  wmb=$(( $(stat -c %s "$tmp/big.warc.gz") / 1000000 ))
  measure "links FILE.warc.gz (${wmb} MB)" 128 \
    "$tmp/relurl" links "$tmp/big.warc.gz" | enough "links WARC" $((warc / 100))
  measure "links --format text --status - (same, piped)" 128 \
    "$tmp/relurl" links --format text --status - < "$tmp/big.warc.gz" > "$tmp/stdin.out"
  if ! tail -n 1 "$tmp/stdin.out" | grep -Eq '^\{"status":"ok","file":"-","records":[1-9][0-9]*,"links":[1-9][0-9]*,"record_errors":0\}$'; then
    echo "memcheck: links - (WARC): last line is not a clean status: $(tail -n 1 "$tmp/stdin.out")" >&2
    touch "$tmp/failed"
  fi
  enough "links - (WARC)" $((warc / 100)) < "$tmp/stdin.out"
  records=$(tail -n 1 "$tmp/stdin.out" | sed -n 's/.*"records":\([0-9]*\).*/\1/p')
  rm -f "$tmp/stdin.out"
  # The same records as a .warc.zst and as a WAT: decoded ahead of the
  # parsing on a goroutine of their own (a queue of 8 chunks of 256 KiB),
  # from a file and from standard input.
  "$tmp/gen" warc.zst "$warc" > "$tmp/big.warc.zst"
  measure "links FILE.warc.zst (same records)" 128 \
    "$tmp/relurl" links "$tmp/big.warc.zst" | enough "links WARC zstd" $((warc / 100))
  measure "links - < FILE.warc.zst" 128 \
    "$tmp/relurl" links - < "$tmp/big.warc.zst" | enough "links - (WARC zstd)" $((warc / 100))
  rm -f "$tmp/big.warc.zst"
  "$tmp/relurl" links --format wat -o "$tmp/big.wat.gz" "$tmp/big.warc.gz"
  measure "links --input-format wat FILE.wat.gz" 128 \
    "$tmp/relurl" links --input-format wat "$tmp/big.wat.gz" | enough "links WAT" $((warc / 100))
  measure "links --input-format wat - < FILE.wat.gz" 128 \
    "$tmp/relurl" links --input-format wat - < "$tmp/big.wat.gz" | enough "links - (WAT)" $((warc / 100))
  rm -f "$tmp/big.wat.gz"
  measure "materialize -o DIR (same)" 128 \
    "$tmp/relurl" materialize --quiet -o "$tmp/tree" "$tmp/big.warc.gz"
  files=$(find "$tmp/tree" -type f -name '*.html' | wc -l)
  if [ "$files" -lt "${records:-1}" ]; then
    echo "memcheck: materialize: $files pages for ${records:-?} records" >&2
    touch "$tmp/failed"
  fi
  rm -rf "$tmp/tree" "$tmp/big.warc.gz"
}
if [ "${MEMCHECK_ONLY:-}" = warc ]; then
  warcs
  [ ! -e "$tmp/failed" ]
  exit
fi
hostile
if [ "${MEMCHECK_ONLY:-}" = hostile ]; then
  [ ! -e "$tmp/failed" ]
  exit
fi

"$tmp/gen" page "$gib" base | measure "rewrite - ($((gib >> 20)) MiB piped)" 64 \
  "$tmp/relurl" rewrite --base https://gen.example/ - | enough rewrite "$gib"
"$tmp/gen" page "$page" base | measure "links --format text - ($((page / 1000000)) MB page)" 64 \
  "$tmp/relurl" links --format text - | enough "links -" $((page / 100))
# A <style> sheet four times the old 16 MiB hold passes in pieces: the
# output must end with the rewritten link after it.
style=$((64 * 1024 * 1024 / scale))
"$tmp/gen" style "$style" | measure "rewrite - ($((style >> 20)) MiB <style> sheet piped)" 64 \
  "$tmp/relurl" rewrite --base https://gen.example/ - > "$tmp/style.out"
if ! tail -c 200 "$tmp/style.out" | grep -q 'href="https://gen.example/the-end.html"'; then
  echo "memcheck: rewrite - (<style>): the link after the sheet is not rewritten" >&2
  touch "$tmp/failed"
fi
enough "rewrite - (<style>)" "$style" < "$tmp/style.out"
rm -f "$tmp/style.out"

mkdir "$tmp/site"
"$tmp/gen" page "$page" > "$tmp/site/page.html"
measure "links --format text FILE ($((page / 1000000)) MB page)" 64 \
  "$tmp/relurl" links --format text "$tmp/site/page.html" | enough "links FILE" $((page / 100))
measure "links FILE (jsonl, same page)" 64 \
  "$tmp/relurl" links "$tmp/site/page.html" | enough "links FILE jsonl" $((page / 10))
# Long links (v6): 150 links of 1 MiB each, one worker (links -j 1 encodes
# and writes its records behind the worker when a core is free): what is
# held for the output is bounded by bytes, not only by a count of records.
long=$((1024 * 1024 / scale))
{
  printf '<html><body>'
  for i in $(seq 1 150); do
    printf '<a href="https://gen.example/'; head -c "$long" /dev/zero | tr '\0' a; printf '%d">x</a>\n' "$i"
  done
} > "$tmp/long.html"
measure "links -j 1 FILE (150 links of $((long >> 10)) KiB)" 64 \
  "$tmp/relurl" links -j 1 "$tmp/long.html" | enough "links -j 1 long links" $((150 * long))
rm -f "$tmp/long.html"
# The writes stream too: into a temporary file beside the target, renamed
# over it. The mirror and the rewritten file must be whole (the links made
# absolute make them longer than the page).
measure "rewrite -o DIR (same page)" 64 \
  "$tmp/relurl" rewrite --quiet --base https://gen.example/ -o "$tmp/mirror" "$tmp/site"
written() { # written NAME FILE: FILE is longer than the page and ends it
  if [ "$(stat -c %s "$2" 2>/dev/null || echo 0)" -le "$page" ] || [ "$(tail -c 15 "$2")" != "</body></html>" ]; then
    echo "memcheck: $1: $2 is not the whole rewritten page" >&2
    touch "$tmp/failed"
  fi
}
written "rewrite -o" "$tmp/mirror/page.html"
rm -rf "$tmp/mirror"
measure "rewrite -i FILE (same page)" 64 \
  "$tmp/relurl" rewrite --quiet --base https://gen.example/ -i "$tmp/site/page.html"
written "rewrite -i" "$tmp/site/page.html"
rm -rf "$tmp/site"

# MHTML (issue 11, note 11d): five 8bit HTML parts of a fifth of the page
# each, from the file and piped (spooled to a temporary file). The archive's
# headers are read first, then each part's body from the file: neither the
# archive nor a part is held. Both must end with the last part's last link
# and a clean status line counting the same links.
mht=$((page / 5))
{
  printf 'MIME-Version: 1.0\r\nContent-Type: multipart/related; boundary="=_gen"; type="text/html"\r\n\r\n'
  for i in 1 2 3 4 5; do
    printf -- '--=_gen\r\nContent-Type: text/html; charset=utf-8\r\nContent-Transfer-Encoding: 8bit\r\nContent-Location: https://gen.example/p%d.html\r\n\r\n' "$i"
    "$tmp/gen" page "$mht"
    printf '\r\n'
  done
  printf -- '--=_gen--\r\n'
} > "$tmp/big.mht"
mmb=$(( $(stat -c %s "$tmp/big.mht") / 1000000 ))
measure "links --format text FILE.mht (${mmb} MB, 5 parts)" 64 \
  "$tmp/relurl" links --format text --status "$tmp/big.mht" | tail -n 2 > "$tmp/mht.file"
measure "links --format text - (same MHTML, piped)" 64 \
  "$tmp/relurl" links --format text --status - < "$tmp/big.mht" | tail -n 2 > "$tmp/mht.stdin"
for out in file stdin; do
  n=$(sed -n 's/^{"status":"ok",.*"links":\([0-9]*\),"record_errors":0}$/\1/p' "$tmp/mht.$out")
  if [ "$(head -n 1 "$tmp/mht.$out")" != https://gen.example/the-end.html ] || [ "${n:-0}" -lt $((page / 100)) ]; then
    echo "memcheck: links MHTML ($out): not every link: $(cat "$tmp/mht.$out")" >&2
    touch "$tmp/failed"
  fi
done
if [ "$(tail -n 1 "$tmp/mht.file" | sed 's/"file":"[^"]*"//')" != "$(tail -n 1 "$tmp/mht.stdin" | sed 's/"file":"[^"]*"//')" ]; then
  echo "memcheck: links MHTML: file and piped counts differ" >&2
  touch "$tmp/failed"
fi
# rewrite of the same archive, from the file and piped: each 8bit HTML
# part is rewritten as it is read from the file, never held (before: the
# archive held whole, 2.2 GB peak). Both outputs must be the same bytes,
# at least as long as the archive, ending with the last part's last link
# in absolute form.
measure "rewrite FILE.mht (same MHTML)" 64 \
  "$tmp/relurl" rewrite --base https://gen.example/ "$tmp/big.mht" > "$tmp/mht.out1"
measure "rewrite - (same MHTML, piped)" 64 \
  "$tmp/relurl" rewrite --base https://gen.example/ - < "$tmp/big.mht" > "$tmp/mht.out2"
enough "rewrite MHTML" "$(stat -c %s "$tmp/big.mht")" < "$tmp/mht.out1"
if ! cmp -s "$tmp/mht.out1" "$tmp/mht.out2" || ! tail -c 300 "$tmp/mht.out1" | grep -q 'href="https://gen.example/the-end.html"'; then
  echo "memcheck: rewrite MHTML: the file's and the pipe's outputs differ, or the last link is not rewritten" >&2
  touch "$tmp/failed"
fi
rm -f "$tmp/big.mht" "$tmp/mht.file" "$tmp/mht.stdin" "$tmp/mht.out1" "$tmp/mht.out2"

# MHTML whose HTML parts are quoted-printable and base64 (issue 11, 11h),
# as most saved pages store them, and one of them inside a message/rfc822
# part: each part is decoded as it is read from the file, rewritten, and
# encoded again as it is written, never held (before: each part held
# decoded, rewritten and encoded, 1.5 GB peak). links must end with the
# last part's last link; the rewritten archive, from the file and piped,
# must be the same bytes, differ from the input, and have the same links.
{
  printf 'MIME-Version: 1.0\r\nContent-Type: multipart/related; boundary="=_gen"; type="text/html"\r\n\r\n'
  for i in 1 2 3 4; do
    enc=quoted-printable; [ $((i % 2)) = 0 ] && enc=base64
    printf -- '--=_gen\r\nContent-Type: text/html; charset=utf-8\r\nContent-Transfer-Encoding: %s\r\nContent-Location: https://gen.example/p%d.html\r\n\r\n' "$enc" "$i"
    if [ "$enc" = base64 ]; then "$tmp/gen" base64 "$mht"; else "$tmp/gen" qp "$mht"; fi
    printf '\r\n'
  done
  printf -- '--=_gen\r\nContent-Type: message/rfc822\r\n\r\nContent-Type: text/html\r\nContent-Transfer-Encoding: base64\r\nContent-Location: https://gen.example/enclosed/\r\n\r\n'
  "$tmp/gen" base64 "$mht"
  printf '\r\n--=_gen--\r\n'
} > "$tmp/enc.mht"
emb=$(( $(stat -c %s "$tmp/enc.mht") / 1000000 ))
measure "links --format text FILE.mht (${emb} MB, QP/base64)" 64 \
  "$tmp/relurl" links --format text --status "$tmp/enc.mht" | tail -n 2 > "$tmp/enc.links"
measure "rewrite FILE.mht (same, QP/base64)" 64 \
  "$tmp/relurl" rewrite --base https://gen.example/ "$tmp/enc.mht" > "$tmp/enc.out1.mht"
measure "rewrite - (same, QP/base64, piped)" 64 \
  "$tmp/relurl" rewrite --base https://gen.example/ - < "$tmp/enc.mht" > "$tmp/enc.out2"
"$tmp/relurl" links --format text --status "$tmp/enc.out1.mht" | tail -n 2 > "$tmp/enc.relinks"
n=$(sed -n 's/^{"status":"ok",.*"links":\([0-9]*\),"record_errors":0}$/\1/p' "$tmp/enc.links")
if [ "$(head -n 1 "$tmp/enc.links")" != https://gen.example/enclosed/the-end.html ] || [ "${n:-0}" -lt $((page / 100)) ]; then
  echo "memcheck: links MHTML (QP/base64): not every link: $(cat "$tmp/enc.links")" >&2
  touch "$tmp/failed"
fi
enough "rewrite MHTML (QP/base64)" "$(stat -c %s "$tmp/enc.mht")" < "$tmp/enc.out1.mht"
if ! cmp -s "$tmp/enc.out1.mht" "$tmp/enc.out2" || cmp -s "$tmp/enc.out1.mht" "$tmp/enc.mht" ||
  [ "$(sed 's/"file":"[^"]*"//' "$tmp/enc.links")" != "$(sed 's/"file":"[^"]*"//' "$tmp/enc.relinks")" ]; then
  echo "memcheck: rewrite MHTML (QP/base64): outputs differ, nothing rewritten, or links lost" >&2
  touch "$tmp/failed"
fi
rm -f "$tmp/enc.mht" "$tmp/enc.links" "$tmp/enc.relinks" "$tmp/enc.out1.mht" "$tmp/enc.out2"

warcs
[ ! -e "$tmp/failed" ]
