#!/bin/sh
# Builds the runtime benchmarks in Release (build-bench/ by default) and
# prints the Markdown tables recorded in bench/README.md.
#   bench/runtime/run.sh [build-dir] [repetitions]
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:-$top/build-bench}
reps=${2:-41}

cmake -S "$top/bench/runtime" -B "$build" -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$build" -j "$(nproc 2>/dev/null || echo 2)" >/dev/null

echo "### Node containers: 10,000 inserts then clear (median ns per insert)"
echo
"$build/hl_bench_containers" "$reps" | awk -F '\t' '
  { ns[$1 " " $2] = $3; news[$1 " " $2] = $4
    if (!($1 in seen)) { seen[$1] = 1; order[n++] = $1 } }
  END {
    print "| container | std::allocator | hl::pool_allocator | hl::bound_allocator | pmr::unsynchronized_pool | std / hl | pmr / hl |"
    print "|---|---:|---:|---:|---:|---:|---:|"
    for (i = 0; i < n; i++) {
      c = order[i]; s = ns[c " std::allocator"]; h = ns[c " hl::pool_allocator"]
      b = ns[c " hl::bound_allocator"]; p = ns[c " pmr::unsynchronized_pool"]
      printf "| %s | %.2f | %.2f | %.2f | %.2f | %.2fx | %.2fx |\n", c, s, h, b, p, s / h, p / h
    }
    print ""
    printf "Global operator new calls per round (hl columns must be 0):"
    for (i = 0; i < n; i++) {
      c = order[i]
      printf " %s %s/%s/%s/%s;", c, news[c " std::allocator"], news[c " hl::pool_allocator"],
        news[c " hl::bound_allocator"], news[c " pmr::unsynchronized_pool"]
    }
    print ""
  }'

echo
echo "### Allocate/free pairs of a 24-byte block (median ns per pair)"
echo
"$build/hl_bench_pairs" "$reps" | awk -F '\t' '
  { ns[$1] = $2; order[n++] = $1 }
  END {
    print "| malloc | hl_malloc | hl_allocator | hl_pool | malloc / hl_malloc |"
    print "|---:|---:|---:|---:|---:|"
    printf "| %.2f | %.2f | %.2f | %.2f | %.2fx |\n", ns["malloc"], ns["hl_malloc"], ns["hl_allocator"],
      ns["hl_pool"], ns["malloc"] / ns["hl_malloc"]
  }'

for opt in O2 O0; do
  echo
  echo "### Callables at -$opt (ns per construct+destroy, ns per call, global allocations per construction)"
  echo
  "$build/hl_bench_callables_$opt" "$reps" | awk '
    { key = $1; w = ($2 == "std::function") ? "s" : "h"
      c[key w] = $3; k[key w] = $4; a[key w] = $5
      if (!(key in seen)) { seen[key] = 1; order[n++] = key } }
    END {
      print "| target bytes | std::function construct | inplace_function construct | std::function call | inplace_function call | allocations std / hl |"
      print "|---:|---:|---:|---:|---:|---:|"
      for (i = 0; i < n; i++) {
        s = order[i]
        where = (a[s "s"] > 0) ? " (heap)" : " (inline)"
        printf "| %s | %.2f%s | %.2f | %.2f | %.2f | %s / %s |\n", s, c[s "s"], where,
          c[s "h"], k[s "s"], k[s "h"], a[s "s"], a[s "h"]
      }
    }'
done
echo
echo "($(uname -m), $(${CXX:-c++} --version | head -1), $(date -u +%Y-%m-%d))"
