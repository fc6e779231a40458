#!/bin/sh
# Behaviour-preserving changes (a refactor) must leave heaplint's output
# byte-identical. This runs two heaplint binaries over the same inputs and
# compares everything they write: stdout, stderr and the exit status, as
# text, --format=json and --format=sarif, and what --list-rules and the
# configuration options (--dump-config, --explain-config, ...) print.
#
#   scripts/compare-output.sh OLD_HEAPLINT NEW_HEAPLINT [HL_GROUNDTRUTH]
#
# OLD_HEAPLINT is a copy of the build before the change (copy build/bin and
# build/share together: heaplint finds its profiles at ../share beside it),
# e.g.  cp -a build/bin build/share /tmp/before/  before editing, then
#       scripts/compare-output.sh /tmp/before/bin/heaplint build/bin/heaplint build/tests/hl-groundtruth
# Inputs: examples/ (configured with CMake into a temporary folder, analyzed
# through its compile database with -p), and, given HL_GROUNDTRUTH (the
# tests' corpus generator, built with -DHEAPLINT_BUILD_TESTS=ON), the
# ground-truth corpora of tests/groundtruth on libstdc++ and libc++ with -v
# (no compiling, no measuring: heaplint's output only; about 2.5 minutes of
# CPU per binary, the examples a few seconds). Exit 0 when every
# output is identical, 1 with the differences shown.
set -eu

if [ $# -lt 2 ] || [ $# -gt 3 ]; then
  echo "usage: scripts/compare-output.sh OLD_HEAPLINT NEW_HEAPLINT [HL_GROUNDTRUTH]" >&2
  exit 2
fi
top=$(cd "$(dirname "$0")/.." && pwd)
abs() { case "$1" in /*) echo "$1" ;; *) echo "$PWD/$1" ;; esac; }
old=$(abs "$1")
new=$(abs "$2")
gt=${3:+$(abs "$3")}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/heaplint-compare.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT TERM

# The same work folder for both: paths in the output are the same.
cp -r "$top/examples" "$tmp/examples"
cmake -S "$tmp/examples" -B "$tmp/examples/build" -DCMAKE_EXPORT_COMPILE_COMMANDS=ON >/dev/null

# run NAME ARGS...: each binary's stdout, stderr and exit status under
# $tmp/{old,new}/NAME. The docs URL is fixed: by default it is a file URI
# beside the binary, which differs between the two.
run() {
  name=$1
  shift
  for which in old new; do
    bin=$old
    [ "$which" = new ] && bin=$new
    mkdir -p "$tmp/$which"
    status=0
    (cd "$tmp" && "$bin" --docs-url=https://heaplint.invalid/docs/ "$@") \
      >"$tmp/$which/$name.out" 2>"$tmp/$which/$name.err" || status=$?
    echo "$status" >"$tmp/$which/$name.status"
  done
}

run examples-text -p examples/build
run examples-json -p examples/build --format=json
run examples-sarif -p examples/build --format=sarif
run examples-verbose -v -p examples/build
# What the options and the configuration print without analyzing (the
# option table, the rule list, the configuration's layers), and an error.
run list-rules --list-rules
run dump-config --dump-config -p examples/build
run explain-config --explain-config -p examples/build
run list-checks --list-checks -p examples/build
run verify-config --verify-config '--checks=-*,functon-sbo' -p examples/build
run bad-option --bogus

if [ -n "$gt" ]; then
  # Each corpus as its .test files analyze it (tests/groundtruth/*.test).
  for corpus in libstdc++ libc++ templates-libstdc++ templates-libc++ make-shared no-alloc shared-state string-sso move_only_function; do
    "$gt" generate "$corpus" >"$tmp/$corpus.cpp"
    case "$corpus" in
      no-alloc | string-sso) std=-std=c++20 ;;
      move_only_function) std=-std=c++23 ;;
      *) std=-std=c++17 ;;
    esac
    case "$corpus" in
      libstdc++ | templates-libstdc++ | move_only_function) libs="gnu" ;;
      libc++ | templates-libc++) libs="llvm" ;;
      *) libs="gnu llvm" ;;
    esac
    for lib in $libs; do
      stdlib=""
      [ "$lib" = llvm ] && stdlib=-stdlib=libc++
      run "gt-$corpus-$lib" -v "$corpus.cpp" -- $std $stdlib -isystem "$top/analyzer/calibrate/probes"
    done
  done
fi

if diff -r "$tmp/old" "$tmp/new"; then
  echo "compare-output: identical ($(ls "$tmp/new" | grep -c '\.status$') runs: stdout, stderr, exit status)"
else
  echo "compare-output: the outputs differ (above: old, then new)" >&2
  exit 1
fi
