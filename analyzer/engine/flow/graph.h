/* graph: what engine/flow tells of a unit's wrapper values, as its users
 * read it — the flow itself (opaque), the hooks by which the owner of the
 * stores (the rule that judges them) feeds it, and the copies it found.
 *
 * The nodes are the unit's tracked declarations (hl_flow_decl): local
 * wrapper variables, by-value wrapper parameters of functions only this
 * unit calls, and only by name, wrapper members of classes only this file
 * defines. The edges are the values written into them: a store (a
 * construction the owner matches, by id), a copy of another node (a copy
 * site, hl_flow_copy), the value another node holds (moved from it, or a
 * const reference parameter bound to it), or unknown. */
#ifndef HEAPLINT_ENGINE_FLOW_GRAPH_H
#define HEAPLINT_ENGINE_FLOW_GRAPH_H

#include <clang-c/Index.h>

#include "engine/context.h"

typedef struct hl_flow hl_flow;

/* The owner of the stores: it knows which expressions store a value into
 * a wrapper, and judges them after the walk (hl_flow_settle). */
typedef struct hl_flow_hooks {
  /* Whether c (a call being visited, or a constructor's member
   * initializer) stores a value into a wrapper: the owner's record of it,
   * or NULL. Sets *assign when the store assigns (operator=). */
  void *(*store)(hl_ctx *ctx, CXCursor c, int *assign);
  /* Frees a record store returned: one the flow does not keep, or, in
   * hl_flow_free, one it kept. */
  void (*release)(void *store);
} hl_flow_hooks;

typedef enum hl_flow_copy_kind {
  HL_FLOW_CONSTRUCT, /* a copy constructor */
  HL_FLOW_ASSIGN,    /* a copy assignment */
  HL_FLOW_CONTAINER, /* a standard container's member copying it in */
  HL_FLOW_CAPTURE,   /* a lambda's capture by copy */
} hl_flow_copy_kind;

/* A copy of a tracked declaration into another wrapper: a copy site. */
typedef struct hl_flow_copy {
  hl_flow_copy_kind kind;
  int from;     /* the declaration copied */
  CXCursor src; /* the expression naming it */
  char *wrapper_spelling;
  hl_loc loc;
  int in_loop;
  /* For a std::move fix: the statement holding the copy, directly in the
   * block that declares the variable (or the function's body for a
   * parameter); null when it is anywhere else. */
  CXCursor stmt;
  unsigned begin, end; /* the source expression's offsets */
  int capture_form;    /* HL_FLOW_CAPTURE: 1 for [x], 2 for [y = x], 0 for an implicit [=] */
  CXCursor callee;     /* a by-value argument: the function called, or null */
  int param;           /* and which parameter it initializes */
} hl_flow_copy;

/* A temporary of a class that holds a wrapper, built by a call's argument
 * and copied whole by the function called (eventpp's AnyId, whose
 * std::any holds the event, copied into a map as its key): the class's
 * implicit copy constructor copies the wrapper. */
typedef struct hl_flow_class_copy {
  int store;       /* the member's store in the converting constructor */
  CXCursor cls;    /* the class */
  CXCursor member; /* its wrapper member */
  CXCursor call;   /* the code's call handing the temporary over */
  CXCursor copy;   /* where the callee's instantiated body copies it */
  int keyed;       /* there as an associative container's new key */
} hl_flow_class_copy;

/* Why a parameter's declarations cannot all be rewritten. */
typedef enum hl_flow_param_block {
  HL_FLOW_PARAM_FREE,     /* they can */
  HL_FLOW_PARAM_ESCAPED,  /* the function's address is taken */
  HL_FLOW_PARAM_UNNAMED,  /* a declaration leaves the parameter unnamed */
  HL_FLOW_PARAM_IN_SYSTEM /* a declaration is in a system header */
} hl_flow_param_block;

#endif
