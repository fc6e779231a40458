#!/bin/sh
# heaplint's speed against the parse floor (bench/README.md, "Analyzer").
#
#   bench/analyzer/run.sh [-n RUNS] [-H HEAPLINT] [-L LLVM_PREFIX] [-b] BUILD_DIR...
#
# For each build directory (one with a compile_commands.json) it times, RUNS
# times over, in turn: clang++ -fsyntax-only on every C++ entry of the
# database, libclang parsing the same entries (no analysis), and
# heaplint -j1 -p on the directory, and heaplint -jN with N the processors
# (the parallel speed-up). It prints the median wall and CPU (user+sys)
# times and heaplint's ratio to clang, as a Markdown table. The first table is
# single-threaded on every side: one translation unit at a time, one process
# at a time. The second compares heaplint -j1 with heaplint -jN.
# -b adds, per directory, where heaplint's time goes by libclang call.
#
# Defaults: 5 runs, HEAPLINT=build/bin/heaplint, LLVM_PREFIX=/usr/lib/llvm-19
# (its clang++ must be the version of the libclang heaplint links).
# Needs cc, pkg-config and libjansson-dev (the helper is built on the fly).
set -eu

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
runs=5
heaplint=$top/build/bin/heaplint
llvm=/usr/lib/llvm-19
breakdown=0

usage() {
  echo "usage: $0 [-n RUNS] [-H HEAPLINT] [-L LLVM_PREFIX] [-b] BUILD_DIR..." >&2
  exit 2
}
while getopts n:H:L:b opt; do
  case $opt in
    n) runs=$OPTARG ;;
    H) heaplint=$OPTARG ;;
    L) llvm=$OPTARG ;;
    b) breakdown=1 ;;
    *) usage ;;
  esac
done
shift $((OPTIND - 1))
[ $# -ge 1 ] || usage
clang=$llvm/bin/clang++
for f in "$heaplint" "$clang"; do
  [ -x "$f" ] || { echo "$0: $f: not found or not executable" >&2; exit 2; }
done

# Same compiler on both sides, or the ratio compares two front ends.
hl_version=$("$heaplint" --version | sed -n 's/.*clang version \([0-9.]*\).*/\1/p')
cl_version=$("$clang" --version | sed -n '1s/.*clang version \([0-9.]*\).*/\1/p')
if [ "$hl_version" != "$cl_version" ]; then
  echo "$0: heaplint uses libclang $hl_version but $clang is $cl_version (pass -L)" >&2
  exit 2
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT INT TERM
# shellcheck disable=SC2046 # pkg-config's output is meant to be split
cc -O2 -std=c11 -o "$work/replay" "$here/replay.c" -I"$llvm/include" $(pkg-config --cflags --libs jansson) \
  -L"$llvm/lib" -lclang -Wl,-rpath,"$llvm/lib"
replay=$work/replay

median() { sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

# "wall cpu" medians of one side's time lines ("wall user sys").
medians() {
  w=$(awk '{ print $1 }' "$1" | median)
  c=$(awk '{ print $2 + $3 }' "$1" | median)
  echo "$w $c"
}

echo "heaplint $("$heaplint" --version | sed -n 's/^heaplint \([^ ]*\).*/\1/p') and clang $cl_version;" \
  "$runs runs of each side; medians of wall time (CPU time, user+sys)"
echo
cores=$(nproc 2>/dev/null || echo 1)
: >"$work/jobs"
echo "| build dir | TUs | clang -fsyntax-only | libclang parse only | heaplint | heaplint / clang | heaplint / libclang |"
echo "|---|---:|---:|---:|---:|---:|---:|"
for dir in "$@"; do
  tus=$("$replay" count "$dir")
  # A warm-up of each side fills the page cache, and shows that every
  # translation unit parses on both: otherwise the sides do different work.
  if ! "$replay" syntax --clang "$clang" "$dir" >/dev/null; then
    echo "$0: $dir: clang cannot parse every translation unit; not comparable" >&2
    exit 1
  fi
  rc=0
  "$heaplint" -j1 -p "$dir" >/dev/null 2>"$work/heaplint.err" || rc=$?
  if [ "$rc" -ge 2 ]; then
    cat "$work/heaplint.err" >&2
    echo "$0: $dir: heaplint exited with $rc; not comparable" >&2
    exit 1
  fi
  : >"$work/clang" && : >"$work/libclang" && : >"$work/heaplint" && : >"$work/parallel"
  i=0
  while [ "$i" -lt "$runs" ]; do
    "$replay" time "$replay" syntax --clang "$clang" "$dir" >>"$work/clang"
    "$replay" time "$replay" libclang "$dir" >>"$work/libclang"
    "$replay" time "$heaplint" -j1 -p "$dir" >>"$work/heaplint"
    "$replay" time "$heaplint" -j"$cores" -p "$dir" >>"$work/parallel"
    i=$((i + 1))
  done
  read -r cw cc_ <<EOF2
$(medians "$work/clang")
EOF2
  read -r lw lc <<EOF2
$(medians "$work/libclang")
EOF2
  read -r hw hc <<EOF2
$(medians "$work/heaplint")
EOF2
  read -r pw pc <<EOF2
$(medians "$work/parallel")
EOF2
  awk -v d="$dir" -v n="$tus" -v cw="$cw" -v cc="$cc_" -v lw="$lw" -v lc="$lc" -v hw="$hw" -v hc="$hc" 'BEGIN {
    printf "| %s | %d | %.2f s (%.2f) | %.2f s (%.2f) | %.2f s (%.2f) | **%.2f** (%.2f) | %.2f (%.2f) |\n",
      d, n, cw, cc, lw, lc, hw, hc, hw / cw, hc / cc, hw / lw, hc / lc }'
  awk -v d="$dir" -v j="$cores" -v hw="$hw" -v pw="$pw" 'BEGIN {
    printf "%s|%d|%.2f|%.2f|%.2f\n", d, j, hw, pw, pw / hw }' >>"$work/jobs"
done

# Parallel runs: the same database with one job per processor.
echo
echo "| build dir | heaplint -j1 | heaplint -j N | N | -jN / -j1 (ideal 1/N) |"
echo "|---|---:|---:|---:|---:|"
awk -F'|' '{ printf "| %s | %.2f s | %.2f s | %d | **%.2f** |\n", $1, $3, $4, $2, $5 }' "$work/jobs"

if [ "$breakdown" -eq 1 ]; then
  cc -O2 -shared -fPIC -I"$llvm/include" -o "$work/apitime.so" "$here/apitime.c" -ldl
  for dir in "$@"; do
    echo
    echo "where heaplint's time goes on $dir (one run):"
    LD_PRELOAD=$work/apitime.so "$heaplint" -j1 -p "$dir" 2>&1 >/dev/null | sed -n 's/^apitime: /    /p'
  done
fi
