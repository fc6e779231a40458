#!/bin/sh
# The C, C++ and runtime sources are formatted as .clang-format says, by
# clang-format 19 (another version formats some constructs differently, so
# the check names it). Run from ctest 'format'; exits 77 (skipped) when
# clang-format-19 is missing, 1 with clang-format's complaints on drift.
# To fix drift:  tests/format/check_format.sh --fix
#
# Not formatted: analyzer/calibrate/probes/ (C++ text embedded in heaplint
# and handed to the compiler as it is) and the tests' C++ inputs (their
# lines and columns are what the tests check).
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top"
fmt=${CLANG_FORMAT:-clang-format-19}
command -v "$fmt" >/dev/null 2>&1 || { echo "check_format: $fmt not found: skipped" >&2; exit 77; }
if [ -d .git ] || git rev-parse --git-dir >/dev/null 2>&1; then
  list=$(git ls-files 'analyzer/*.[ch]' 'analyzer/*.cpp' 'analyzer/*.hpp' 'rules/*.[ch]' \
    'runtime/*.[ch]' 'runtime/*.cpp' 'runtime/*.hpp' \
    'tests/groundtruth/*.[ch]' 'tests/fixcorpus/*.[ch]' 'tests/fuzz/*.[ch]' 'tests/unit/*.[ch]')
else
  # A source tarball: the same folders, found on disk.
  list=$(find analyzer rules runtime tests/groundtruth tests/fixcorpus tests/fuzz tests/unit -type f \
    \( -name '*.[ch]' -o -name '*.cpp' -o -name '*.hpp' \) | sort)
fi
list=$(printf '%s\n' "$list" | grep -v '^analyzer/calibrate/probes/')
if [ "${1:-}" = --fix ]; then
  # shellcheck disable=SC2086 # one argument per file; none has a space
  exec "$fmt" -i $list
fi
# shellcheck disable=SC2086
"$fmt" --dry-run -Werror $list
