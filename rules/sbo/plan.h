/* sbo/plan: the fix of one declaration that callables are stored into —
 * its type rewritten to the rule's replacement with a capacity that holds
 * every callable stored into it, and the include — or why it is not
 * rewritten. Used by sbo.c only. */
#ifndef HEAPLINT_RULES_SBO_PLAN_H
#define HEAPLINT_RULES_SBO_PLAN_H

#include "rules/sbo/site.h"

/* The rewrite of one declaration: its type's edit, the include, and the
 * capacity that holds every callable stored into it. */
typedef struct hl_sbo_plan {
  int made;
  const char *blocked; /* points into retype, or blocked_own */
  char *blocked_own;
  long capacity, align;
  hl_edit type, include;
  int has_include;
} hl_sbo_plan;

/* Plans target t of R, given the n sites (and their verdicts) of the pass. */
void hl_sbo_plan_make(hl_ctx *ctx, const hl_sbo_site *sites, size_t n, hl_retype *R, const hl_sbo_wording *wording,
                      int t, const hl_sbo_verdict *verdicts, hl_sbo_plan *p);
void hl_sbo_plan_free(hl_sbo_plan *p);

#endif
