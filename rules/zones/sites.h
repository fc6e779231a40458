/* zones/sites: what no-alloc knows allocates by the construct itself, and
 * what a call is to the zones' search:
 *
 *   a new expression (not a placement new), unless the class has an
 *   operator new of its own (then a call of it); a throw with an operand
 *   (the exception object: __cxa_allocate_exception, malloc); a call of
 *   operator new (a coroutine's frame is one), of malloc and its kin, of
 *   std::make_unique / std::make_shared; an insert into a standard
 *   container with the default allocator (the node containers and deque
 *   allocate nodes or blocks, vector and basic_string grow their buffer).
 *
 * Everything else a rule judges is the other rules' (hl_ctx_allocations). */
#ifndef HEAPLINT_RULES_ZONES_SITES_H
#define HEAPLINT_RULES_ZONES_SITES_H

#include "engine/rule.h"

typedef enum hl_zcall {
  HL_ZCALL_NONE,      /* the library's, judged by the rules (or nothing to judge) */
  HL_ZCALL_ALLOCATES, /* *what says how */
  HL_ZCALL_FUNCTION,  /* a call of a function of the user's code: *callee (canonical) */
  HL_ZCALL_UNSEEN,    /* a call heaplint does not follow: *what says which */
  HL_ZCALL_VIRTUAL,   /* a virtual call: *callee (canonical) or any of its overriders; *what as for UNSEEN */
} hl_zcall;

/* What the call (a CallExpr) is. *what (to free) is set for ALLOCATES and
 * UNSEEN. */
hl_zcall hl_zone_call(CXCursor call, CXCursor *callee, char **what);

/* What a new expression is: ALLOCATES, NONE (placement), or FUNCTION (the
 * class's own operator new: *callee). */
hl_zcall hl_zone_new(hl_ctx *ctx, CXCursor newx, CXCursor *callee, char **what);

/* A throw expression's words, or NULL for a rethrow (throw;). */
char *hl_zone_throw(CXCursor throwx);

#endif
