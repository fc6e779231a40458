#!/bin/sh
# How the API rewrites' plan grows with the number of wrapper declarations
# (bench/index/scale.sh grows the units, over a seed with seven): a
# generated project of K classes in one header, each whose constructor moves
# its std::function parameter into a member (the plan links the two and
# retypes them together), and one unit passing each a 24-byte lambda (on
# the heap in libstdc++'s std::function), is analyzed once with --index;
# then `heaplint -p --index --link-only` judges it: the link step, the
# per-API figures and the plan over 2K declarations (K members, K
# parameters). Prints, per K: the link run's wall and user time, peak
# memory, and how many member rewrites it planned.
#
#   bench/index/decls.sh HEAPLINT [K...]     (default K: 1000 2000 4000)
#
# Parsing the generated unit takes most of the time (about 90 s at 4000).
# Nothing here is asserted: the figures go to bench/README.md.
set -eu
[ $# -ge 1 ] || { echo "usage: bench/index/decls.sh HEAPLINT [K...]" >&2; exit 2; }
heaplint=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
shift
sizes=${*:-1000 2000 4000}
top=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/heaplint-decls.XXXXXX")
[ -n "${KEEP:-}" ] || trap 'rm -rf "$work"' EXIT

echo "| declarations | link run (s) | user (s) | peak RSS (MiB) | members retyped |"
echo "|---:|---:|---:|---:|---:|"
for k in $sizes; do
  dir=$work/k$k
  mkdir -p "$dir"
  {
    printf '#pragma once\n#include <functional>\n#include <utility>\n'
    i=0
    while [ "$i" -lt "$k" ]; do
      printf 'class C%d {\npublic:\n  explicit C%d(std::function<void(int)> cb) : cb_(std::move(cb)) {}\n' "$i" "$i"
      printf '  void fire(int n) { cb_(n); }\n\nprivate:\n  std::function<void(int)> cb_;\n};\n'
      i=$((i + 1))
    done
  } > "$dir/api.h"
  {
    printf '#include "api.h"\nlong use(long x, long y) {\n  long r = 0;\n'
    i=0
    while [ "$i" -lt "$k" ]; do
      printf '  { C%d c([&r, x, y](int n) { r += n * x * y; }); c.fire(%d); }\n' "$i" "$i"
      i=$((i + 1))
    done
    printf '  return r;\n}\n'
  } > "$dir/use.cc"
  printf '[{"directory": "%s", "file": "use.cc", "arguments": ["c++", "-std=c++17", "-I%s/runtime/include", "-c", "use.cc"]}]\n' \
    "$dir" "$top" > "$dir/compile_commands.json"
  (cd "$dir" && "$heaplint" -p . --index="$dir/index.sqlite" -q > /dev/null 2>&1) || true
  /usr/bin/time -f '%e %U %M' -o "$dir/time" "$heaplint" -p "$dir" --index="$dir/index.sqlite" --link-only \
    --format=json -o "$dir/out.json" > /dev/null 2> "$dir/err" || true
  read -r secs user kib < "$dir/time"
  retyped=$(grep -o 'retype the member' "$dir/out.json" | wc -l)
  awk -v k="$k" -v s="$secs" -v u="$user" -v m="$kib" -v r="$retyped" 'BEGIN {
    printf "| %d | %.2f | %.2f | %.0f | %d |\n", 2 * k, s, u, m / 1024, r }'
  [ -n "${KEEP:-}" ] || rm -rf "$dir"
done
