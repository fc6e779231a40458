#!/bin/sh
# Builds the runtime benchmarks in Release (build-bench/ by default) and
# prints the Markdown tables recorded in bench/README.md.
#
#   bench/runtime/run.sh [-b BUILD] [-x BINDIR] [-p PROCESSES] [-r ROUNDS] [-t THREADS] [-n COUNT]
#                        [-m NAME=LIB] [-w WHAT] [-k SPINS] [-c] [-s]
#   bench/runtime/run.sh --smoke [-x BINDIR]
#
# Node containers (hl_bench_nodes): PROCESSES times over (default 7), one
# process per malloc and thread count in turn -- glibc, then mimalloc and
# jemalloc preloaded (Debian: apt-get install libmimalloc2.0 libjemalloc2;
# a malloc that is not installed is left out) -- each measuring every
# allocator for ROUNDS interleaved rounds (default 31). THREADS: the thread
# counts (default "1 4"). -c adds instruction counts under callgrind (one
# process per malloc, single-threaded); -s skips the other benchmarks
# (allocate/free pairs, callables). -x: use the benchmarks already built in
# BINDIR (a heaplint build's bench/runtime) instead of building them.
# -m NAME=LIB: preload LIB as malloc NAME (mimalloc or jemalloc) instead of
# the Debian package's. -w WHAT: the benchmarks to run, of "nodes pairs
# callables remote latency" (the default: all; -s is -w nodes).
# Frees from another thread (hl_bench_remote) and per-call latency
# (hl_bench_latency): PROCESSES times over, one process per allocator and
# case, COUNT messages or timed calls each (default 5000000 and 2000000);
# -k SPINS: hl_bench_remote's polls before a waiting side sleeps (default 0).
# --smoke: every benchmark once with tiny counts (1 process, 1 round, 1 and 2
# threads), which checks that they run and print their tables (ctest
# bench.runtime-smoke); its figures mean nothing.
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
build=$top/build-bench procs=7 rounds=31 threads="1 4" cg=0 bindir= count= preload= spins=
what="nodes pairs callables remote latency"
if [ "${1:-}" = --smoke ]; then
  shift
  procs=1 rounds=1 threads="1 2" count=2000
fi
while getopts b:x:p:r:t:n:m:w:k:cs opt; do
  case $opt in
    b) build=$OPTARG ;;
    x) bindir=$OPTARG ;;
    p) procs=$OPTARG ;;
    r) rounds=$OPTARG ;;
    t) threads=$OPTARG ;;
    n) count=$OPTARG ;;
    m) preload="$preload $OPTARG" ;;
    w) what=$OPTARG ;;
    k) spins=$OPTARG ;;
    c) cg=1 ;;
    s) what=nodes ;;
    *) sed -n '2,31p' "$0" >&2; exit 2 ;;
  esac
done

if [ -n "$bindir" ]; then
  build=$(cd "$bindir" && pwd)
else
  cmake -S "$top/bench/runtime" -B "$build" -DCMAKE_BUILD_TYPE=Release >/dev/null
  cmake --build "$build" -j "$(nproc 2>/dev/null || echo 2)" >/dev/null
fi

libdir=/usr/lib/$(gcc -print-multiarch 2>/dev/null || echo x86_64-linux-gnu)
mallocs="glibc="
for m in mimalloc:libmimalloc.so.2 jemalloc:libjemalloc.so.2; do
  lib=$libdir/${m#*:}
  for given in $preload; do
    [ "${given%%=*}" = "${m%%:*}" ] && lib=${given#*=}
  done
  if [ -e "$lib" ]; then
    mallocs="$mallocs ${m%%:*}=$lib"
  else
    echo "run.sh: $lib not found: ${m%%:*} left out" >&2
  fi
done

wants() { case " $what " in *" $1 "*) return 0 ;; *) return 1 ;; esac; }

# run RAW MALLOC REPETITION BENCHMARK ARGS...: one process, its lines
# prefixed with the malloc and the repetition. Through a file, so that a
# benchmark that fails stops the script (set -e).
run() {
  raw=$1 m=$2 rep=$3
  shift 3
  LD_PRELOAD=${m#*=} "$build/$@" >"$raw.one"
  sed "s/^/${m%%=*}\t$rep\t/" "$raw.one" >>"$raw"
}

sep=
if wants nodes; then
  raw=$build/nodes.tsv
  : >"$raw"
  p=1
  while [ "$p" -le "$procs" ]; do
    for n in $threads; do
      for m in $mallocs; do run "$raw" "$m" "$p" hl_bench_nodes "$n" "$rounds"; done
    done
    p=$((p + 1))
  done

  echo "### Node containers (median ns per operation; ratios per process: median (range))"
  echo
  python3 "$top/bench/runtime/nodes_report.py" times "$raw"
  sep=echo
fi

if wants nodes && [ "$cg" = 1 ]; then
  echo
  echo "### Node containers under callgrind (instructions per operation, single-threaded)"
  echo
  dirs=
  for m in $mallocs; do
    d=$build/callgrind/${m%%=*}
    rm -rf "$d" && mkdir -p "$d"
    LD_PRELOAD=${m#*=} valgrind --tool=callgrind --collect-atstart=no \
      --callgrind-out-file="$d/callgrind.out" "$build/hl_bench_nodes" 1 3 >/dev/null 2>"$d/valgrind.log"
    dirs="$dirs $d"
  done
  HL_CALLGRIND_ROUNDS=3 python3 "$top/bench/runtime/nodes_report.py" callgrind $dirs
fi

if wants pairs; then
  $sep
  echo "### Allocate/free pairs of a 24-byte block (median ns per pair)"
  echo
  "$build/hl_bench_pairs" "$rounds" >"$build/pairs.tsv"
  awk -F '\t' '
    { ns[$1] = $2; order[n++] = $1 }
    END {
      print "| malloc | hl_malloc | hl_allocator | hl_pool | hl_pool (stack) | malloc / hl_malloc |"
      print "|---:|---:|---:|---:|---:|---:|"
      printf "| %.2f | %.2f | %.2f | %.2f | %.2f | %.2fx |\n", ns["malloc"], ns["hl_malloc"], ns["hl_allocator"],
        ns["hl_pool"], ns["hl_pool_stack"], ns["malloc"] / ns["hl_malloc"]
    }' "$build/pairs.tsv"
  sep=echo
fi

if wants callables; then
  for opt in O2 O0; do
    $sep
    echo "### Callables at -$opt (ns per construct+destroy, ns per call, global allocations per construction)"
    echo
    "$build/hl_bench_callables_$opt" "$rounds" >"$build/callables.txt"
    awk '
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
      }' "$build/callables.txt"
    sep=echo
  done
fi

if wants remote; then
  raw=$build/remote.tsv
  : >"$raw"
  p=1
  while [ "$p" -le "$procs" ]; do
    for c in 1 3; do
      for k in node string event mixed; do
        # The columns in turn, the first one moved along at each repetition:
        # this machine's speed changes within seconds (bench/README.md), so
        # no column is always the one run first or last.
        set -- $mallocs hl
        i=0
        while [ "$i" -lt "$(( (p - 1) % $# ))" ]; do
          first=$1
          shift
          set -- "$@" "$first"
          i=$((i + 1))
        done
        for m in "$@"; do
          if [ "$m" = hl ]; then
            run "$raw" glibc= "$p" hl_bench_remote hl "$k" "$c" "${count:-5000000}" $spins
          else
            run "$raw" "$m" "$p" hl_bench_remote std "$k" "$c" "${count:-5000000}" $spins
          fi
        done
      done
    done
    p=$((p + 1))
  done
  $sep
  echo "### Frees from another thread (1 producer, N consumers)"
  echo
  python3 "$top/bench/runtime/report.py" remote "$raw"
  sep=echo
fi

if wants latency && [ -x "$build/hl_bench_latency" ]; then
  raw=$build/latency.tsv
  : >"$raw"
  p=1
  while [ "$p" -le "$procs" ]; do
    for m in $mallocs; do run "$raw" "$m" "$p" hl_bench_latency std "${count:-2000000}"; done
    for a in pmr hl hl_node hl_pool hl_pool_stack floor; do run "$raw" glibc= "$p" hl_bench_latency "$a" "${count:-2000000}"; done
    p=$((p + 1))
  done
  $sep
  echo "### Latency per call on a fragmented heap"
  echo
  python3 "$top/bench/runtime/report.py" latency "$raw"
  # The system calls the allocator makes after start-up: strace -f between
  # the two prctl(PR_SET_NAME) marks hl_bench_latency sets (glibc's malloc,
  # as the baseline; a std::pmr pool's come from it too).
  if command -v strace >/dev/null 2>&1; then
    echo
    line="System calls after start-up (strace -f, ${count:-2000000} calls):"
    for a in std hl hl_pool hl_pool_stack; do
      if strace -f -o "$raw.strace" "$build/hl_bench_latency" "$a" "${count:-2000000}" >/dev/null 2>&1; then
        n=$(awk '/"hl-timed"/ { on = 1; next } /"hl-done"/ { on = 0 } on { n++ } END { print n + 0 }' "$raw.strace")
        line="$line $(echo "$a" | sed 's/^std$/glibc/') $n,"
      else
        line="$line $a: strace failed,"
      fi
    done
    echo "${line%,}"
  fi
  sep=echo
fi
echo
echo "($(uname -m), $(${CXX:-c++} --version | head -1), $(date -u +%Y-%m-%d))"
