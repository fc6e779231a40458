/* rule: the interface every check implements, and the registry of checks.
 *
 * A rule is one C file under rules/. The walker calls begin once per
 * translation unit, visit for every cursor of the user's code (never system
 * headers), prepare once after the walk (to ask for type traits it will need:
 * all rules' questions are answered together), then end, where deferred
 * findings are decided and handed to the context. A rule that reviews the
 * others' verdicts (HL_RULE_REVIEWS: hl_ctx_allocations) is ended after
 * them. Rules never print. */
#ifndef HEAPLINT_RULE_H
#define HEAPLINT_RULE_H

#include <clang-c/Index.h>

#include "engine/ast.h"
#include "engine/context.h"
#include "engine/flow/flow.h"
#include "engine/loops.h"
#include "engine/standard.h"

enum {
  HL_RULE_REVIEWS = 1u << 0, /* its end runs after every other rule's */
  HL_RULE_ERRORS = 1u << 1,  /* its findings are errors unless the config says otherwise */
};

typedef struct hl_rule {
  const char *id;   /* kebab-case, e.g. "function-sbo" */
  const void *data; /* the rule's own, for shared machinery (rules/sbo: its wording) */
  /* begin, prepare and end may be NULL (no state, nothing to ask, nothing
   * left to decide after the walk: the state is then NULL); visit may not. */
  void *(*begin)(hl_ctx *ctx, const struct hl_rule *self);
  void (*visit)(hl_ctx *ctx, void *state, CXCursor c);
  void (*prepare)(hl_ctx *ctx, void *state);
  void (*end)(hl_ctx *ctx, void *state);
  unsigned flags; /* HL_RULE_* */
  /* May be NULL. After every unit is analyzed (or restored), with the
   * project index: the findings of what unit's summary left open (each
   * unit of the run once; the front end applies the unit's config). */
  void (*link)(const hl_index_lookup *ix, const hl_summary *unit, hl_findings *out);
  /* May be NULL. Once per run over the whole compile database, after the
   * link step: the findings only the whole project decides (API rewrites:
   * a declaration retyped for every value stored into it anywhere). */
  void (*plan)(const hl_index_lookup *ix, hl_findings *out);
  /* May be NULL, else ended by an entry whose key is NULL. What the rule
   * reads from the profiles (numbers measured per library: its section's
   * key is its own top-level key in a profile) and from .heaplint.yaml
   * (engine/ruledata.h); input/ parses them for it and the rule reads
   * them with hl_ctx_profile_number and hl_ctx_option. */
  const hl_profile_section *profile;
  const hl_rule_option *options;
} hl_rule;

/* Every rule heaplint has, NULL-terminated, in id order. */
extern const hl_rule *const hl_rules[];

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
