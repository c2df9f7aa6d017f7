#!/usr/bin/env bash
# Wall time, CPU time and peak RSS of `relurl links` on a compressed WARC
# and WAT, each from a file and from standard input, beside zcat/zstdcat
# on the same file: the pipelined reading (decompression on a goroutine
# of its own) against an older build.
#   usage: testdata/bench/warcpipe.sh BEFORE_BIN AFTER_BIN CORPUS_DIR [ROUNDS]
# Prints, per case and binary, the median over ROUNDS (5) of wall seconds,
# user+sys seconds and peak RSS (MiB), and the fastest wall time (on a
# shared machine the least disturbed), the runs taking turns. Needs GNU
# time (/usr/bin/time), zcat and zstdcat.
set -euo pipefail
cd "$(dirname "$0")/../.."
before=$1 after=$2 corpus=$3 rounds=${4:-5}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go run ./testdata/bench/warcgen -n 1 -pages 1032 -o "$tmp" "$corpus"
go run ./testdata/bench/warcgen -zstd -n 1 -pages 1032 -o "$tmp" "$corpus"
"$after" links --format wat -o "$tmp/bench.wat.gz" "$tmp/bench-000.warc.gz"
gz=$tmp/bench-000.warc.gz zst=$tmp/bench-000.warc.zst wat=$tmp/bench.wat.gz
for f in "$gz" "$zst" "$wat"; do
  printf '%s: %d bytes, %d decoded\n' "$(basename "$f")" "$(stat -c %s "$f")" "$( (zcat "$f" 2>/dev/null || zstdcat "$f") | wc -c)"
done

# run NAME CMD...: one timed run, appended to $tmp/NAME as "wall cpu rss_kb".
run() {
  local name=$1; shift
  /usr/bin/time -f '%e %U %S %M' -o "$tmp/t" bash -c "$*" > /dev/null
  awk '{printf "%s %.2f %s\n", $1, $2 + $3, $4}' "$tmp/t" >> "$tmp/$name"
}
cases=(
  "warc.gz-file|links $gz"
  "warc.gz-stdin|links - < $gz"
  "warc.zst-file|links $zst"
  "warc.zst-stdin|links - < $zst"
  "wat.gz-file|links --input-format wat $wat"
  "wat.gz-stdin|links --input-format wat - < $wat"
)
for _ in $(seq "$rounds"); do
  for c in "${cases[@]}"; do
    name=${c%%|*} args=${c#*|}
    run "$name.before" "$before $args"
    run "$name.after" "$after $args"
  done
  run zcat-warc.gz "zcat $gz"
  run zstdcat-warc.zst "zstdcat $zst"
  run zcat-wat.gz "zcat $wat"
done
median() { sort -n | awk '{a[NR] = $1} END {print a[int((NR + 1) / 2)]}'; }
printf '%-24s %8s %8s %8s %8s\n' case wall_s cpu_s rss_MiB min_wall
for f in $(cd "$tmp" && ls | grep -E '\.(before|after)$|cat-' | sort); do
  printf '%-24s %8s %8s %8d %8s\n' "$f" "$(cut -d' ' -f1 "$tmp/$f" | median)" \
    "$(cut -d' ' -f2 "$tmp/$f" | median)" "$(( ($(cut -d' ' -f3 "$tmp/$f" | median) + 1023) / 1024 ))" \
    "$(cut -d' ' -f1 "$tmp/$f" | sort -n | head -n 1)"
done
