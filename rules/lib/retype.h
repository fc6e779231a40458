/* retype: plans the rewrite of a wrapper's declared type — std::function<Sig>
 * to hl::inplace_function<Sig, N> — for function-sbo's fix.
 *
 * Each store is traced to the declaration it stores into: a variable, a
 * member, or a container's elements (std::vector<std::function<...>>). A
 * declaration can be retyped only when heaplint sees everything that goes
 * into it and everything done with it: every store is a callable it sized,
 * and every use stays local — called, tested, assigned a known callable or
 * nullptr, a container's elements pushed, sized, iterated with a range-for
 * and called. Anything else (passed to a function, returned, copied,
 * assigned another std::function, a member of a class other translation
 * units see, a type spelled through an alias) leaves a note instead. */
#ifndef HEAPLINT_RULES_RETYPE_H
#define HEAPLINT_RULES_RETYPE_H

#include "engine/rule.h"

typedef enum hl_store_kind {
  HL_STORE_CONSTRUCT, /* a converting constructor call */
  HL_STORE_ASSIGN,    /* the wrapper's templated operator= */
  HL_STORE_CONTAINER, /* a container's emplacing member */
  HL_STORE_OTHER,     /* anything else: not retyped */
} hl_store_kind;

typedef struct hl_retype hl_retype;

hl_retype *hl_retype_new(void);
void hl_retype_free(hl_retype *R);

/* During the walk, with ctx's ancestors those of call: the target of a
 * store made by call. Returns its index, or -1 with *why (caller frees)
 * when the store goes somewhere that cannot be retyped. */
int hl_retype_store(hl_retype *R, hl_ctx *ctx, CXCursor call, hl_store_kind kind, const hl_wrapper *w, char **why);

/* A parameter that receives a wrapper: the function and the index. */
typedef struct hl_retype_param {
  char *usr;  /* the function's */
  char *api;  /* "Loop::post(std::function<void ()>)" */
  char *type; /* the parameter's type as declared */
  int index;
} hl_retype_param;

/* During the walk, as hl_retype_store: when the wrapper call constructs
 * (HL_STORE_CONSTRUCT) is an argument of a call of a function declared
 * outside system headers, that function's parameter (1; free it with
 * hl_retype_param_free); else 0. */
int hl_retype_param_of(hl_ctx *ctx, CXCursor call, hl_retype_param *out);
void hl_retype_param_free(hl_retype_param *p);
/* A function as summaries name it: qualified, with its parameters
 * ("Loop::post(std::function<void ()>)"). Caller frees. */
char *hl_retype_api_name(CXCursor fn);

/* During the walk: every DeclRefExpr and MemberRefExpr. */
void hl_retype_use(hl_retype *R, hl_ctx *ctx, CXCursor ref);

/* During the walk, with ctx's ancestors those of ref (a DeclRefExpr or
 * MemberRefExpr): the first ancestor that does not just hand ref's whole
 * value on, moved (std::move) or copied or moved into another object of
 * its type (up to two constructions: C++11's copy-initialization makes a
 * temporary first), with *below the cursor under it. */
CXCursor hl_retype_whole_parent(hl_ctx *ctx, CXCursor ref, CXCursor *below);

/* During the walk, as above: the member (canonical FieldDecl) that ref's whole value,
 * moved or copied, initializes in a constructor's initializer list
 * (m_(std::move(cb))), when the member's type is ref's (references
 * aside); else a null cursor. */
CXCursor hl_retype_member_init(hl_ctx *ctx, CXCursor ref);

/* After the walk, once: judges the uses seen. */
void hl_retype_finish(hl_retype *R);

/* Then: why target t cannot be retyped, or NULL. */
const char *hl_retype_blocked(const hl_retype *R, int t);
/* How many targets there are; whether target t is declared where other
 * units see it (a header: hl_retype_blocked then says so first, and only
 * the whole project can retype it), and what else in this unit stands in
 * the way (NULL: nothing). */
int hl_retype_count(const hl_retype *R);
int hl_retype_shared(const hl_retype *R, int t);
const char *hl_retype_local_blocked(const hl_retype *R, int t);
/* The flow t is in (T x = std::move(member); makes x and member one),
 * named by one of its targets: every target of a group is retyped with the
 * others, or none is. */
int hl_retype_group(hl_retype *R, int t);
/* Its declaration, and whether the wrapper is its element type. */
CXCursor hl_retype_decl(const hl_retype *R, int t, int *container);

#endif
