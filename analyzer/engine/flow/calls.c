#include "engine/flow/calls.h"

#include <stdlib.h>
#include <string.h>

#include "engine/ast.h"
#include "util/util.h"

typedef struct call_rec {
  CXCursor call;
  CXCursor fn;     /* the function (or lambda) the call is in */
  CXCursor callee; /* the canonical function it calls, or a null cursor (unresolved) */
  char *name;      /* the token of the name it calls ("append", "make_shared") */
  int std;         /* that name is the standard library's */
  hl_loc at;       /* where that name is */
} call_rec;

struct hl_calls {
  call_rec *v;
  size_t n, cap;
};

hl_calls *hl_calls_new(void) { return hl_xcalloc(1, sizeof(hl_calls)); }

void hl_calls_free(hl_calls *C) {
  if (!C) return;
  for (size_t i = 0; i < C->n; i++) {
    free(C->v[i].name);
    hl_loc_free(&C->v[i].at);
  }
  free(C->v);
  free(C);
}

static enum CXChildVisitResult first_overloaded(CXCursor c, CXCursor parent, CXClientData d) {
  (void)parent;
  if (clang_getCursorKind(c) != CXCursor_OverloadedDeclRef) return CXChildVisit_Continue;
  *(CXCursor *)d = c;
  return CXChildVisit_Break;
}

/* Whether what the callee names is the standard library's. */
static int names_std(CXCursor callee) {
  CXCursor d = clang_getCursorReferenced(callee);
  if (clang_Cursor_isNull(d) || clang_getCursorKind(d) == CXCursor_OverloadedDeclRef) {
    CXCursor set = clang_getCursorKind(callee) == CXCursor_OverloadedDeclRef ? callee : clang_getNullCursor();
    if (clang_Cursor_isNull(set)) clang_visitChildren(callee, first_overloaded, &set);
    d = !clang_Cursor_isNull(set) && clang_getNumOverloadedDecls(set) > 0 ? clang_getOverloadedDecl(set, 0)
                                                                          : clang_getNullCursor();
  }
  if (clang_Cursor_isNull(d)) return 0;
  char *name = hl_decl_name(d);
  int std = hl_starts_with(name, "std::");
  free(name);
  return std;
}

/* The name the callee expression calls, after any qualifier and before any
 * template arguments (std::make_shared<T>, o.append, p->f), and its
 * location; NULL when there is none. */
static char *name_token(CXTranslationUnit tu, CXCursor callee, CXSourceLocation *loc) {
  CXToken *toks = NULL;
  unsigned n = 0;
  clang_tokenize(tu, clang_getCursorExtent(callee), &toks, &n);
  char *name = NULL;
  for (unsigned i = 0; i < n; i++) {
    CXString sp = clang_getTokenSpelling(tu, toks[i]);
    int angle = !strcmp(clang_getCString(sp), "<");
    clang_disposeString(sp);
    if (angle) break;
    if (clang_getTokenKind(toks[i]) != CXToken_Identifier) continue;
    free(name);
    name = hl_cxstring_take(clang_getTokenSpelling(tu, toks[i]));
    *loc = clang_getTokenLocation(tu, toks[i]);
  }
  clang_disposeTokens(tu, toks, n);
  return name;
}

void hl_calls_visit(hl_calls *C, hl_ctx *ctx, CXCursor call) {
  CXCursor callee = hl_strip(hl_first_child(call));
  enum CXCursorKind k = clang_getCursorKind(callee);
  if (k != CXCursor_MemberRefExpr && k != CXCursor_DeclRefExpr && k != CXCursor_OverloadedDeclRef) return;
  call_rec r;
  memset(&r, 0, sizeof r);
  CXSourceLocation loc;
  r.name = name_token(hl_ctx_tu(ctx), callee, &loc);
  if (!r.name) return;
  if (hl_ctx_loc(ctx, loc, &r.at)) {
    free(r.name);
    return;
  }
  r.call = call;
  r.std = names_std(callee);
  CXCursor fn = clang_getCursorReferenced(call);
  r.callee = clang_Cursor_isNull(fn) ? fn : clang_getCanonicalCursor(fn);
  r.fn = clang_getNullCursor();
  for (size_t d = 0; !clang_Cursor_isNull(hl_ctx_ancestor(ctx, d)); d++)
    if (hl_is_function_like(clang_getCursorKind(hl_ctx_ancestor(ctx, d)))) {
      r.fn = hl_ctx_ancestor(ctx, d);
      break;
    }
  HL_PUSH(C->v, C->n, C->cap, r);
}

static const call_rec *at_loc(const hl_calls *C, const hl_loc *l) {
  for (size_t i = 0; i < C->n; i++)
    if (C->v[i].at.offset == l->offset && !strcmp(C->v[i].at.file, l->file)) return &C->v[i];
  return NULL;
}

typedef struct param_find {
  CXCursor p;
  int i, found;
} param_find;

static enum CXChildVisitResult count_param(CXCursor c, CXCursor parent, CXClientData d) {
  (void)parent;
  param_find *F = d;
  if (clang_getCursorKind(c) != CXCursor_ParmDecl) return CXChildVisit_Continue;
  if (clang_equalCursors(clang_getCanonicalCursor(c), F->p)) {
    F->found = F->i;
    return CXChildVisit_Break;
  }
  F->i++;
  return CXChildVisit_Continue;
}

/* The index of parameter p among fn's (also a function template's), or -1. */
static int param_index(CXCursor fn, CXCursor p) {
  param_find F = {clang_getCanonicalCursor(p), 0, -1};
  clang_visitChildren(fn, count_param, &F);
  return F.found;
}

/* The parameter of its function that argument i of the call passes on by
 * name (through std::move and std::forward), or a null cursor. */
static CXCursor passed_parameter(const call_rec *r, int i) {
  CXCursor none = clang_getNullCursor();
  if (i < 0 || i >= clang_Cursor_getNumArguments(r->call)) return none;
  CXCursor e = hl_strip(clang_Cursor_getArgument(r->call, (unsigned)i));
  for (int depth = 0; depth < 4 && clang_getCursorKind(e) == CXCursor_CallExpr && clang_Cursor_getNumArguments(e) == 1;
       depth++) {
    CXSourceLocation loc;
    CXCursor callee = hl_strip(hl_first_child(e));
    char *name = name_token(clang_Cursor_getTranslationUnit(e), callee, &loc);
    int moves = name && (!strcmp(name, "move") || !strcmp(name, "forward")) && names_std(callee);
    free(name);
    if (!moves) break;
    e = hl_strip(clang_Cursor_getArgument(e, 0));
  }
  if (clang_getCursorKind(e) != CXCursor_DeclRefExpr) return none;
  CXCursor p = clang_getCursorReferenced(e);
  return clang_getCursorKind(p) == CXCursor_ParmDecl ? p : none;
}

/* The argument of a call through the standard library that becomes
 * argument i of the constructor it builds, or -1: std::make_shared,
 * std::make_unique and emplace members pass theirs in order,
 * std::allocate_shared after its allocator. */
static int library_argument(const call_rec *r, int i) {
  static const char *const in_order[] = {"make_shared",   "make_unique", "emplace_back",
                                         "emplace_front", "emplace",     "construct_at"};
  if (!r->std) return -1;
  if (!strcmp(r->name, "allocate_shared")) return i + 1;
  for (size_t k = 0; k < sizeof in_order / sizeof *in_order; k++)
    if (!strcmp(r->name, in_order[k])) return i;
  return -1;
}

int hl_calls_chain_argument(const hl_calls *C, const hl_inst_answer *h, CXCursor fn, int param, CXCursor *call,
                            int *arg) {
  int through_library = 0;
  char *fn_name = hl_cxstring_take(clang_getCursorSpelling(fn));
  int ok = -1;
  for (size_t k = 1; k < h->nchain && param >= 0; k++) {
    if (h->in_system[k]) {
      through_library = 1;
      continue;
    }
    const call_rec *r = at_loc(C, &h->chain[k]);
    if (!r) break;
    /* The call that made fn's instantiation: fn itself, or the library
     * function that builds fn's class. */
    int i = through_library ? library_argument(r, param) : !strcmp(r->name, fn_name) ? param : -1;
    through_library = 0;
    if (i < 0) break;
    if (k == h->user) {
      *call = r->call;
      *arg = i;
      ok = 0;
      break;
    }
    CXCursor p = passed_parameter(r, i);
    if (clang_Cursor_isNull(p) || clang_Cursor_isNull(r->fn)) break;
    param = param_index(r->fn, p);
    free(fn_name);
    fn_name = hl_cxstring_take(clang_getCursorSpelling(r->fn));
  }
  free(fn_name);
  return ok;
}

size_t hl_calls_same_callee(const hl_calls *C, CXCursor call, CXCursor **out) {
  size_t n = 0, cap = 0;
  *out = NULL;
  CXCursor fn = clang_getCursorReferenced(call);
  if (clang_Cursor_isNull(fn)) {
    HL_PUSH(*out, n, cap, call);
    return n;
  }
  fn = clang_getCanonicalCursor(fn);
  for (size_t i = 0; i < C->n; i++)
    if (!clang_Cursor_isNull(C->v[i].callee) && clang_equalCursors(C->v[i].callee, fn))
      HL_PUSH(*out, n, cap, C->v[i].call);
  return n;
}
