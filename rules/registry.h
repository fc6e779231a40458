/* registry: the rules heaplint has, expanded from rules/rules.def, and
 * their pages. Only the front ends (main.c, check.c), rules/ and the tests
 * include it: the front end hands hl_rules down to input/, cache/, lsp/
 * and the engine (engine/rule.h's hl_rule_in finds a rule in it). */
#ifndef HEAPLINT_RULES_REGISTRY_H
#define HEAPLINT_RULES_REGISTRY_H

#include "engine/rule.h"

/* Every rule heaplint has, NULL-terminated, in id order. */
extern const hl_rule *const hl_rules[];

/* hl_rule_in(hl_rules, id). */
const hl_rule *hl_rule_find(const char *id);

/* Every rule's page, docs/rules/<id>.md, embedded at build time, by id
 * ({NULL, NULL} last). After the page's title comes a "> " quote, the
 * summary (one line for --list-rules and SARIF), then a paragraph, the
 * description (what it finds, why, the fix). */
typedef struct hl_rule_doc {
  const char *id, *text;
} hl_rule_doc;
extern const hl_rule_doc hl_rule_docs[];

/* The summary and the description of r, from its page (lines joined with
 * a space, code spans' backquotes dropped; "" without a page). Caller
 * frees. */
char *hl_rule_summary(const hl_rule *r);
char *hl_rule_description(const hl_rule *r);

#endif
