#!/bin/sh
# heaplint --fix on a real project, proven by its own tests (issues 15 and
# 37): builds the project's test suite as it is, then a copy linked with the
# runtime through find_package(heaplint) and fixed by `heaplint --fix`;
# counts the rules' warnings on both copies; runs both test suites under
# hl_count_new (a count of global operator new calls, per call site) and
# times both. See bench/README.md, "heaplint --fix on a real project".
#
#   bench/fixproof/run.sh [-o OUT] [-b BUILD] [-n RUNS] [-T] PROJECT SRC
#
# PROJECT names a recipe below (eventpp, behaviortree); SRC is a checkout
# of it (only read: the fix is applied to a copy in OUT). BUILD is
# heaplint's build directory (default build/: bin/heaplint, and the runtime
# installed from it into OUT/prefix). -T: count and time again with the
# builds already in OUT. RUNS: counted and timed runs of each side's whole
# suite (default 5); one more counted run leaves out the tests whose counts
# vary with the threads' interleaving, and sites.md compares that one per
# source line. OUT (default build-fixproof/PROJECT) gets fix.log (the fix
# run's warnings), fix.diff (heaplint's edits; the hand-made CMake lines
# are left out), recheck.log (heaplint again, without --fix, on the fixed
# copy), warnings.txt, the two builds, count-{before,after}-{all,steady}.txt,
# the test logs, sites.md and times.txt.
#
#   eventpp:      bench/fixproof/run.sh eventpp eventpp
#   behaviortree: bench/fixproof/run.sh -n 3 behaviortree BehaviorTree.CPP
#   httplib:      bench/fixproof/run.sh -n 3 httplib cpp-httplib
set -eu

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
out= build=$top/build runs=5 reuse=0
while getopts o:b:n:T opt; do
  case $opt in
    o) out=$OPTARG ;;
    b) build=$OPTARG ;;
    n) runs=$OPTARG ;;
    T) reuse=1 ;;
    *) echo "usage: $0 [-o OUT] [-b BUILD] [-n RUNS] [-T] PROJECT SRC" >&2; exit 2 ;;
  esac
done
shift $((OPTIND - 1))
[ $# -eq 2 ] || { echo "usage: $0 [-o OUT] [-b BUILD] [-n RUNS] [-T] PROJECT SRC" >&2; exit 2; }
project=$1
src=$(cd "$2" && pwd)
build=$(cd "$build" && pwd)
out=${out:-build-fixproof/$project}
mkdir -p "$out"
out=$(cd "$out" && pwd)

# Recipes: cmake_dir (the CMake project, relative to the checkout), cmake_args
# (its options), target and test (the test program, relative to the build),
# sources (the files heaplint fixes; none: the whole compile database, which
# API rewrites need), link_cmake (the CMakeLists.txt where the target that
# gets the runtime is defined, relative to the checkout), link (that
# target, and the keyword its target_link_libraries calls use), steady (the
# test program's arguments leaving out the tests whose counts vary),
# summary (a grep pattern for the test program's result lines), run_dir
# (where the test program runs, relative to the build), args (the test
# program's arguments on every run), own_db (1: heaplint reads a copy of
# the database with only the checkout's units, its -isystem of the checkout
# made -I; see make_db() below).
cmake_args='' summary='passed\|failed' run_dir=. args='' own_db=0
case $project in
  eventpp)
    # wqking/eventpp: header-only; the unit tests are their own CMake project
    # (Catch2 bundled).
    # steady: Catch2 arguments leaving out the multi-threaded test files,
    # whose allocation counts vary from run to run with the interleaving.
    cmake_dir=tests target=unittest test=unittest/unittest sources="tests/unittest/*.cpp"
    link_cmake=tests/unittest/CMakeLists.txt link=unittest
    steady="-# ~[#test_callbacklist_multithread]~[#test_dispatcher_multithread]~[#test_queue_multithread]~[#test_heterdispatcher_multithread]" ;;
  behaviortree)
    # BehaviorTree/BehaviorTree.CPP: a library and its GoogleTest suite in
    # one CMake project (Debian's libgtest-dev). heaplint runs over the
    # whole compile database, so that its API rewrites (std::function
    # aliases in the library's headers) are planned; the runtime goes to
    # the library, PUBLIC, since the rewritten headers include it. Off:
    # Groot2 (needs ZeroMQ), and the examples and tools the tests do not
    # need; on: SQLite logging (libsqlite3-dev), which the tests use.
    cmake_dir=. target=behaviortree_cpp_test test=tests/behaviortree_cpp_test sources=
    cmake_args="-DBTCPP_GROOT_INTERFACE=OFF -DBTCPP_SQLITE_LOGGING=ON -DBTCPP_EXAMPLES=OFF -DBTCPP_BUILD_TOOLS=OFF"
    link_cmake=CMakeLists.txt link="behaviortree_cpp PUBLIC"
    # steady: leaves out the thread-safety stress tests.
    steady="--gtest_filter=-BlackboardThreadSafety.*"
    summary='PASSED\|FAILED' ;;
  httplib)
    # yhirose/cpp-httplib: header-only, its API's callbacks are std::function
    # aliases (Handler, ContentReceiver, ...); its GoogleTest program
    # (test/test.cc) built from Debian's GoogleTest sources, as
    # bench/realcode's recipe does, without TLS or compression. It runs from
    # its build directory (CMake copies www/ there). The tests named
    # *_Online reach hosts on the internet: left out on every run.
    cmake_dir=. target=httplib-test test=test/httplib-test sources= run_dir=test
    cmake_args="-DCMAKE_GTEST_DISCOVER_TESTS_DISCOVERY_MODE=PRE_TEST -DCMAKE_DISABLE_FIND_PACKAGE_GTest=ON -DFETCHCONTENT_SOURCE_DIR_GTEST=/usr/src/googletest -DCMAKE_PROJECT_INCLUDE=$top/bench/realcode/gtest_module.cmake -DHTTPLIB_TEST=ON -DHTTPLIB_USE_OPENSSL_IF_AVAILABLE=OFF -DHTTPLIB_USE_ZLIB_IF_AVAILABLE=OFF -DHTTPLIB_USE_BROTLI_IF_AVAILABLE=OFF -DHTTPLIB_USE_ZSTD_IF_AVAILABLE=OFF"
    link_cmake=CMakeLists.txt link="httplib INTERFACE"
    args="--gtest_filter=-*_Online"
    # steady: as args (the server tests' counts vary with their threads
    # anyway: sites.md compares per line).
    steady="--gtest_filter=-*_Online"
    # Its target puts the checkout on the include path with -isystem, and
    # GoogleTest's sources (under /usr/src) are units of the database.
    own_db=1
    summary='PASSED\|FAILED' ;;
  *) echo "$0: no recipe for '$project' (known: eventpp, behaviortree, httplib)" >&2; exit 2 ;;
esac

cc -std=c11 -O2 -Wall -Wextra -fPIC -shared "$here/hl_count_new.c" -o "$out/libhlcountnew.so" -ldl

# The same build type on both sides; -g for addr2line.
configure() {  # source-dir build-dir [extra cmake args]
  s=$1 b=$2
  shift 2
  # shellcheck disable=SC2086 # cmake_args: several words
  cmake -S "$s/$cmake_dir" -B "$b" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_EXPORT_COMPILE_COMMANDS=ON $cmake_args "$@" \
    >"$b.configure.log"
}

# make_db: the database heaplint reads, $out/hl-db. With own_db=1 a copy of
# the after build's, with only the units of the checkout's copy (not
# GoogleTest's sources from /usr/src, which --fix must not touch) and its
# -isystem of the copy made -I: heaplint takes an -isystem directory for
# system headers, neither reported nor fixed, and the library's own
# header is the subject.
make_db() {
  mkdir -p "$out/hl-db"
  if [ "$own_db" = 0 ]; then
    cp "$out/after/compile_commands.json" "$out/hl-db/"
    return
  fi
  python3 - "$out/after/compile_commands.json" "$out/src" "$out/hl-db/compile_commands.json" <<'PY'
import json, sys
entries, root, dest = json.load(open(sys.argv[1])), sys.argv[2], sys.argv[3]
kept = []
for e in entries:
    if not e["file"].startswith(root + "/"):
        continue
    for key in ("command", "arguments"):
        if key in e and isinstance(e[key], str):
            e[key] = e[key].replace("-isystem " + root + " ", "-I" + root + " ")
        elif key in e:
            a = e[key]
            for i in range(len(a) - 1):
                if a[i] == "-isystem" and a[i + 1] == root:
                    a[i], a[i + 1] = "-I" + root, ""
            e[key] = [x for x in a if x != ""]
    kept.append(e)
json.dump(kept, open(dest, "w"), indent=1)
PY
}

build_both() {
  echo "== install the runtime into $out/prefix" >&2
  cmake --install "$build" --component runtime --prefix "$out/prefix" >/dev/null

  echo "== before: build" >&2
  configure "$src" "$out/before"
  cmake --build "$out/before" --target "$target" -j"$(nproc)" >"$out/before.build.log"

  # The runtime first: the fixes include its headers, and heaplint plans a
  # fix only where they are on the unit's include path (docs/fixes.md).
  echo "== after: the runtime through find_package, then heaplint --fix on a copy" >&2
  rm -rf "$out/src"
  cp -a "$src" "$out/src"
  printf '\n%s\n%s\n%s\n' "# Added by heaplint's bench/fixproof/run.sh: the runtime the fixes point to." \
    "find_package(heaplint REQUIRED)" "target_link_libraries($link heaplint::runtime)" >>"$out/src/$link_cmake"
  configure "$out/src" "$out/after" -DCMAKE_PREFIX_PATH="$out/prefix"
  make_db
  rc=0
  # shellcheck disable=SC2086 # $sources: patterns, or nothing (the database)
  (cd "$out/src" && "$build/bin/heaplint" -j"$(nproc)" -p "$out/hl-db" --fix $sources) >"$out/fix.log" 2>&1 || rc=$?
  [ "$rc" -eq 0 ] || echo "heaplint --fix exited with $rc (see $out/fix.log)" >&2
  # Left out: .git, the CMake lines added above, and BehaviorTree.CPP's
  # .clangd, which its configure step writes into the source tree.
  (cd "$out" && diff -ru -x .git -x CMakeLists.txt -x .clangd "$src" src >fix.diff) || true
  cmake --build "$out/after" --target "$target" -j"$(nproc)" >"$out/after.build.log"

  echo "== after: heaplint again, without --fix, on the fixed copy" >&2
  rc=0
  # shellcheck disable=SC2086
  (cd "$out/src" && "$build/bin/heaplint" -j"$(nproc)" -p "$out/hl-db" $sources) >"$out/recheck.log" 2>&1 || rc=$?
  echo "heaplint on the fixed copy exited with $rc" >&2
  for side in fix recheck; do
    for rule in function-sbo any-sbo function-copy; do
      printf '%s %s %s\n' "$side" "$rule" "$(grep -c ": warning: .*\[$rule\]$" "$out/$side.log" || true)"
    done
  done >"$out/warnings.txt"
}
[ "$reuse" = 1 ] || build_both

# count SIDE NAME [ARGS]: one run of SIDE's tests under hl_count_new,
# recorded in count-SIDE-NAME.txt (appended: one "total" per run).
count() {
  side=$1 name=$2
  shift 2
  (cd "$out/$side/$run_dir" && HL_COUNT_NEW_OUT="$out/count-$side-$name.txt" LD_PRELOAD="$out/libhlcountnew.so" \
    "$out/$side/$test" "$@" >"$out/test-$side-$name.log" 2>&1) ||
    echo "$side: the test suite failed (see $out/test-$side-$name.log)" >&2
}

echo "== run both test suites, counting global operator new" >&2
for side in before after; do
  rm -f "$out/count-$side-all.txt" "$out/count-$side-steady.txt"
  set -f  # $steady holds Catch2 tags in brackets or a gtest filter, not file patterns
  count "$side" steady $steady
  set +f
  grep -h "$summary" "$out/test-$side-steady.log" >&2 || true
done
i=1
while [ "$i" -le "$runs" ]; do
  set -f  # $args: words (a gtest filter), or nothing; not file patterns
  # shellcheck disable=SC2086
  for side in before after; do count "$side" all $args; done
  set +f
  i=$((i + 1))
done
for side in before after; do grep -h "$summary" "$out/test-$side-all.log" >&2 || true; done

# Timed without the counter; the sides take turns, in alternating order
# (ABBA), so that neither always runs second.
echo "== time both test suites, $runs runs each" >&2
: >"$out/times.txt"
i=1
while [ "$i" -le "$runs" ]; do
  order="before after"
  [ $((i % 2)) -eq 0 ] && order="after before"
  for side in $order; do
    t0=$(date +%s.%N)
    rc=0
    set -f
    # shellcheck disable=SC2086
    (cd "$out/$side/$run_dir" && "$out/$side/$test" $args >"$out/timed-$side-$i.log" 2>&1) || rc=$?
    set +f
    t1=$(date +%s.%N)
    awk -v s=$side -v a="$t0" -v b="$t1" -v rc=$rc 'BEGIN { printf "%s %.3f %s\n", s, b - a, rc ? "failed(" rc ")" : "passed" }' \
      >>"$out/times.txt"
  done
  i=$((i + 1))
done

python3 "$here/sites.py" "$out/count-before-steady.txt" "$src" "$out/count-after-steady.txt" "$out/src" >"$out/sites.md"
tail -1 "$out/fix.log"
echo "Warnings of function-sbo, any-sbo, function-copy (fix: before the fix; recheck: on the fixed copy):"
cat "$out/warnings.txt"
echo
echo "Without the multi-threaded tests ($steady):"
cat "$out/sites.md"
echo
echo "The whole suite, $runs counted runs each:"
for side in before after; do
  echo "$side: $(awk '$1 == "total" { printf "%s ", $2 }' "$out/count-$side-all.txt")"
done
for side in before after; do
  printf '%s: test run %s s (median of %s; all: %s)\n' "$side" \
    "$(awk -v s=$side '$1 == s { print $2 }' "$out/times.txt" | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }')" \
    "$runs" "$(awk -v s=$side '$1 == s { printf "%s %s, ", $2, $3 }' "$out/times.txt")"
done
