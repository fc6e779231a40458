/* copies: the calls that copy or move a tracked declaration into another
 * wrapper (its copy or move constructor or assignment, a standard
 * container's member copying an lvalue in, a lambda's capture by copy),
 * the copy sites with what a fix needs (the statement, the capture's form,
 * the function a by-value argument goes to), the uses that only read, and
 * after the walk what the fixes ask: whether a copy is the last use,
 * whether the callee only reads its parameter. */
#ifndef HEAPLINT_ENGINE_FLOW_COPIES_H
#define HEAPLINT_ENGINE_FLOW_COPIES_H

#include <clang-c/Index.h>
#include <stddef.h>

#include "engine/flow/graph.h"

/* Every copy site of the walk, in the order found. */
const hl_flow_copy *hl_flow_copies(const hl_flow *F, size_t *n);

/* Whether the copy is its variable's last use, in straight-line code:
 * nothing refers to it later, nor elsewhere in the copy's statement, nor
 * from a lambda (which may run later); std::move would lose nothing. */
int hl_flow_last_use(const hl_flow *F, const hl_flow_copy *c);

/* The callee of a by-value argument copied, when it only reads the
 * parameter (calls it, tests it, reads it through const members and const
 * references): its definition's parameter, else a null cursor. */
CXCursor hl_flow_read_only_param(const hl_flow *F, const hl_flow_copy *c);

/* Whether every declaration of that parameter can be rewritten. */
hl_flow_param_block hl_flow_param_blocked(const hl_flow *F, const hl_flow_copy *c);

/* That parameter in each declaration of the callee the unit shows, in
 * order; caller frees *out. */
size_t hl_flow_param_decls(const hl_flow *F, CXCursor callee, int param, CXCursor **out);

/* For engine/flow's walk (flow.c). */

/* Whether the call c moves into a wrapper (its move constructor or move
 * assignment, from std::move(x) or std::forward(x)): sets *kind and *src
 * (x). */
int hl_flow_move_call(const hl_ctx *ctx, CXCursor c, hl_flow_copy_kind *kind, CXCursor *src);
/* Whether the call c copies a wrapper: its copy constructor or copy
 * assignment, or a standard container's member copying an lvalue into a
 * new element; the wrapper, with *kind and *src (the copied expression). */
const hl_wrapper *hl_flow_copy_call(const hl_ctx *ctx, CXCursor c, hl_flow_copy_kind *kind, CXCursor *src);
/* Records the copy site of tracked declaration from, copied at call (or
 * capture) at through src_ref. */
void hl_flow_add_copy(hl_ctx *ctx, hl_flow *F, hl_flow_copy_kind kind, const hl_wrapper *w, CXCursor at,
                      CXCursor src_ref, int from, int in_loop);
/* Whether the lambda around the capture being visited is created in a
 * loop body. */
int hl_flow_lambda_in_loop(const hl_ctx *ctx);
/* Whether the reference being visited (to a tracked declaration, neither
 * copied nor assigned) only reads it. */
int hl_flow_only_reads(const hl_ctx *ctx, CXCursor ref);
/* Records the reference being visited to tracked declaration decl, for
 * hl_flow_last_use. */
void hl_flow_add_ref(const hl_ctx *ctx, hl_flow *F, int decl, CXCursor ref);

#endif
