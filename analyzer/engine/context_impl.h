/* context_impl: the definition of the context, for the engine that builds
 * and walks it (context.c, analyze.c) only; rules see hl_ctx opaque,
 * through the accessors of context.h (tests/arch checks it). */
#ifndef HEAPLINT_ENGINE_CONTEXT_IMPL_H
#define HEAPLINT_ENGINE_CONTEXT_IMPL_H

#include <clang-c/Index.h>
#include <stdio.h>

#include "engine/finding.h"
#include "engine/instprobe.h"
#include "engine/unit.h"
#include "engine/typeinfo.h"
#include "engine/wrapper.h"

struct hl_ctx {
  hl_unit unit;                 /* the translation unit, its job and arguments */

  char *triple;                 /* x86_64-pc-linux-gnu */
  char *arch;                   /* x86_64 */
  int pointer_width;            /* 64 */
  const hl_profile *library;    /* the detected library's base profile, or NULL */
  const char *library_name;     /* its name, or NULL when none was included */
  const hl_wrapper *const *wrappers;  /* from the selected profiles */
  size_t nwrappers;

  CXCursor *stack;              /* ancestors of the visited cursor, outermost first */
  size_t depth, capstack;

  hl_types *types;
  hl_probes *probes;            /* instantiation probes, answered in one parse after prepare */
  hl_findings *out;

  long cplusplus;               /* hl_ctx_cplusplus's answer, once asked */
  int cplusplus_asked;

  FILE *log;                    /* this translation unit's messages (remarks) */
  int verbose;
};

#endif
