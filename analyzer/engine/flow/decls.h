/* decls: which declarations engine/flow tracks — those whose every write
 * and use the unit shows: a local wrapper variable (not static), a
 * by-value wrapper parameter (or a const reference one, which refers to
 * its caller's value), a wrapper member of a class the main file defines
 * (a specialization's member is its template's) — and their index in the
 * flow. For engine/flow's own modules. */
#ifndef HEAPLINT_ENGINE_FLOW_DECLS_H
#define HEAPLINT_ENGINE_FLOW_DECLS_H

#include <clang-c/Index.h>

#include "engine/flow/graph.h"

/* A wrapper held by value (not a reference to one). */
int hl_flow_is_wrapper_value(const hl_ctx *ctx, CXType t);
/* const W &, W a wrapper. */
int hl_flow_is_const_wrapper_ref(const hl_ctx *ctx, CXType t);
/* Whether the flow tracks declaration d. */
int hl_flow_trackable(const hl_ctx *ctx, CXCursor d);
/* d's index among the flow's declarations, added when new. */
int hl_flow_decl_index(hl_flow *F, CXCursor d);
/* The tracked declaration an expression names (through implicit
 * conversions and parentheses), or -1; *ref (when not NULL) is set to the
 * naming expression. */
int hl_flow_named_decl(const hl_ctx *ctx, hl_flow *F, CXCursor e, CXCursor *ref);

#endif
