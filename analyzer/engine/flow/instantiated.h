/* instantiated: flows through template code the unit instantiates — a
 * temporary of a project class that holds a wrapper, built by a converting
 * constructor that stores into the wrapper member, handed by const
 * reference to a template's specialization whose instantiated body copies
 * it whole (its implicit copy constructor copies the wrapper). */
#ifndef HEAPLINT_ENGINE_FLOW_INSTANTIATED_H
#define HEAPLINT_ENGINE_FLOW_INSTANTIATED_H

#include <clang-c/Index.h>
#include <stddef.h>

#include "engine/flow/graph.h"

/* Every class copy of the walk, in the order found; the member's store is
 * one of the flow's (hl_flow_store). */
const hl_flow_class_copy *hl_flow_class_copies(const hl_flow *F, size_t *n);

/* For engine/flow's walk (flow.c): the class copies of the call being
 * visited, their stores added to the flow's. */
void hl_flow_class_copy_call(hl_ctx *ctx, hl_flow *F, CXCursor call);

#endif
