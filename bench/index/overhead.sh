#!/bin/sh
# What the project index adds to a cold run: `heaplint -p` over a compile
# database with --index=none (no summaries, no index, no link step), with
# the index in memory (the default without a cache), and with it in a file
# (written through SQLite), taking turns ROUNDS times (default 5); prints
# the median CPU seconds (user + system) of each and the ratios to
# --index=none, measured in the same run. And an unchanged re-run with a
# result cache (every unit restored) with and without the index.
#
#   bench/index/overhead.sh HEAPLINT [BUILD_DIR] [ROUNDS]
#
# BUILD_DIR: a build directory with compile_commands.json (default: the
# bundled examples/, configured into a temporary folder).
set -eu
[ $# -ge 1 ] || { echo "usage: bench/index/overhead.sh HEAPLINT [BUILD_DIR] [ROUNDS]" >&2; exit 2; }
heaplint=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
top=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/heaplint-overhead.XXXXXX")
trap 'rm -rf "$work"' EXIT
if [ $# -ge 2 ] && [ -n "$2" ]; then
  db=$2
else
  cp -r "$top/examples" "$work/examples"
  cmake -S "$work/examples" -B "$work/examples/build" -DCMAKE_EXPORT_COMPILE_COMMANDS=ON > /dev/null
  db=$work/examples/build
fi
rounds=${3:-5}

# cpu NAME ARGS...: one run's user+system seconds, appended to NAME's list.
cpu() {
  name=$1
  shift
  /usr/bin/time -f '%U %S' -o "$work/t" "$heaplint" -p "$db" -q "$@" > /dev/null 2>&1 || true
  awk '{ printf "%.3f\n", $1 + $2 }' "$work/t" >> "$work/$name"
}
median() { sort -n "$work/$1" | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

r=1
while [ "$r" -le "$rounds" ]; do
  cpu none --index=none
  cpu memory
  rm -f "$work/index.sqlite"
  cpu file --index="$work/index.sqlite"
  # The cache and its index filled first: an unchanged re-run finds both.
  rm -rf "$work/cache"
  cpu warm-fill --cache-dir="$work/cache"
  cpu warm-none --index=none --cache-dir="$work/cache"
  cpu warm-index --cache-dir="$work/cache"
  r=$((r + 1))
done
n=$(median none)
echo "| run | CPU s (median of $rounds) | / --index=none |"
echo "|---|---:|---:|"
for v in none memory file; do
  m=$(median "$v")
  awk -v v="$v" -v m="$m" -v n="$n" 'BEGIN { printf "| cold, index %s | %.2f | %.3f |\n", v, m, m / n }'
done
wn=$(median warm-none)
wi=$(median warm-index)
awk -v a="$wn" -v b="$wi" 'BEGIN {
  printf "| unchanged re-run, --index=none | %.2f | 1.000 |\n", a
  printf "| unchanged re-run, index in the cache | %.2f | %.3f |\n", b, b / a }'
