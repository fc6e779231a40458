/* flow_impl: the definition of the flow, for engine/flow's own modules
 * only (flow, decls, copies, instantiated); its users see hl_flow opaque
 * (tests/arch checks it). */
#ifndef HEAPLINT_ENGINE_FLOW_FLOW_IMPL_H
#define HEAPLINT_ENGINE_FLOW_FLOW_IMPL_H

#include <stddef.h>

#include "engine/flow/calls.h"
#include "engine/flow/graph.h"

typedef struct flow_decl {
  CXCursor cursor; /* canonical VarDecl, ParmDecl or FieldDecl */
  int tainted;
  int not_only_read;              /* some use copies, captures, assigns or taints it */
  int has_init;                   /* a local's initializer is one of its writes */
  int moves;                      /* how often it is moved from (std::move into a wrapper) */
  int state;                      /* known(): 0 not computed, 1 computing, 2 done */
  int origin;                     /* known(): the allocating store its target comes from, or -1 */
  int paths;                      /* a local's paths: 0 not asked, 1 modelled, -1 not modelled */
  struct hl_flow_paths *reaching; /* paths: which writes each read may find */
} flow_decl;

/* A value put into a declaration: a store, a copy, the value another
 * declaration holds (alias: moved from it, or bound to a const reference
 * parameter), or unknown (all -1). */
typedef struct flow_write {
  int decl;
  int store, copy, alias;
  int move;      /* alias: moved from it */
  CXCursor expr; /* the initializer or argument, while its store or copy is not yet seen */
  unsigned at;   /* where: hl_flow_write_at of the assignment or declaration, or 0 */
} flow_write;

/* A store the owner matched (its record) and where it goes when no
 * declaration takes it. */
typedef struct flow_store {
  void *record;
  CXCursor arg_of; /* a temporary passed to this call, or a null cursor */
  int arg_index;
  int allocates; /* hl_flow_settle: its target is on the heap */
} flow_store;

/* Every reference to a tracked declaration, for the last-use check. */
typedef struct flow_ref {
  int decl;
  unsigned offset;
  int in_lambda; /* lambda_access() in copies.c */
  CXCursor src;
} flow_ref;

struct hl_flow {
  hl_flow_hooks hooks;
  flow_decl *decls;
  size_t ndecls, capdecls;
  flow_write *writes;
  size_t nwrites, capwrites;
  flow_store *stores;
  size_t nstores, capstores;
  hl_flow_copy *copies;
  size_t ncopies, capcopies;
  flow_ref *refs;
  size_t nrefs, caprefs;
  CXCursor *sanctioned; /* references already accounted for: copy sources, assigned left-hand sides */
  size_t nsanctioned, capsanctioned;
  CXCursor *functions; /* every declaration of a function taking a tracked parameter */
  size_t nfunctions, capfunctions;
  CXCursor *escaped; /* canonical functions named other than by a call */
  size_t nescaped, capescaped;
  hl_flow_class_copy *ccopies;
  size_t nccopies, capccopies;
  hl_calls *calls;
};

#endif
