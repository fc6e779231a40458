#!/bin/sh
# Adds a rule to the tree this script is in, complete enough to build and
# pass its checks (docs/architecture.md, "Adding a rule"):
#
#   scripts/new-rule.sh NAME        NAME: the rule's id, kebab-case (new-thing)
#
# writes rules/<cname>.c (cname: the id with '_' for '-'; a rule that finds
# nothing yet), docs/rules/<id>.md (the title, a "> " summary and the
# paragraph --list-rules and SARIF read, an example to fill in),
# tests/<id>/basic.cpp (a lit test: no finding, and the rule in
# --list-rules), its HL_RULE line in rules/rules.def (in id order: the
# registry, the build and the lit suites derive from it) and a row in the
# README's rule table. Then it says what to fill in. Nothing is written when
# NAME is not a new kebab-case id.
set -eu

if [ $# -ne 1 ]; then
  echo "usage: scripts/new-rule.sh NAME   (the rule's id, kebab-case: new-thing)" >&2
  exit 2
fi
id=$1
top=$(cd "$(dirname "$0")/.." && pwd)
if ! printf '%s\n' "$id" | grep -Eq '^[a-z][a-z0-9]*(-[a-z0-9]+)*$'; then
  echo "new-rule: '$id' is not a kebab-case id (lower-case words joined by '-': new-thing)" >&2
  exit 2
fi
cname=$(printf '%s' "$id" | tr '-' '_')
for f in "rules/$cname.c" "docs/rules/$id.md" "tests/$id"; do
  if [ -e "$top/$f" ]; then
    echo "new-rule: $f exists: '$id' is not a new rule" >&2
    exit 2
  fi
done
if grep -q "^HL_RULE($cname, " "$top/rules/rules.def"; then
  echo "new-rule: rules/rules.def has '$id' already" >&2
  exit 2
fi

cat >"$top/rules/$cname.c" <<EOF
/* $id: TODO, what it finds, in a sentence. See docs/rules/$id.md. */
#include "engine/rule.h"

#define RULE "$id"

/* Each cursor of the user's code, once (engine/rule.h): TODO, report
 * what the rule finds with hl_ctx_report. */
static void visit(hl_ctx *ctx, void *state, CXCursor c) {
  (void)ctx;
  (void)state;
  (void)c;
}

/* Numbers the rule needs per library go into the profiles, in a section
 * of its own (engine/ruledata.h, docs/profiles.md), read with
 * hl_ctx_profile_number(ctx, &profile[0], name, &library); a key of
 * .heaplint.yaml is an hl_rule_option, read with hl_ctx_option. TODO,
 * when it has some (then give profile below instead of the first NULL):
 *   static const char *const names[] = {"std::thing"};
 *   static const hl_profile_section profile[] = {
 *       {"$id", NULL, names, 1, -1, "key"},
 *       {NULL, NULL, NULL, 0, -1, NULL},
 *   }; */

const hl_rule hl_rule_$cname = {
    RULE, NULL, NULL, visit, NULL, NULL, /* no state: everything is decided during the walk */
    0,    NULL,                          /* no link step: nothing left open for the project index */
    NULL,                                /* no project-wide plan */
    NULL, NULL,                          /* no numbers from the profiles, no config key */
};
EOF

cat >"$top/docs/rules/$id.md" <<EOF
# $id

> TODO: what $id finds, in one line (--list-rules and SARIF show it)

TODO: one paragraph, what it finds, why it allocates, and the fix.

## Example

\`\`\`cpp
// TODO: code $id reports
\`\`\`

The fix:

\`\`\`cpp
// TODO: the same code, without the allocation
\`\`\`
EOF

mkdir -p "$top/tests/$id"
cat >"$top/tests/$id/basic.cpp" <<EOF
// $id: TODO, the sites it reports (CHECK-MESSAGES next to each) and
// those it leaves alone.
//
// RUN: %heaplint --checks='-*,$id' %s -- %libstdcxx 2>&1 | %FileCheck %s --implicit-check-not='[$id]'
// RUN: %heaplint --list-rules | %FileCheck %s --check-prefix=LIST
// CHECK: 0 warnings in 1 file
// LIST: {{^}}$id {{.*}}TODO
int main() { return 0; }
EOF

# The HL_RULE line in id order; the README row after the table's last.
def="$top/rules/rules.def"
awk -v line="HL_RULE($cname, \"$id\")" -v id="$id" '
  /^HL_RULE\(/ && !done { split($0, f, "\""); if (f[2] > id) { print line; done = 1 } }
  { print }
  END { if (!done) print line }' "$def" >"$def.new"
mv "$def.new" "$def"
readme="$top/README.md"
awk -v row="| [$id](docs/rules/$id.md) | TODO: what it finds |" '
  /^\| \[[a-z0-9-]+\]\(docs\/rules\// { last = NR }
  { lines[NR] = $0 }
  END { for (i = 1; i <= NR; i++) { print lines[i]; if (i == last) print row } }' "$readme" >"$readme.new"
mv "$readme.new" "$readme"

cat <<EOF
new-rule: added $id:
  rules/$cname.c, docs/rules/$id.md, tests/$id/basic.cpp,
  its line in rules/rules.def and its row in README.md.
Next: fill in the TODOs (the summary line, the paragraph, the visit), then
  cmake --build build && ctest --test-dir build -R 'rules|arch|lit[.]$id'
A library's numbers the rule needs go into the profiles
(rules/profiles/*.yaml, docs/profiles.md), never constants in C: a
section the rule declares (the stub in rules/$cname.c).
EOF
