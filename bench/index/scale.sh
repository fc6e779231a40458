#!/bin/sh
# How the project index and what is planned over it grow with the number of
# units: a seed project (tests/function-sbo/Inputs/alias: aliases in a shared
# header, values stored through them in four units, a third-party API) is
# analyzed once, then its index is cloned to N units (each clone a directory
# of its own, its main files' rows renamed, the header's rows shared as a
# real header's are) and `heaplint -p --index --link-only` judges it: the
# link step over every unit, the per-API figures and the API rewrites'
# plan, without parsing. Prints, per N: the index's size, the link run's
# wall time and peak memory, and each per unit.
#
#   bench/index/scale.sh HEAPLINT [N...]     (default N: 1000 2000 5000 10000)
#
# Nothing here is asserted: the figures go to bench/README.md.
set -eu
[ $# -ge 1 ] || { echo "usage: bench/index/scale.sh HEAPLINT [N...]" >&2; exit 2; }
heaplint=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
shift
sizes=${*:-1000 2000 5000 10000}
top=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/heaplint-scale.XXXXXX")
[ -n "${KEEP:-}" ] || trap 'rm -rf "$work"' EXIT

seed=$work/seed
cp -r "$top/tests/function-sbo/Inputs/alias" "$seed"
sed -e "s|@DIR@|$seed|" -e "s|@RUNTIME@|\"-I$top/runtime/include\", |" \
  "$top/tests/function-sbo/Inputs/alias/compile_commands.json.in" > "$seed/compile_commands.json"
(cd "$seed" && "$heaplint" -p . --index=seed.sqlite -q > /dev/null 2>&1) || true

echo "| units | index (MiB) | link run (s) | peak RSS (MiB) | index per unit (KiB) | ms per unit |"
echo "|---:|---:|---:|---:|---:|---:|"
for n in $sizes; do
  dir=$work/n$n
  mkdir -p "$dir"
  python3 "$top/bench/index/clone.py" "$seed" "$seed/seed.sqlite" "$dir" "$n"
  /usr/bin/time -f '%e %M' -o "$dir/time" "$heaplint" -p "$dir" --index="$dir/index.sqlite" --link-only \
    --format=json -o "$dir/out.json" > /dev/null 2> "$dir/err" || true
  read -r secs kib < "$dir/time"
  bytes=$(stat -c %s "$dir/index.sqlite")
  awk -v n="$n" -v b="$bytes" -v s="$secs" -v k="$kib" 'BEGIN {
    printf "| %d | %.1f | %.2f | %.0f | %.1f | %.2f |\n", n, b / 1048576, s, k / 1024, b / 1024 / n, s * 1000 / n }'
  [ -n "${KEEP:-}" ] || rm -rf "$dir"
done
