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
# tags, e.g. "[#test_dispatcher_basic]", or program names for a recipe of
# one program per file, e.g. "test_basics", then only those are built),
# all by default; -a adds their records to the trace already in OUT instead
# of starting a new one (run the light test files first, the slow ones
# later). -c only re-runs heaplint and
# the comparison on OUT's build and trace (a new heaplint, the same run).
# OUT (default build-realcode/PROJECT) gets, per library: the build,
# funcs-PROGRAM.txt and trace-PROGRAM.txt per test program, lines.txt (per
# source line: kind, calls, allocations, allocating calls, summed over the
# programs), heaplint.json and
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

# Recipes: cmake_src (the CMake project to configure), cmake_args (its
# options), targets (what to build), tests (the test programs, relative to
# the build), runner (catch2: one process per Catch2 file tag of the one
# program; each: one process per program), sources (the files heaplint
# analyzes, relative to SRC), user (the directory whose lines are the
# user's, relative to SRC), run_args (the arguments of each run of an
# "each" program), each_dir (where an "each" recipe's programs are, in the
# build, and their sources, in SRC: one NAME.cpp per program NAME).
cmake_args= runner=catch2 run_args= run_dir= own_headers=
case $project in
  eventpp)
    # wqking/eventpp: header-only; its tests are their own CMake project
    # (Catch2 bundled in tests/). The unit tests only: the benchmarks time
    # things, the tutorials print.
    cmake_src=$src/tests targets=unittest tests=unittest/unittest sources="tests/unittest/*.cpp" user=tests ;;
  taskflow)
    # taskflow/taskflow: header-only, C++20; one doctest program per unit
    # test file (doctest bundled). Build type None: its default is Release
    # (-O3), and the flags must be ours alone. The programs of its
    # TF_UNITTESTS list (test_exceptions, appended under a condition, and
    # test_serializer, commented out, are not among them); -t runs fewer.
    names=$(sed -n '/list(APPEND TF_UNITTESTS/,/^)/s/^ *\(test_[a-z_]*\) *$/\1/p' "$src/unittests/CMakeLists.txt")
    cmake_src=$src cmake_args="-DCMAKE_BUILD_TYPE=None -DTF_BUILD_TESTS=ON -DTF_BUILD_EXAMPLES=OFF -DTF_BUILD_BENCHMARKS=OFF"
    targets=$names runner=each user=unittests
    # The same test run with 3 to 64 workers executes the same lines as
    # with 1 and 2, and instrumented, the algorithm tests take 10 minutes
    # or more each with all of them.
    run_args="-tce=*3thread*,*4thread*,*5thread*,*6thread*,*7thread*,*8thread*,*9thread*,*10thread*,*11thread*,*12thread*,*13thread*,*15thread*,*16thread*,*29thread*,*31thread*,*32thread*,*64thread*"
    each_dir=unittests ;;
  cli11)
    # CLIUtils/CLI11: header-only; one Catch2 program per test file (the
    # system's Catch2: apt-get install catch2). The benchmarks' project
    # (bench/README.md), checked here for the precision of what heaplint
    # reports on it. The programs of its CLI11_TESTS list.
    names=$(sed -n '/^set(CLI11_TESTS/,/)/s/^ *\([A-Za-z]*Test\))\{0,1\} *$/\1/p' "$src/tests/CMakeLists.txt")
    cmake_src=$src cmake_args="-DCLI11_BUILD_TESTS=ON -DCLI11_BUILD_EXAMPLES=OFF -DCLI11_BUILD_DOCS=OFF"
    targets=$names runner=each user=tests each_dir=tests ;;
  httplib)
    # yhirose/cpp-httplib: header-only; its tests are one GoogleTest
    # program (test/test.cc, the system's GoogleTest and libcurl: apt-get
    # install libgtest-dev libcurl4-openssl-dev), run from its directory
    # (it serves www/). Without TLS and compression: fewer tests, the same
    # std::function machinery. Its Request and Response hold std::function
    # members that the library copies whole: issue 37's struct copies.
    # Tests that reach hosts on the internet fail offline; what they ran
    # still counts.
    cmake_src=$src targets=httplib-test tests=test/httplib-test runner=gtest sources="test/test.cc" user=test
    # GoogleTest from Debian's sources (libgtest-dev ships them), built with
    # the library under test: Debian's libgtest is built for libstdc++.
    # Test discovery at ctest time, not after the link: the instrumented
    # program can take longer than discovery's 5 s to list its tests on a
    # loaded machine, which failed the build.
    cmake_args="-DCMAKE_GTEST_DISCOVER_TESTS_DISCOVERY_MODE=PRE_TEST -DCMAKE_DISABLE_FIND_PACKAGE_GTest=ON -DFETCHCONTENT_SOURCE_DIR_GTEST=/usr/src/googletest -DCMAKE_PROJECT_INCLUDE=$here/gtest_module.cmake -DHTTPLIB_TEST=ON -DHTTPLIB_USE_OPENSSL_IF_AVAILABLE=OFF -DHTTPLIB_USE_ZLIB_IF_AVAILABLE=OFF -DHTTPLIB_USE_BROTLI_IF_AVAILABLE=OFF -DHTTPLIB_USE_ZSTD_IF_AVAILABLE=OFF"
    # Its CMake target puts the checkout on the include path with -isystem:
    # heaplint would take httplib.h for a system header and look only at
    # the tests. The library's own code is what is measured, so heaplint
    # reads a copy of the database with -I instead.
    run_dir=test own_headers=1 ;;
  *) echo "$0: no recipe for '$project' (known: eventpp, taskflow, cli11, httplib)" >&2; exit 2 ;;
esac
# A recipe of one program per test file builds only the programs -t names
# (and heaplint analyzes only their files).
if [ "$runner" = each ]; then
  [ -z "$tags" ] || targets=$tags
  tests=$(for n in $targets; do printf '%s/%s ' "$each_dir" "$n"; done)
  sources=$(for n in $targets; do printf '%s/%s.cpp ' "$each_dir" "$n"; done)
fi

# Built aside and renamed: a run of another library may have them loaded.
cc -std=c11 -O2 -g -Wall -Wextra -fPIC -shared -ftls-model=initial-exec \
  "$here/hl_trace.c" -o "$out/libhltrace.so.new" -lpthread
mv "$out/libhltrace.so.new" "$out/libhltrace.so"
cc -std=c11 -O2 -g -Wall -Wextra "$here/hl_realcode.c" -o "$out/hl-realcode.new" -ldw -ljansson
mv "$out/hl-realcode.new" "$out/hl-realcode"

flags="-O0 -g -finstrument-functions -fno-omit-frame-pointer"
for lib in $libs; do
  case $lib in
    libstdc++) c=gcc cxx=g++ extra= ;;
    libc++) c=/usr/lib/llvm-19/bin/clang cxx=/usr/lib/llvm-19/bin/clang++ extra=-stdlib=libc++ ;;
    *) echo "$0: unknown library '$lib' (libstdc++ or libc++)" >&2; exit 2 ;;
  esac
  dir=$out/$lib
  mkdir -p "$dir"
  if [ -z "$compare_only" ]; then
    echo "== $project, $lib: build" >&2
    cmake -S "$cmake_src" -B "$dir/build" -DCMAKE_BUILD_TYPE= $cmake_args -DCMAKE_C_COMPILER="$c" \
      -DCMAKE_CXX_COMPILER="$cxx" -DCMAKE_CXX_FLAGS="$flags $extra" \
      -DCMAKE_EXPORT_COMPILE_COMMANDS=ON >"$dir/configure.log"
    cmake --build "$dir/build" --target $targets -j"$(nproc)" >"$dir/build.log"

    echo "== $project, $lib: run" >&2
    if [ -z "$append" ]; then
      rm -f "$dir"/trace*.txt "$dir"/funcs*.txt
      : >"$dir/test.log"
      : >"$dir/tags.txt"
    fi
    set -f # the tags look like glob patterns
    for t in $tests; do
      prog=$dir/build/$t name=$(basename "$t")
      nm -C --defined-only "$prog" | "$out/hl-realcode" funcs | sort -u >"$dir/funcs-$name.txt"
      if [ "$runner" = catch2 ]; then
        # One process per test file (Catch2's file-name tags): a test that
        # dies (the multi-threaded ones are timing-dependent, and
        # instrumented code is slow) takes only its own file's records
        # with it.
        runs=${tags:-$("$prog" --list-tags -# | grep -o '\[#[^]]*\]')}
      elif [ "$runner" = gtest ]; then
        # One process per GoogleTest suite, for the same reason.
        runs=${tags:-$("$prog" --gtest_list_tests | sed -n 's/^\([A-Za-z0-9_]*\)\.$/\1/p')}
      else
        # One process per program; -t names the programs to run.
        runs=$name
        case " ${tags:-$name} " in *" $name "*) ;; *) continue ;; esac
      fi
      for tag in $runs; do
        echo "$tag" >>"$dir/tags.txt"
        case $runner in
          catch2) set -- -# "$tag" ;;
          gtest) set -- "--gtest_filter=$tag.*" ;;
          *) set -- $run_args ;;
        esac
        (cd "$dir/build/$run_dir" && HL_TRACE_FUNCS="$dir/funcs-$name.txt" HL_TRACE_OUT="$dir/trace-$name.txt" \
          LD_PRELOAD="$out/libhltrace.so" timeout "${HL_REALCODE_TIMEOUT:-1800}" "$prog" "$@" >>"$dir/test.log" 2>&1) ||
          echo "$0: $t $tag failed (see $dir/test.log); its records still count" >&2
      done
    done
    set +f
  fi
  # Each program's trace charged through its own line table, then summed
  # per kind and line over the programs. The user's lines also say which
  # of the project's lines each call went through (--via): a finding at
  # the user's call is judged by the store it names.
  for root in "$src" "$src/$user"; do
    via=
    [ "$root" = "$src" ] || via="--via $src"
    for t in $tests; do
      name=$(basename "$t")
      [ -f "$dir/trace-$name.txt" ] || continue
      "$out/hl-realcode" report $via "$root" "$dir/build/$t" "$dir/trace-$name.txt"
    done | awk '{ k = $1 " " $5; c[k] += $2; a[k] += $3; n[k] += $4 }
                END { for (k in c) { split(k, f, " "); print f[1], c[k], a[k], n[k], f[2] } }' |
      sort -k5,5 -k1,1 >"$dir/lines.tmp"
    if [ "$root" = "$src" ]; then mv "$dir/lines.tmp" "$dir/lines.txt"; else mv "$dir/lines.tmp" "$dir/lines-user.txt"; fi
  done

  echo "== $project, $lib: heaplint" >&2
  db=$dir/build
  if [ -n "$own_headers" ]; then
    mkdir -p "$dir/hl-db"
    sed "s|-isystem $src |-I$src |g" "$dir/build/compile_commands.json" >"$dir/hl-db/compile_commands.json"
    db=$dir/hl-db
  fi
  # Run where the comparison runs: the JSON's paths are relative to it.
  (cd "$dir" && "$heaplint" -p "$db" --format=json $(cd "$src" && for f in $sources; do echo "$src/$f"; done) \
    >heaplint.json 2>heaplint.log) || true
  (cd "$dir" && "$out/hl-realcode" compare --executed lines-user.txt lines.txt heaplint.json "$project $lib" >compare.txt &&
    "$out/hl-realcode" compare lines-user.txt heaplint.json "$project $lib (user lines)" >compare-user.txt)
  grep -h -v ': miss: \|: false: ' "$dir/compare.txt" "$dir/compare-user.txt"
done
