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

/* What the configuration says about a declaration a plan would change
 * (docs/config.md), asked with the file the declaration is in: its
 * nearest configuration answers. */
typedef struct hl_plan_policy {
  void *data;
  /* The public-api glob that matches the qualified name, or NULL. */
  const char *(*public_api)(void *data, const char *file, const char *name);
  /* The largest inline buffer a fix may choose, in bytes; 0: no limit. */
  long (*max_capacity)(void *data, const char *file);
} hl_plan_policy;

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
  void (*plan)(const hl_index_lookup *ix, const hl_plan_policy *policy, hl_findings *out);
  /* May be NULL, else ended by an entry whose key is NULL. What the rule
   * reads from the profiles (numbers measured per library: its section's
   * key is its own top-level key in a profile) and from .heaplint.yaml
   * (engine/ruledata.h); input/ parses them for it and the rule reads
   * them with hl_ctx_profile_number and hl_ctx_option. */
  const hl_profile_section *profile;
  const hl_rule_option *options;
} hl_rule;

/* The rule called id among rules (NULL-terminated), or NULL. The rules
 * heaplint has are rules/registry.h's hl_rules, which only the front ends
 * (main.c, check.c) name: they hand the list down to input/, cache/, lsp/
 * and, through the configuration, the engine. */
const hl_rule *hl_rule_in(const hl_rule *const *rules, const char *id);

#endif
