#include "rules/lib/uses.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/util.h"

CXCursor hl_use_target(CXCursor ref) {
  enum CXCursorKind k = clang_getCursorKind(ref);
  if (k != CXCursor_DeclRefExpr && k != CXCursor_MemberRefExpr) return clang_getNullCursor();
  CXCursor d = clang_getCursorReferenced(ref);
  enum CXCursorKind dk = clang_getCursorKind(d);
  if (dk != CXCursor_VarDecl && dk != CXCursor_FieldDecl) return clang_getNullCursor();
  return clang_getCanonicalCursor(d);
}

/* 'name' of a variable or member the expression e names, or NULL. */
static char *named(CXCursor e) {
  e = hl_strip(e);
  enum CXCursorKind k = clang_getCursorKind(e);
  if (k != CXCursor_DeclRefExpr && k != CXCursor_MemberRefExpr) return NULL;
  char *n = hl_cxstring_take(clang_getCursorSpelling(e));
  if (*n) return n;
  free(n);
  return NULL;
}

/* A call of operator() on an object: a lambda, a wrapper, a functor. */
static char *call_operator(CXCursor call) {
  CXCursor object = hl_strip(hl_first_child(call));
  char *name = named(object), *r;
  CXType t = clang_getCanonicalType(hl_unref(clang_getCursorType(object)));
  if (hl_type_is_lambda(t)) {
    r = name ? hl_xasprintf("the lambda '%s'", name) : hl_xstrdup("a lambda");
  } else {
    char *cls = hl_type_readable(t);
    r = name ? hl_xasprintf("operator() of '%s' (%s)", name, cls) : hl_xasprintf("%s::operator()", cls);
    free(cls);
  }
  free(name);
  return r;
}

char *hl_callee_phrase(CXCursor call) {
  CXCursor fn = clang_getCursorReferenced(call);
  enum CXCursorKind k = clang_getCursorKind(fn);
  if (k == CXCursor_VarDecl || k == CXCursor_ParmDecl || k == CXCursor_FieldDecl) {
    char *n = hl_cxstring_take(clang_getCursorSpelling(fn));
    char *r = hl_xasprintf("a call through the function pointer '%s'", n);
    free(n);
    return r;
  }
  char *n = clang_Cursor_isNull(fn) ? hl_xstrdup("") : hl_cxstring_take(clang_getCursorSpelling(fn));
  char *r = NULL;
  if (!strcmp(n, "operator()"))
    r = call_operator(call);
  else if (hl_starts_with(n, "operator"))
    r = hl_xstrdup(n);
  else if (*n)
    r = hl_xasprintf("%s()", n);
  free(n);
  if (r) return r;
  /* No function named: what the callee expression is. */
  enum CXCursorKind ck = clang_getCursorKind(hl_strip(hl_first_child(call)));
  if (ck == CXCursor_BinaryOperator) return hl_xstrdup("a call through a pointer to member function");
  if (ck == CXCursor_UnaryOperator) return hl_xstrdup("a call through a function pointer");
  return hl_xstrdup("a call heaplint cannot name");
}

static void escape(hl_use *u, char *how) {
  u->kind = HL_USE_ESCAPE;
  u->how = how;
}

/* A member function of the wrapper called on it: call is that call, depth
 * its ancestor index. */
static void member_use(hl_use *u, CXCursor call, size_t depth, CXCursor method) {
  u->kind = HL_USE_MEMBER;
  u->call = call;
  u->call_depth = depth;
  u->method = method;
  char *name = hl_cxstring_take(clang_getCursorSpelling(method));
  snprintf(u->method_name, sizeof u->method_name, "%s", name);
  free(name);
}

int hl_use_of(const hl_ctx *ctx, CXCursor ref, hl_use *u) {
  memset(u, 0, sizeof *u);
  if (hl_ctx_loc(ctx, clang_getCursorLocation(ref), &u->loc)) return -1;
  size_t k = 0;
  CXCursor below, p = hl_ctx_opaque_ancestor(ctx, &k, ref, &below);
  enum CXCursorKind pk = clang_getCursorKind(p);
  if (pk == CXCursor_MemberRefExpr) {
    /* ref.member(...) */
    size_t m = k + 1;
    CXCursor q = hl_ctx_opaque_ancestor(ctx, &m, p, NULL);
    CXCursor method = clang_getCursorReferenced(p);
    enum CXCursorKind mk = clang_getCursorKind(method);
    /* An implicit conversion (if (cb)) calls operator bool this way. */
    if (clang_getCursorKind(q) == CXCursor_CallExpr &&
        (mk == CXCursor_CXXMethod || mk == CXCursor_ConversionFunction)) {
      member_use(u, q, m, method);
      return 0;
    }
    escape(u, hl_xstrdup("accessed through one of its members"));
    return 0;
  }
  if (pk == CXCursor_CallExpr) {
    CXCursor fn = clang_getCursorReferenced(p);
    enum CXCursorKind fk = clang_getCursorKind(fn);
    /* An operator called on it (cb(), cb = x, v[i], if (cb)): the object is
     * the call's first child. */
    if ((fk == CXCursor_CXXMethod || fk == CXCursor_ConversionFunction) &&
        clang_equalCursors(hl_first_child(p), below)) {
      member_use(u, p, k, fn);
      return 0;
    }
    if (fk == CXCursor_Constructor) {
      /* Copied or moved: say into what. */
      size_t m = k + 1;
      CXCursor q = hl_ctx_opaque_ancestor(ctx, &m, p, NULL);
      enum CXCursorKind qk = clang_getCursorKind(q);
      if (qk == CXCursor_CallExpr) {
        char *f = hl_callee_phrase(q);
        escape(u, hl_xasprintf("passed to %s", f));
        free(f);
      } else if (qk == CXCursor_ReturnStmt)
        escape(u, hl_xstrdup("returned"));
      else if (qk == CXCursor_VarDecl || qk == CXCursor_FieldDecl) {
        char *n = hl_cxstring_take(clang_getCursorSpelling(q));
        escape(u, hl_xasprintf("copied into '%s'", n));
        free(n);
      } else
        escape(u, hl_xstrdup("copied"));
      return 0;
    }
    char *f = hl_callee_phrase(p);
    escape(u, hl_xasprintf("passed to %s", f));
    free(f);
    return 0;
  }
  if (pk == CXCursor_CXXForRangeStmt) {
    u->kind = HL_USE_RANGE_FOR;
    u->loop_var = hl_first_child(p);
    return 0;
  }
  switch (pk) {
  case CXCursor_ReturnStmt: escape(u, hl_xstrdup("returned")); break;
  case CXCursor_LambdaExpr: escape(u, hl_xstrdup("captured by a lambda")); break;
  case CXCursor_UnaryOperator: escape(u, hl_xstrdup("taken by address")); break;
  case CXCursor_VarDecl: {
    char *n = hl_cxstring_take(clang_getCursorSpelling(p));
    escape(u, hl_xasprintf("bound to '%s'", n));
    free(n);
    break;
  }
  default: escape(u, hl_xstrdup("used in an expression heaplint does not follow")); break;
  }
  return 0;
}

int hl_use_result_is_called(const hl_ctx *ctx, const hl_use *u) {
  if (u->kind != HL_USE_MEMBER) return 0;
  size_t m = u->call_depth + 1;
  CXCursor below, q = hl_ctx_opaque_ancestor(ctx, &m, u->call, &below);
  if (clang_getCursorKind(q) != CXCursor_CallExpr || !clang_equalCursors(hl_first_child(q), below)) return 0;
  char *name = hl_cxstring_take(clang_getCursorSpelling(clang_getCursorReferenced(q)));
  int ok = !strcmp(name, "operator()") || !strcmp(name, "operator bool");
  free(name);
  return ok;
}

void hl_use_free(hl_use *u) {
  free(u->how);
  hl_loc_free(&u->loc);
  memset(u, 0, sizeof *u);
}
