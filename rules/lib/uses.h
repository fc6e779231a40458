/* uses: what a use of a variable (or member) does with it, read off the
 * AST around the reference: called, tested, the object of a member call,
 * the range of a range-based for, or escaping — passed to a function,
 * returned, copied, captured, its address taken. A rewrite that changes the
 * variable's type is safe only while every use stays local; the rules
 * decide which uses they allow. */
#ifndef HEAPLINT_RULES_USES_H
#define HEAPLINT_RULES_USES_H

#include "engine/rule.h"

typedef enum hl_use_kind {
  HL_USE_MEMBER,    /* the object of a member call (call, method) */
  HL_USE_RANGE_FOR, /* the range of a range-based for (loop_var) */
  HL_USE_ESCAPE,    /* anything else: how says what */
} hl_use_kind;

typedef struct hl_use {
  hl_use_kind kind;
  CXCursor call;   /* HL_USE_MEMBER: the call */
  CXCursor method; /* HL_USE_MEMBER: the method called */
  char method_name[64];
  CXCursor loop_var; /* HL_USE_RANGE_FOR */
  size_t call_depth; /* HL_USE_MEMBER: the call is ancestor call_depth */
  char *how;         /* HL_USE_ESCAPE, completing "it is ...": "passed to take()", "returned" */
  hl_loc loc;        /* where the use is */
} hl_use;

/* The declaration ref (a DeclRefExpr or MemberRefExpr, the cursor being
 * visited) refers to, when it is a variable or a field; else a null cursor. */
CXCursor hl_use_target(CXCursor ref);

/* What call calls, for "passed to ...": "take()", "operator() of 's'
 * (Sink)", "the lambda 'cb'", "a call through the function pointer 'fp'",
 * "a call through a pointer to member function" — never an empty name.
 * Caller frees. */
char *hl_callee_phrase(CXCursor call);

/* Reads the use of the reference being visited (ctx's ancestors are its
 * parents). Returns 0, or -1 when it has no location. Free with hl_use_free. */
int hl_use_of(const hl_ctx *ctx, CXCursor ref, hl_use *u);
void hl_use_free(hl_use *u);

/* For a member call that returns an element (operator[], front): whether
 * the element is only called — v[i]() — or tested as a bool. */
int hl_use_result_is_called(const hl_ctx *ctx, const hl_use *u);

#endif
