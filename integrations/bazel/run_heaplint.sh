#!/bin/sh
# One heaplint action of heaplint_aspect (heaplint.bzl):
#   run_heaplint.sh REPORT FIXES FORMAT WERROR CONFIG SOURCE -- COMPILER-FLAGS...
# Writes heaplint's report of SOURCE to REPORT and its fixes to FIXES, both
# always (Bazel needs every declared output), and exits 0 unless WERROR is 1
# and heaplint failed: then the report goes to stderr and its status is the
# action's. CONFIG is the configuration heaplint gets with --config-file.
# heaplint is $HEAPLINT (--action_env=HEAPLINT=<path>), else `heaplint` on
# PATH; not finding it fails the action in either mode, since an empty
# report would then look like a clean one.
set -u
report=$1 fixes=$2 format=$3 werror=$4 config=$5 source=$6
shift 6

heaplint=${HEAPLINT:-heaplint}
if ! command -v "$heaplint" >/dev/null 2>&1; then
  echo "heaplint_aspect: '$heaplint' not found: pass --action_env=HEAPLINT=<path to heaplint> or put it on PATH" >&2
  exit 127
fi

set -- --quiet "--config-file=$config" "--format=$format" -o "$report" "--export-fixes=$fixes" "$source" "$@"
[ "$werror" = 1 ] && set -- --werror "$@"
status=0
"$heaplint" "$@" || status=$?

# heaplint writes no file when it stops before the analysis (exit 2: what
# went wrong is on stderr, which Bazel shows).
[ -e "$report" ] || : >"$report"
[ -e "$fixes" ] || printf -- "---\nMainSourceFile: '%s'\nDiagnostics: []\n...\n" "$source" >"$fixes"

if [ "$status" -ne 0 ] && [ "$werror" = 1 ]; then
  cat "$report" >&2
  exit "$status"
fi
exit 0
