/* flow: where the values of a unit's wrapper-typed declarations come from
 * and where they go — stores, copies, moves and bindings between local
 * variables, by-value parameters of functions only this unit calls (and
 * only by name) and members of classes only this file defines — and which
 * uses could change them (graph.h says what the nodes and edges are).
 * Fed by a rule's walk (hl_flow_visit on every cursor), read after it.
 *
 * A use that could change a declaration's target (a non-const member call,
 * a move, a non-const reference, its address) "taints" it. After the walk,
 * once the owner has settled each store (hl_flow_settle), a declaration's
 * origin is the allocating store whose target it holds whatever path its
 * value took: it is untainted, a local has an initializer, and each of its
 * writes is an allocating store, a copy of a declaration with an origin
 * (not moved from), or the single move from one. A value the unit does not
 * show (a parameter of a function with external linkage, a member of a
 * header's class, an aggregate's member) is unknown, and so is every
 * declaration it reaches. */
#ifndef HEAPLINT_ENGINE_FLOW_FLOW_H
#define HEAPLINT_ENGINE_FLOW_FLOW_H

#include <clang-c/Index.h>
#include <stddef.h>

#include "engine/flow/calls.h"
#include "engine/flow/copies.h"
#include "engine/flow/graph.h"
#include "engine/flow/instantiated.h"

/* A flow for one unit; *hooks is copied. */
hl_flow *hl_flow_new(const hl_flow_hooks *hooks);
/* Frees F and, through the hooks, every store record it kept. */
void hl_flow_free(hl_flow *F);

/* Records what cursor c (being visited, ctx's ancestors its parents)
 * writes, copies, moves or uses. */
void hl_flow_visit(hl_flow *F, hl_ctx *ctx, CXCursor c);

/* The stores the flow kept, by id (0 to hl_flow_nstores - 1, in the order
 * found): the owner's records. */
size_t hl_flow_nstores(const hl_flow *F);
void *hl_flow_store(const hl_flow *F, int store);
/* The owner's verdict on a store: its target is on the heap. Every store
 * is settled before hl_flow_origin or hl_flow_argument_origin is asked. */
void hl_flow_settle(hl_flow *F, int store, int allocates);

/* The allocating store whose target declaration decl holds wherever it is
 * read, or -1 (one also moved from may be empty there). */
int hl_flow_origin(hl_flow *F, int decl);
/* Every store whose target copy c may copy: what its declaration may hold
 * on the paths to this read (whatever the verdicts: the owner tells which
 * allocate), in *stores (malloc'd, *n of them), and whether it may also be
 * empty there (a local not yet assigned on some path: copying it then
 * allocates nothing). Returns 0, or -1 when a value the flow does not
 * follow may reach it, or a local it cannot follow by paths is copied
 * (then *stores is NULL; hl_flow_origin may still know it). */
int hl_flow_targets(hl_flow *F, const hl_flow_copy *c, int **stores, size_t *n, int *maybe_empty);
/* The allocating store whose target call passes as argument arg: a
 * temporary it builds, or a declaration with an origin; else -1. */
int hl_flow_argument_origin(hl_flow *F, const hl_ctx *ctx, CXCursor call, int arg);

/* The tracked declaration decl (its canonical cursor). */
CXCursor hl_flow_decl(const hl_flow *F, int decl);
/* The unit's calls the walk recorded. */
const hl_calls *hl_flow_calls(const hl_flow *F);

#endif
