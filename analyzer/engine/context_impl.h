/* context_impl: the definition of the context, for the engine that builds
 * and walks it (context.c, analyze.c) only; rules see hl_ctx opaque,
 * through the accessors of context.h (tests/arch checks it). */
#ifndef HEAPLINT_ENGINE_CONTEXT_IMPL_H
#define HEAPLINT_ENGINE_CONTEXT_IMPL_H

#include <clang-c/Index.h>
#include <stdio.h>

#include "engine/finding.h"
#include "engine/inst/arbiter.h"
#include "engine/layout.h"
#include "engine/reach.h"
#include "engine/unit.h"
#include "engine/typeinfo.h"
#include "engine/wrapper.h"

struct hl_ctx {
  hl_unit unit; /* the translation unit, its job and arguments */

  char *triple;                      /* x86_64-pc-linux-gnu */
  char *arch;                        /* x86_64 */
  int pointer_width;                 /* 64 */
  const hl_profile *library;         /* the detected library's base profile, or NULL */
  const char *library_name;          /* its name, or NULL when none was included */
  const hl_wrapper *const *wrappers; /* from the selected profiles */
  size_t nwrappers;
  const hl_profile_numbers *numbers; /* the rules' sections, as the selected profiles state them */
  size_t nnumbers;

  CXCursor *stack; /* ancestors of the visited cursor, outermost first */
  size_t depth, capstack;

  hl_types *types;
  hl_inst *inst;      /* instantiation probes, answered in one parse after prepare */
  hl_reach *reach;    /* calls of specializations, and what reaches what */
  hl_loc *reach_locs; /* the calls' places, made at the first hl_ctx_reaching_calls */
  char *reach_has_loc, *reach_flags;
  size_t reach_nlocs, reach_to; /* reach_flags answers call reach_to - 1 (0: none yet) */
  hl_findings *out;
  hl_layouts *layouts; /* NULL: the front end shows none */

  long cplusplus; /* hl_ctx_cplusplus's answer, once asked */
  int cplusplus_asked;

  FILE *log; /* this translation unit's messages (remarks) */
  int verbose;

  hl_allocation *allocations; /* the rules' verdicts (hl_ctx_allocation) */
  size_t nallocations, capallocations;
  const hl_rule_option_value *options; /* the config's values of the rules' options */
  size_t noptions;
  long max_inline_capacity; /* the config's; 0: no limit */
  hl_summary *summary;      /* what the unit tells the project index, or NULL: no index */
};

/* Frees the verdicts (the rest of the context is its builder's). */
void hl_ctx_allocations_free(hl_ctx *ctx);
/* Frees the calls noted and what was made of them. */
void hl_ctx_reach_free(hl_ctx *ctx);

#endif
