#!/bin/sh
# ctest 'new-rule': scripts/new-rule.sh run on a copy of the tree, and what
# it added checked there, in seconds (a full build and lit run of the copy
# would take minutes): the rules' list (check_rules.py), no new architecture
# problem (check_arch.py), the new rule's file formatted as .clang-format
# says, it and the registry compiled, the registry naming the rule the file
# defines; and that an id that exists or is not kebab-case is refused with
# nothing written.
#
#   tests/arch/new_rule.sh <top of the source tree> <C compiler> <libclang's include dir>
set -eu
top=$1
cc=$2
inc=$3
tmp=$(mktemp -d "${TMPDIR:-/tmp}/heaplint-new-rule.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
for f in .clang-format README.md analyzer docs rules scripts tests; do cp -R "$top/$f" "$tmp/"; done
fail() {
  echo "new-rule: FAIL: $*" >&2
  exit 1
}

python3 "$tmp/tests/arch/check_arch.py" "$tmp" | grep -v ' modules, ' >"$tmp/arch.before" || true
for bad in make-shared Bad_Name -x; do
  if sh "$tmp/scripts/new-rule.sh" "$bad" >/dev/null 2>&1; then fail "new-rule.sh $bad was not refused"; fi
done
[ ! -e "$tmp/rules/Bad_Name.c" ] && [ ! -e "$tmp/tests/Bad_Name" ] || fail "a refused name wrote files"

sh "$tmp/scripts/new-rule.sh" new-rule-check >/dev/null
python3 "$tmp/tests/arch/check_rules.py" "$tmp" >"$tmp/rules.out" || { cat "$tmp/rules.out"; fail "check_rules"; }
python3 "$tmp/tests/arch/check_arch.py" "$tmp" | grep -v ' modules, ' >"$tmp/arch.after" || true
diff "$tmp/arch.before" "$tmp/arch.after" || fail "check_arch finds new problems"
if command -v clang-format-19 >/dev/null 2>&1; then
  clang-format-19 --dry-run -Werror "$tmp/rules/new_rule_check.c" || fail "rules/new_rule_check.c is not formatted"
fi
for f in new_rule_check registry; do
  "$cc" -std=c11 -Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes -Werror -c \
    -I"$tmp/analyzer" -I"$tmp" -I"$inc" "$tmp/rules/$f.c" -o "$tmp/$f.o" || fail "rules/$f.c does not compile"
done
nm "$tmp/new_rule_check.o" | grep -Eq ' [DR] hl_rule_new_rule_check$' || fail "rules/new_rule_check.c does not define hl_rule_new_rule_check"
nm "$tmp/registry.o" | grep -q ' U hl_rule_new_rule_check$' || fail "the registry does not list hl_rule_new_rule_check"
echo "new-rule: new-rule-check added and checked"
