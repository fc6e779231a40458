/* loops: the loop whose body repeats the cursor being visited, within its
 * function (a lambda's body runs when it is called, not per iteration),
 * for the rules that say "on every iteration" and for engine/flow's copies
 * made in a loop. */
#ifndef HEAPLINT_ENGINE_LOOPS_H
#define HEAPLINT_ENGINE_LOOPS_H

#include <clang-c/Index.h>
#include <stddef.h>

#include "engine/context.h"

/* The innermost loop (for, while, do, range-for) whose body holds self,
 * the cursor being visited, within its function: a lambda or function
 * boundary stops the search (a lambda's body runs when it is called, not
 * per iteration). A null cursor when there is none. */
CXCursor hl_loop_around(const hl_ctx *ctx, CXCursor self);
/* The same for the ancestor at depth from - 1 (self), the search starting
 * at depth from: the loop around a lambda's creation, seen from inside it. */
CXCursor hl_loop_above(const hl_ctx *ctx, size_t from, CXCursor self);

#endif
