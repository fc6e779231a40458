#!/bin/sh
# The real-code check (issue 12): builds a real project's tests at -O0 -g
# -finstrument-functions with g++/libstdc++ and with clang++/libc++, runs
# them with hl_trace preloaded (a shadow stack and a counting operator new),
# charges every allocation made inside a std::function or std::any
# constructor, copy or assignment to the innermost call site in the
# project's own files, and compares those lines with heaplint's findings on
# the project's compile database. See bench/realcode/README.md.
#
#   bench/realcode/run.sh [-o OUT] [-H HEAPLINT] [-l LIBS] [-t TAGS] [-a] [-c] PROJECT SRC
#
# PROJECT names a recipe below (how to configure, build and run its tests);
# SRC is a checkout of it (never part of this repository). LIBS is
# "libstdc++ libc++" by default; TAGS, the test files to run (Catch2 file
# tags, e.g. "[#test_dispatcher_basic]"), all by default; -a adds their
# records to the trace already in OUT instead of starting a new one (run the
# light test files first, the slow ones later). -c only re-runs heaplint and
# the comparison on OUT's build and trace (a new heaplint, the same run).
# OUT (default
# build-realcode/PROJECT) gets, per library: the build, funcs.txt, trace.txt, lines.txt (per source line:
# kind, calls, allocations, allocating calls), heaplint.json and
# compare.txt; lines-user.txt and compare-user.txt charge each allocation to
# the innermost call site in the project's tests instead (the user's line
# that handed the callable to the library).
set -eu

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
out= heaplint="$top/build/bin/heaplint" libs="libstdc++ libc++" tags= append= compare_only=
usage="usage: $0 [-o OUT] [-H HEAPLINT] [-l LIBS] [-t TAGS] [-a] [-c] PROJECT SRC"
while getopts o:H:l:t:ac opt; do
  case $opt in
    o) out=$OPTARG ;;
    H) heaplint=$OPTARG ;;
    l) libs=$OPTARG ;;
    t) tags=$OPTARG ;;
    a) append=1 ;;
    c) compare_only=1 ;;
    *) echo "$usage" >&2; exit 2 ;;
  esac
done
shift $((OPTIND - 1))
[ $# -eq 2 ] || { echo "$usage" >&2; exit 2; }
project=$1
src=$(cd "$2" && pwd)
out=${out:-build-realcode/$project}
mkdir -p "$out"
out=$(cd "$out" && pwd)

# Recipes: cmake_src (the CMake project to configure), targets (what to
# build), tests (the test program, relative to the build), sources (the
# files heaplint analyzes, relative to SRC), user (the directory whose lines
# are the user's, relative to SRC).
case $project in
  eventpp)
    # wqking/eventpp: header-only; its tests are their own CMake project
    # (Catch2 bundled in tests/). The unit tests only: the benchmarks time
    # things, the tutorials print.
    cmake_src=$src/tests targets=unittest tests=unittest/unittest sources="tests/unittest/*.cpp" user=tests ;;
  *) echo "$0: no recipe for '$project' (known: eventpp)" >&2; exit 2 ;;
esac

cc -std=c11 -O2 -g -Wall -Wextra -fPIC -shared -ftls-model=initial-exec \
  "$here/hl_trace.c" -o "$out/libhltrace.so" -lpthread
cc -std=c11 -O2 -g -Wall -Wextra "$here/hl_realcode.c" -o "$out/hl-realcode" -ldw -ljansson

flags="-O0 -g -finstrument-functions -fno-omit-frame-pointer"
for lib in $libs; do
  case $lib in
    libstdc++) c=gcc cxx=g++ extra= ;;
    libc++) c=/usr/lib/llvm-19/bin/clang cxx=/usr/lib/llvm-19/bin/clang++ extra=-stdlib=libc++ ;;
    *) echo "$0: unknown library '$lib' (libstdc++ or libc++)" >&2; exit 2 ;;
  esac
  dir=$out/$lib
  mkdir -p "$dir"
  prog=$dir/build/$tests
  if [ -z "$compare_only" ]; then
    echo "== $project, $lib: build" >&2
    cmake -S "$cmake_src" -B "$dir/build" -DCMAKE_BUILD_TYPE= -DCMAKE_C_COMPILER="$c" -DCMAKE_CXX_COMPILER="$cxx" \
      -DCMAKE_CXX_FLAGS="$flags $extra" \
      -DCMAKE_EXPORT_COMPILE_COMMANDS=ON >"$dir/configure.log"
    cmake --build "$dir/build" --target $targets -j"$(nproc)" >"$dir/build.log"

    echo "== $project, $lib: run" >&2
    nm -C --defined-only "$prog" | "$out/hl-realcode" funcs | sort -u >"$dir/funcs.txt"
    if [ -z "$append" ]; then
      : >"$dir/trace.txt"
      : >"$dir/test.log"
      : >"$dir/tags.txt"
    fi
    # One process per test file (Catch2's file-name tags): a test that dies
    # (the multi-threaded ones are timing-dependent, and instrumented code is
    # slow) takes only its own file's records with it.
    set -f # the tags look like glob patterns
    for tag in ${tags:-$("$prog" --list-tags -# | grep -o '\[#[^]]*\]')}; do
      echo "$tag" >>"$dir/tags.txt"
      (cd "$dir/build" && HL_TRACE_FUNCS="$dir/funcs.txt" HL_TRACE_OUT="$dir/trace.txt" \
        LD_PRELOAD="$out/libhltrace.so" "$prog" -# "$tag" >>"$dir/test.log" 2>&1) ||
        echo "$0: $tests $tag failed (see $dir/test.log); its records still count" >&2
    done
    set +f
  fi
  "$out/hl-realcode" report "$src" "$prog" "$dir/trace.txt" >"$dir/lines.txt"
  "$out/hl-realcode" report "$src/$user" "$prog" "$dir/trace.txt" >"$dir/lines-user.txt"

  echo "== $project, $lib: heaplint" >&2
  # Run where the comparison runs: the JSON's paths are relative to it.
  (cd "$dir" && "$heaplint" -p "$dir/build" --format=json $(cd "$src" && for f in $sources; do echo "$src/$f"; done) \
    >heaplint.json 2>heaplint.log) || true
  (cd "$dir" && "$out/hl-realcode" compare --executed lines-user.txt lines.txt heaplint.json "$project $lib" >compare.txt &&
    "$out/hl-realcode" compare lines-user.txt heaplint.json "$project $lib (user lines)" >compare-user.txt)
  grep -h -v ': miss: \|: false: ' "$dir/compare.txt" "$dir/compare-user.txt"
done
