/* calls: the unit's calls by the location of the name they call (where the
 * compiler's "requested here" notes point), and, along an instantiation
 * probe's chain, which argument of the code's own call reaches a
 * template's parameter: a parameter passed on by name at each level, or
 * through std::make_shared and the containers' emplace members, which
 * hand their arguments to a constructor in order. */
#ifndef HEAPLINT_ENGINE_FLOW_CALLS_H
#define HEAPLINT_ENGINE_FLOW_CALLS_H

#include <clang-c/Index.h>
#include <stddef.h>

#include "engine/context.h"

typedef struct hl_calls hl_calls;

hl_calls *hl_calls_new(void);
void hl_calls_free(hl_calls *C);

/* Records the call being visited (a CallExpr of the code's own). */
void hl_calls_visit(hl_calls *C, hl_ctx *ctx, CXCursor call);

/* The outermost call of h's chain, in the code that made the types
 * concrete, and the index of its argument that becomes parameter param of
 * fn (a function inside the template, where the probed expression is).
 * Returns 0 and sets *call and *arg, or -1 when the chain does not show
 * the value passed on at every level. */
int hl_calls_chain_argument(const hl_calls *C, const hl_inst_answer *h, CXCursor fn, int param, CXCursor *call,
                            int *arg);

/* Every recorded call of the function call calls (call among them); caller
 * frees *out. */
size_t hl_calls_same_callee(const hl_calls *C, CXCursor call, CXCursor **out);

#endif
