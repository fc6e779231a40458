#include "rules/sbo/templates.h"

#include <stdlib.h>
#include <string.h>

#include "rules/lib/uses.h"
#include "rules/sbo/captures.h"
#include "rules/sbo/match.h"
#include "util/strv.h"
#include "util/util.h"

/* Whether the expression's type depends on a template parameter. */
static int is_dependent(CXCursor e) { return hl_type_is_dependent(clang_getCursorType(e)); }

static enum CXChildVisitResult find_overloaded_ref(CXCursor c, CXCursor parent, CXClientData d) {
  (void)parent;
  if (clang_getCursorKind(c) != CXCursor_OverloadedDeclRef) return CXChildVisit_Continue;
  *(CXCursor *)d = c;
  return CXChildVisit_Break;
}

/* The overload set an unresolved call names (take(x), std::move(x) with a
 * dependent x), or a null cursor. */
static CXCursor overload_set(CXCursor call) {
  CXCursor callee = hl_strip(hl_first_child(call));
  if (clang_getCursorKind(callee) == CXCursor_OverloadedDeclRef) return callee;
  if (clang_getCursorKind(callee) != CXCursor_DeclRefExpr && clang_getCursorKind(callee) != CXCursor_MemberRefExpr)
    return clang_getNullCursor();
  /* std::forward<F>: the explicit template arguments come after the name. */
  CXCursor set = clang_getNullCursor();
  clang_visitChildren(callee, find_overloaded_ref, &set);
  return set;
}

/* Whether every candidate of the overload set is the function qualified. */
static int names_only(CXCursor set, const char *qualified) {
  unsigned n = clang_getNumOverloadedDecls(set);
  for (unsigned i = 0; i < n; i++) {
    char *name = hl_decl_name(clang_getOverloadedDecl(set, i));
    int same = !strcmp(name, qualified);
    free(name);
    if (!same) return 0;
  }
  return n > 0;
}

/* Whether the call is to the function qualified, resolved or not. */
static int calls(CXCursor call, const char *qualified) {
  if (clang_getCursorKind(call) != CXCursor_CallExpr) return 0;
  CXCursor set = overload_set(call);
  if (!clang_Cursor_isNull(set)) return names_only(set, qualified);
  CXCursor fn = clang_getCursorReferenced(call);
  if (clang_getCursorKind(fn) != CXCursor_FunctionDecl) return 0;
  char *name = hl_decl_name(fn);
  int r = !strcmp(name, qualified);
  free(name);
  return r;
}

/* Through parentheses, implicit conversions, std::move and std::forward. */
static CXCursor strip_moves(CXCursor e) {
  for (int depth = 0; depth < 16; depth++) {
    e = hl_strip(e);
    if (clang_Cursor_getNumArguments(e) != 1 || (!calls(e, "std::move") && !calls(e, "std::forward"))) return e;
    e = clang_Cursor_getArgument(e, 0);
  }
  return e;
}

/* What a local variable was initialized with, when e names one. */
static CXCursor through_local(CXCursor e) {
  if (clang_getCursorKind(e) != CXCursor_DeclRefExpr) return e;
  CXCursor var = clang_getCursorReferenced(e);
  if (clang_getCursorKind(var) != CXCursor_VarDecl ||
      !hl_is_function_like(clang_getCursorKind(clang_getCursorSemanticParent(var))))
    return e;
  CXCursor init = hl_last_child(var);
  return clang_isExpression(clang_getCursorKind(init)) ? strip_moves(init) : e;
}

/* std::bind(&C::f, this, k) inside a class template: a member pointer (two
 * words on the Itanium C++ ABI whatever the class), a pointer, and values
 * of non-dependent types. Its layout is the same in every instantiation,
 * so one instantiation's answer is the template's. */
static int bind_independent(const hl_ctx *ctx, CXCursor e) {
  e = through_local(strip_moves(e));
  if (!calls(e, "std::bind") || strstr(hl_ctx_triple(ctx), "windows")) return 0;
  int n = clang_Cursor_getNumArguments(e);
  for (int i = 0; i < n; i++) {
    CXCursor a = hl_strip(clang_Cursor_getArgument(e, (unsigned)i));
    enum CXCursorKind k = clang_getCursorKind(a);
    if (k == CXCursor_CXXThisExpr || !is_dependent(a)) continue;
    if (k == CXCursor_UnaryOperator) {
      CXCursor m = hl_strip(hl_first_child(a));
      CXCursor d = clang_getCursorKind(m) == CXCursor_DeclRefExpr ? clang_getCursorReferenced(m) : m;
      if (clang_getCursorKind(d) == CXCursor_OverloadedDeclRef && clang_getNumOverloadedDecls(d) > 0)
        d = clang_getOverloadedDecl(d, 0);
      if (clang_getCursorKind(d) == CXCursor_CXXMethod && !clang_CXXMethod_isStatic(d)) continue;
    }
    return 0;
  }
  return 1;
}

/* A lambda inside a template whose captures' types do not depend on the
 * template's parameters ([=] copying non-dependent variables, this): its
 * layout is the same in every instantiation, though clang lays out a
 * default capture only per instantiation. */
typedef struct dep_walk {
  const hl_types *T;
  CXSourceRange range;
  int dependent;
} dep_walk;

/* Whether a capture's type has no layout outside an instantiation (a
 * std::shared_ptr<T> or std::function<void(T)> has one). */
static int layout_dependent(const hl_types *T, CXType t) {
  long size, align;
  return hl_type_is_dependent(t) && hl_type_layout(T, t, &size, &align);
}

static enum CXChildVisitResult find_dependent_capture(CXCursor c, CXCursor parent, CXClientData d) {
  (void)parent;
  dep_walk *w = d;
  CXCursor decl = clang_getCursorReferenced(c);
  /* A capture whose type depends: [t], or [u = t] copying a member of the
   * class's parameter type (libclang shows no dependent initializer, only
   * the capture's variable). */
  if (clang_getCursorKind(c) == CXCursor_VariableRef && layout_dependent(w->T, clang_getCursorType(decl))) {
    w->dependent = 1;
    return CXChildVisit_Break;
  }
  if (clang_getCursorKind(c) != CXCursor_DeclRefExpr) return CXChildVisit_Recurse;
  enum CXCursorKind dk = clang_getCursorKind(decl);
  unsigned off, begin, end;
  clang_getFileLocation(clang_getCursorLocation(decl), NULL, NULL, NULL, &off);
  clang_getFileLocation(clang_getRangeStart(w->range), NULL, NULL, NULL, &begin);
  clang_getFileLocation(clang_getRangeEnd(w->range), NULL, NULL, NULL, &end);
  if ((dk == CXCursor_VarDecl || dk == CXCursor_ParmDecl) && (off < begin || off > end) &&
      hl_is_function_like(clang_getCursorKind(clang_getCursorSemanticParent(decl))) &&
      layout_dependent(w->T, clang_getCursorType(decl))) {
    w->dependent = 1;
    return CXChildVisit_Break;
  }
  return CXChildVisit_Recurse;
}

static int lambda_independent(const hl_ctx *ctx, CXCursor e) {
  e = through_local(strip_moves(e));
  if (clang_getCursorKind(e) != CXCursor_LambdaExpr) return 0;
  dep_walk w = {hl_ctx_types(ctx), clang_getCursorExtent(e), 0};
  clang_visitChildren(e, find_dependent_capture, &w);
  return !w.dependent;
}

/* A store inside a template of a value whose type depends on the template
 * (expr): a lambda whose captures all have a layout is laid out from them
 * and judged here, once; anything else is judged per instantiation by a
 * probe (hl_sbo_prepare), and is counted as not decided when none answers. */
typedef struct sites {
  hl_sbo_site *v;
  size_t n, cap;
} sites;

static void deferred(hl_ctx *ctx, sites *out, CXCursor visited, const hl_wrapper *w, CXType wtype, CXCursor expr,
                     CXCursor call, hl_store_kind kind) {
  hl_sbo_site s;
  CXCursor lambda = through_local(strip_moves(expr));
  long size, align;
  hl_types_learn(hl_ctx_types(ctx), wtype);
  if (clang_getCursorKind(lambda) == CXCursor_LambdaExpr &&
      !hl_sbo_template_lambda_layout(ctx, lambda, &size, &align)) {
    if (!hl_sbo_fill_site(ctx, &s, visited, w, wtype, clang_getCursorType(lambda), expr, expr)) return;
    s.size = size;
    s.align = align;
    s.lambda = lambda;
  } else {
    if (!hl_sbo_fill_site(ctx, &s, visited, w, wtype, clang_getCursorType(expr), expr, expr)) return;
    s.dependent = 1;
    s.independent = bind_independent(ctx, expr) || lambda_independent(ctx, expr);
  }
  s.call = call;
  s.store_kind = kind;
  HL_PUSH(out->v, out->n, out->cap, s);
}

/* An argument of a call that a conversion probe asks about: whatever the
 * call resolves to in an instantiation may convert it to a wrapper (the
 * site's wrapper is the one the probe names). */
static void conversion_site(hl_ctx *ctx, sites *out, CXCursor visited, CXCursor wrapped, CXCursor arg,
                            const char *as_type) {
  hl_sbo_site s;
  memset(&s, 0, sizeof s);
  if (hl_ctx_loc(ctx, clang_getCursorLocation(arg), &s.loc)) return;
  s.call = clang_getNullCursor();
  s.lambda = clang_getNullCursor();
  s.callee = clang_getNullCursor();
  s.store_kind = HL_STORE_OTHER;
  s.target = -1;
  s.probe = -1;
  s.expr = arg;
  s.stored = clang_getCursorType(arg);
  s.in_loop = !clang_Cursor_isNull(hl_loop_around(ctx, visited));
  s.dependent = 1;
  /* Whatever the call resolves to, a value laid out the same in every
   * instantiation is reported at the argument, once. */
  s.independent = bind_independent(ctx, arg) || lambda_independent(ctx, arg);
  s.convert = 1;
  s.convert_call = wrapped;
  s.convert_type = as_type ? hl_xstrdup(as_type) : NULL;
  HL_PUSH(out->v, out->n, out->cap, s);
}

/* Whether the call names what it calls (f(x), o.f(x), p->f(x)), rather
 * than constructing a dependent type (T(x), W<F>{x}). */
static int names_callee(CXCursor call) {
  enum CXCursorKind k = clang_getCursorKind(hl_strip(hl_first_child(call)));
  return k == CXCursor_MemberRefExpr || k == CXCursor_DeclRefExpr || k == CXCursor_OverloadedDeclRef;
}

/* Whether every candidate is the standard library's: std::move, std::forward,
 * std::make_shared pass what they are given on (a store they make inside
 * is a conversion probe's business only through their caller). */
static int all_std(CXCursor set) {
  unsigned n = clang_getNumOverloadedDecls(set);
  for (unsigned i = 0; i < n; i++) {
    char *name = hl_decl_name(clang_getOverloadedDecl(set, i));
    int std = hl_starts_with(name, "std::");
    free(name);
    if (!std) return 0;
  }
  return n > 0;
}

/* wrapper = value, with a value whose type depends on the template. */
static void template_assign(hl_ctx *ctx, sites *out, CXCursor op) {
  char *spelling = hl_cxstring_take(clang_getCursorSpelling(op));
  int assign = !strcmp(spelling, "=");
  free(spelling);
  if (!assign) return;
  CXCursor lhs = hl_first_child(op), rhs = hl_last_child(op);
  CXType wtype = clang_getCursorType(lhs);
  const hl_wrapper *w = hl_sbo_wrapper_of(ctx, wtype);
  if (w && is_dependent(rhs)) deferred(ctx, out, op, w, wtype, rhs, op, HL_STORE_ASSIGN);
}

typedef struct expr_children {
  CXCursor last;
  int n;
} expr_children;

static enum CXChildVisitResult count_expr(CXCursor c, CXCursor parent, CXClientData d) {
  (void)parent;
  expr_children *e = d;
  if (clang_isExpression(clang_getCursorKind(c))) {
    e->last = c;
    e->n++;
  }
  return CXChildVisit_Continue;
}

/* The one value of an initializer written cb(x) or cb{x}: inside a template
 * libclang shows a dependent one as a list (an unexposed parenthesized list,
 * or an initializer list) of x alone. Any other initializer is itself. */
static CXCursor single_value(CXCursor init, int *listed) {
  enum CXCursorKind k = clang_getCursorKind(init);
  expr_children e = {clang_getNullCursor(), 0};
  if (k == CXCursor_UnexposedExpr || k == CXCursor_InitListExpr) clang_visitChildren(init, count_expr, &e);
  if (listed) *listed = e.n == 1;
  return e.n == 1 ? e.last : init;
}

static void template_tuple(hl_ctx *ctx, sites *out, CXCursor visited, CXType type, CXCursor list);
static void template_class_construct(hl_ctx *ctx, sites *out, CXCursor visited, CXType cls, CXCursor list);

/* A wrapper variable or member initialized inside a template. */
static void template_init(hl_ctx *ctx, sites *out, CXCursor var) {
  CXType wtype = clang_getCursorType(var);
  const hl_wrapper *w = hl_sbo_wrapper_of(ctx, wtype);
  CXCursor init = hl_last_child(var);
  enum CXCursorKind ik = clang_getCursorKind(init);
  /* A pair or tuple of wrappers initialized from a list (p(a, b), p{a, b});
   * one written as a construction, T(a, b), is a call visited on its own. */
  if (!w && (ik == CXCursor_UnexposedExpr || ik == CXCursor_InitListExpr)) {
    size_t before = out->n;
    template_tuple(ctx, out, var, wtype, init);
    if (out->n == before) template_class_construct(ctx, out, var, wtype, init);
  }
  if (!w) return;
  if (!clang_isExpression(ik)) return;
  CXCursor value = single_value(init, NULL);
  if (!is_dependent(value)) return;
  deferred(ctx, out, var, w, wtype, value, clang_getNullCursor(), HL_STORE_OTHER);
}

/* The last token of c's extent (a member's name, which libclang leaves
 * unspelled when the object's type is dependent). */
static char *last_token(CXCursor c) {
  CXTranslationUnit tu = clang_Cursor_getTranslationUnit(c);
  CXToken *toks = NULL;
  unsigned n = 0;
  clang_tokenize(tu, clang_getCursorExtent(c), &toks, &n);
  char *r = n ? hl_cxstring_take(clang_getTokenSpelling(tu, toks[n - 1])) : hl_xstrdup("");
  clang_disposeTokens(tu, toks, n);
  return r;
}

static const char *const sequences[] = {"std::vector", "std::deque", "std::list", "std::forward_list"};

/* v.push_back(x) / v.emplace_back(x) where v's type itself depends on the
 * template (std::vector<std::function<Sig>>): no overload set yet, but the
 * container and its wrapper element are known. */
static void dependent_container(hl_ctx *ctx, sites *out, CXCursor call) {
  CXCursor callee = hl_strip(hl_first_child(call));
  if (clang_getCursorKind(callee) != CXCursor_MemberRefExpr || clang_Cursor_getNumArguments(call) != 1) return;
  CXCursor arg = clang_Cursor_getArgument(call, 0);
  CXCursor object = hl_first_child(callee);
  if (clang_Cursor_isNull(object) || !is_dependent(arg)) return;
  char *name = last_token(callee);
  int stores = !strcmp(name, "push_back") || !strcmp(name, "emplace_back") || !strcmp(name, "push_front") ||
               !strcmp(name, "emplace_front");
  free(name);
  if (!stores) return;
  CXType ct = clang_getCanonicalType(hl_unref(clang_getCursorType(object)));
  CXCursor decl = clang_getTypeDeclaration(ct);
  CXCursor tmpl = clang_getSpecializedCursorTemplate(decl);
  char *cname = hl_decl_name(clang_Cursor_isNull(tmpl) ? decl : tmpl);
  int known = 0;
  for (size_t k = 0; k < sizeof sequences / sizeof *sequences; k++) known |= !strcmp(cname, sequences[k]);
  free(cname);
  if (!known || clang_Type_getNumTemplateArguments(ct) < 1) return;
  /* The element as the code spells it (std::function<Sig>), when it can. */
  CXType wtype = clang_Type_getTemplateArgumentAsType(hl_unref(clang_getCursorType(object)), 0);
  if (wtype.kind == CXType_Invalid) wtype = clang_Type_getTemplateArgumentAsType(ct, 0);
  const hl_wrapper *w = hl_sbo_wrapper_of(ctx, wtype);
  if (w) deferred(ctx, out, call, w, wtype, arg, clang_getNullCursor(), HL_STORE_OTHER);
}

/* Constructor member initializers of a class template: cb(x) with a
 * dependent x (libclang lists the member, then its initializer). */
typedef struct inits {
  CXCursor v[64];
  size_t n;
} inits;

static enum CXChildVisitResult list_inits(CXCursor c, CXCursor parent, CXClientData d) {
  (void)parent;
  inits *I = d;
  if (I->n < 64) I->v[I->n++] = c;
  return CXChildVisit_Continue;
}

static void template_member_inits(hl_ctx *ctx, sites *out, CXCursor ctor) {
  inits I;
  I.n = 0;
  clang_visitChildren(ctor, list_inits, &I);
  for (size_t i = 0; i + 1 < I.n; i++) {
    if (clang_getCursorKind(I.v[i]) != CXCursor_MemberRef) continue;
    CXType wtype = clang_getCursorType(clang_getCursorReferenced(I.v[i]));
    const hl_wrapper *w = hl_sbo_wrapper_of(ctx, wtype);
    CXCursor init = I.v[i + 1];
    if (!clang_isExpression(clang_getCursorKind(init))) continue;
    /* cb(x) or cb{x}: the list of one value. */
    int listed;
    CXCursor value = single_value(init, &listed);
    if (!is_dependent(value)) continue;
    if (w) {
      deferred(ctx, out, ctor, w, wtype, value, clang_getNullCursor(), HL_STORE_OTHER);
    } else if (listed && hl_type_is_dependent(wtype)) {
      /* value(v) of a member whose type is the class's parameter: a
       * wrapper in some instantiations. */
      char *name = hl_cxstring_take(clang_getCursorSpelling(clang_getCursorReferenced(I.v[i])));
      char *as = hl_xasprintf("decltype(this->%s)", name);
      conversion_site(ctx, out, ctor, value, value, as);
      free(as);
      free(name);
    }
  }
}

/* std::function<void()>(x) with a dependent x: the wrapper is built from x
 * once the template is instantiated (libclang shows the unresolved
 * construction as a call to nothing, of the wrapper's type). */
static void template_construct(hl_ctx *ctx, sites *out, CXCursor call) {
  if (!clang_Cursor_isNull(clang_getCursorReferenced(call))) return;
  CXType wtype = clang_getCursorType(call);
  const hl_wrapper *w = hl_sbo_wrapper_of(ctx, wtype);
  if (!w) return;
  expr_children e = {clang_getNullCursor(), 0};
  clang_visitChildren(call, count_expr, &e);
  if (e.n == 1 && is_dependent(e.last))
    deferred(ctx, out, call, w, wtype, e.last, clang_getNullCursor(), HL_STORE_OTHER);
}

static const char *const pairs_and_tuples[] = {"std::pair", "std::tuple"};

static enum CXChildVisitResult list_exprs(CXCursor c, CXCursor parent, CXClientData d) {
  (void)parent;
  inits *I = d;
  if (clang_isExpression(clang_getCursorKind(c)) && I->n < 64) I->v[I->n++] = c;
  return CXChildVisit_Continue;
}

/* std::tuple<int, std::any>(e, std::forward<T>(v)) with a dependent v, or
 * a variable std::pair<std::function<void()>, int> p(std::move(f), 2): the
 * pair or tuple (its type known) is built per instantiation, and its
 * forwarding constructor builds each wrapper element from the argument at
 * its place (one argument per element; a tagged constructor, piecewise or
 * with an allocator, takes more). hl_sbo_tuple_sites' case, before the
 * constructor is chosen. libclang gives the unresolved construction, and
 * the variable's parenthesized or braced list, no arguments: their
 * expression children (in list) are they. */
static void template_tuple(hl_ctx *ctx, sites *out, CXCursor visited, CXType type, CXCursor list) {
  CXType ct = clang_getCanonicalType(type);
  if (ct.kind != CXType_Record || hl_type_is_dependent(ct)) return;
  char *cname = hl_class_name(ct);
  int known = hl_str_in(cname, pairs_and_tuples, 2);
  free(cname);
  int nelem = clang_Type_getNumTemplateArguments(ct);
  if (!known || nelem < 2 || nelem > 64) return;
  inits A;
  A.n = 0;
  clang_visitChildren(list, list_exprs, &A);
  if (A.n != (size_t)nelem) return;
  for (int i = 0; i < nelem; i++) {
    CXCursor arg = A.v[i];
    if (!is_dependent(arg) || clang_getCursorKind(arg) == CXCursor_PackExpansionExpr) continue;
    CXType elem = clang_Type_getTemplateArgumentAsType(ct, (unsigned)i);
    const hl_wrapper *w = hl_ctx_wrapper_of_type(ctx, elem);
    if (w) deferred(ctx, out, visited, w, elem, arg, clang_getNullCursor(), HL_STORE_OTHER);
  }
}

/* X(a, f), new X(a, f), X x(a, f) inside a template with a dependent f,
 * where X is a class (Worker<T> too) every constructor of which taking
 * that many arguments takes a wrapper at f's place (a Worker built from a
 * callable handed to make_worker<T>(CB cb), a Thread from std::bind of a
 * function template's arguments): the construction is resolved per
 * instantiation, and there f is converted to that wrapper. list holds the
 * arguments as expressions (a call's, or a parenthesized or braced list's);
 * a pack expansion among them leaves their number unknown. */
static void template_class_construct(hl_ctx *ctx, sites *out, CXCursor visited, CXType cls, CXCursor list) {
  inits A;
  A.n = 0;
  clang_visitChildren(list, list_exprs, &A);
  if (A.n == 0 || A.n == 64) return;
  for (size_t i = 0; i < A.n; i++)
    if (clang_getCursorKind(A.v[i]) == CXCursor_PackExpansionExpr) return;
  for (size_t i = 0; i < A.n; i++) {
    if (!is_dependent(A.v[i])) continue;
    CXType wtype = {CXType_Invalid, {0, 0}};
    const hl_wrapper *w = hl_sbo_ctor_wrapper(ctx, cls, (int)A.n, (int)i, &wtype);
    if (w) deferred(ctx, out, visited, w, wtype, A.v[i], clang_getNullCursor(), HL_STORE_OTHER);
  }
}

/* new X(a, f) or new X{a, f} inside a template, the construction left
 * unresolved (a parenthesized list, a braced list, or a construction that
 * names no constructor). */
static void template_new(hl_ctx *ctx, sites *out, CXCursor e) {
  CXType t = clang_getCursorType(e);
  if (t.kind != CXType_Pointer) return;
  CXCursor init = hl_last_child(e);
  enum CXCursorKind k = clang_getCursorKind(init);
  if (k == CXCursor_UnexposedExpr || k == CXCursor_InitListExpr ||
      (k == CXCursor_CallExpr && clang_Cursor_isNull(clang_getCursorReferenced(init))))
    template_class_construct(ctx, out, e, clang_getPointeeType(t), init);
}

/* The wrapper a candidate stores its argument i (of nargs) into: a
 * parameter of the wrapper's type (by value or reference), or a sequence
 * container's emplace_back/emplace_front of one value into its wrapper
 * element. */
static const hl_wrapper *candidate_store(hl_ctx *ctx, CXCursor fn, int i, int nargs, CXType *wtype) {
  enum CXCursorKind fk = clang_getCursorKind(fn);
  if (fk == CXCursor_FunctionDecl || fk == CXCursor_CXXMethod) {
    CXType fty = clang_getCursorType(fn);
    if (i >= clang_getNumArgTypes(fty)) return NULL;
    *wtype = hl_unref(clang_getArgType(fty, (unsigned)i));
    return hl_sbo_wrapper_of(ctx, *wtype);
  }
  if (fk != CXCursor_FunctionTemplate || nargs != 1) return NULL;
  char *name = hl_cxstring_take(clang_getCursorSpelling(fn));
  int emplace = !strcmp(name, "emplace_back") || !strcmp(name, "emplace_front");
  free(name);
  CXType ct = clang_getCanonicalType(clang_getCursorType(clang_getCursorSemanticParent(fn)));
  char *cname = hl_template_name(ct);
  int known = 0;
  for (size_t k = 0; k < sizeof sequences / sizeof *sequences; k++) known |= !strcmp(cname, sequences[k]);
  free(cname);
  if (!emplace || !known) return NULL;
  *wtype = clang_Type_getTemplateArgumentAsType(ct, 0);
  return hl_sbo_wrapper_of(ctx, *wtype);
}

/* The wrapper a conversion probe's hit converts to (of rule's, or any
 * rule's with NULL); *copy: the argument is already a wrapper of that type. */
static const hl_wrapper *converted_to(hl_ctx *ctx, const hl_inst_answer *h, const char *rule, int *copy) {
  const char *to = h->to;
  if (hl_starts_with(to, "std::__1::")) to += strlen("std::__1::") - strlen("std::");
  size_t n, len = strcspn(to, "<");
  const hl_wrapper *const *all = hl_ctx_wrappers(ctx, &n);
  const hl_wrapper *w = NULL;
  for (size_t i = 0; i < n && !w; i++)
    if (strlen(all[i]->name) == len && !strncmp(all[i]->name, to, len) && (!rule || !strcmp(all[i]->rule, rule)))
      w = all[i];
  *copy = !strcmp(h->type, h->to);
  return w;
}

const hl_wrapper *hl_sbo_conversion_copy(hl_ctx *ctx, const hl_inst_answer *h) {
  int copy = 0;
  const hl_wrapper *w = h->to ? converted_to(ctx, h, NULL, &copy) : NULL;
  return copy ? w : NULL;
}

int hl_sbo_conversion_site(hl_ctx *ctx, const hl_sbo_site *s, const hl_inst_answer *h, const char *rule,
                           hl_sbo_site *out) {
  int copy = 0;
  const hl_wrapper *w = h->to ? converted_to(ctx, h, rule, &copy) : NULL;
  if (!w || copy) return 0;
  *out = *s;
  out->wrapper = w;
  out->wrapper_spelling = hl_xstrdup(h->to);
  /* std::function<void ()>: the signature the fix's replacement takes. */
  const char *open = strchr(h->to, '<'), *close = strrchr(h->to, '>');
  out->signature = open && close > open + 1 ? hl_xstrndup(open + 1, (size_t)(close - open - 1)) : NULL;
  return 1;
}

/* Whether t is a type parameter of the candidate fn itself (T, const T),
 * which the call deduces from its argument as it is. A parameter of an
 * enclosing class template (void set(Cb) in S<Cb>) is not deduced: the
 * class's instantiation fixes it, and it may be a wrapper. Template
 * parameters are numbered by depth, the outermost class's 0. */
static int deduced_parameter(CXCursor fn, CXType t) {
  if (clang_getCursorKind(fn) != CXCursor_FunctionTemplate) return 0;
  unsigned own = 0;
  for (CXCursor c = clang_getCursorSemanticParent(fn);
       !clang_Cursor_isNull(c) && !clang_isInvalid(clang_getCursorKind(c)); c = clang_getCursorSemanticParent(c)) {
    enum CXCursorKind k = clang_getCursorKind(c);
    if (k == CXCursor_TranslationUnit) break;
    own += k == CXCursor_ClassTemplate || k == CXCursor_ClassTemplatePartialSpecialization;
  }
  char *s = hl_cxstring_take(clang_getTypeSpelling(clang_getCanonicalType(t)));
  const char *p = s;
  while (hl_starts_with(p, "const ") || hl_starts_with(p, "volatile "))
    p += hl_starts_with(p, "const ") ? strlen("const ") : strlen("volatile ");
  unsigned depth, index;
  char end;
  int r = sscanf(p, "type-parameter-%u-%u%c", &depth, &index, &end) == 2 && depth == own;
  free(s);
  return r;
}

/* Whether a dependent type may still be a wrapper in some instantiation: a
 * dependent name (typename X<T>::type, decltype(...)), not a pointer or a
 * specialization of a class template that is no wrapper (ExprLhs<T>; a
 * wrapper's own, std::function<R(A...)>, wrapper_of knows). */
static int unnamed_dependent(CXType t) {
  CXType c = clang_getCanonicalType(t);
  if (c.kind == CXType_Pointer || c.kind == CXType_MemberPointer || c.kind == CXType_LValueReference ||
      c.kind == CXType_RValueReference || c.kind == CXType_FunctionProto)
    return 0;
  return clang_Cursor_isNull(clang_getTypeDeclaration(c)) ||
         clang_getCursorKind(clang_getTypeDeclaration(c)) == CXCursor_NoDeclFound;
}

/* Whether some candidate of the set may convert its argument i (of nargs)
 * to a wrapper in an instantiation, and so wants a conversion probe: its
 * parameter there is a wrapper, or a dependent name that may be one (an
 * enclosing class template's parameter too), not one of its own deduced
 * parameters (T, T &, T &&, const T &), or cannot be read (a
 * variadic function, a pack). A deduced parameter takes the argument as it
 * is: a store the candidate makes of it inside is its own template's site
 * (a conversion probe's answers about its proxy there are dropped anyway);
 * a candidate that cannot take nargs arguments is not viable. */
static int may_convert(hl_ctx *ctx, CXCursor set, int i, int nargs) {
  unsigned n = clang_getNumOverloadedDecls(set);
  for (unsigned k = 0; k < n; k++) {
    CXCursor fn = clang_getOverloadedDecl(set, k);
    CXType fty = clang_getCursorType(fn);
    int np = clang_getNumArgTypes(fty);
    if (np < 0 || clang_isFunctionTypeVariadic(fty)) return 1;
    for (int j = 0; j < np; j++)
      if (clang_getCanonicalType(clang_getArgType(fty, (unsigned)j)).kind == CXType_Unexposed) {
        char *sp = hl_cxstring_take(clang_getTypeSpelling(clang_getArgType(fty, (unsigned)j)));
        int pack = strstr(sp, "...") != NULL;
        free(sp);
        if (pack) return 1;
      }
    if (nargs > np) continue;
    CXType p = hl_unref(clang_getArgType(fty, (unsigned)i));
    if (hl_sbo_wrapper_of(ctx, p)) return 1;
    if (hl_type_is_dependent(p) && !deduced_parameter(fn, p) && unnamed_dependent(p)) return 1;
  }
  return 0;
}

/* Whether the call being visited may be code that runs: not in a
 * declaration at class or namespace scope that is only a type's business
 * (decltype(test<T>(0)) in a static constant, a default template argument,
 * an alias, a static_assert), where nothing is stored. Inside a function
 * (its body, a member initializer, but also its return type's decltype,
 * which the C API does not tell apart) it may. */
static int in_code(hl_ctx *ctx) {
  for (size_t k = 0;; k++) {
    CXCursor a = hl_ctx_ancestor(ctx, k);
    if (clang_Cursor_isNull(a)) return 0;
    enum CXCursorKind ak = clang_getCursorKind(a);
    if (ak == CXCursor_CompoundStmt || ak == CXCursor_FieldDecl || hl_is_function_like(ak)) return 1;
    if (ak == CXCursor_ClassDecl || ak == CXCursor_StructDecl || ak == CXCursor_UnionDecl ||
        ak == CXCursor_ClassTemplate || ak == CXCursor_ClassTemplatePartialSpecialization || ak == CXCursor_Namespace ||
        ak == CXCursor_TranslationUnit || ak == CXCursor_TemplateTypeParameter ||
        ak == CXCursor_NonTypeTemplateParameter || ak == CXCursor_TemplateTemplateParameter ||
        ak == CXCursor_TypeAliasDecl || ak == CXCursor_TypedefDecl || ak == CXCursor_TypeAliasTemplateDecl ||
        ak == CXCursor_StaticAssert)
      return 0;
  }
}

/* take(x) with a dependent x, where every function take names takes a
 * wrapper there (or every member v.push_back/emplace_back names stores into
 * a container of wrappers): the call is resolved only when the template is
 * instantiated, but whatever it resolves to stores x. */
static void template_call(hl_ctx *ctx, sites *out, CXCursor call) {
  CXCursor set = overload_set(call);
  int nargs = clang_Cursor_getNumArguments(call);
  if (clang_Cursor_isNull(set)) {
    size_t before = out->n;
    template_construct(ctx, out, call);
    if (clang_Cursor_isNull(clang_getCursorReferenced(call)))
      template_tuple(ctx, out, call, clang_getCursorType(call), call);
    if (out->n == before && clang_Cursor_isNull(clang_getCursorReferenced(call)) && !names_callee(call))
      template_class_construct(ctx, out, call, clang_getCursorType(call), call);
    dependent_container(ctx, out, call);
    /* pipes.emplace_back(type, f) of a known element class, f dependent. */
    for (int i = 0; out->n == before && i < nargs; i++) {
      CXCursor arg = clang_Cursor_getArgument(call, (unsigned)i);
      CXType wtype = {CXType_Invalid, {0, 0}};
      const hl_wrapper *w = is_dependent(arg) ? hl_sbo_built_wrapper(ctx, call, i, &wtype) : NULL;
      if (w) deferred(ctx, out, call, w, wtype, arg, clang_getNullCursor(), HL_STORE_OTHER);
    }
    /* add_option(name, std::move(fun)) with a dependent fun: one function,
     * named (not a template), whose parameter is a wrapper; the conversion
     * is made per instantiation, so the pattern shows none. */
    CXCursor fn = clang_getCursorReferenced(call);
    for (int i = 0; out->n == before && !clang_Cursor_isNull(fn) && i < nargs; i++) {
      CXCursor arg = clang_Cursor_getArgument(call, (unsigned)i);
      CXType wtype = {CXType_Invalid, {0, 0}};
      const hl_wrapper *w = is_dependent(arg) ? candidate_store(ctx, fn, i, nargs, &wtype) : NULL;
      if (w) deferred(ctx, out, call, w, wtype, arg, clang_getNullCursor(), HL_STORE_OTHER);
    }
    /* o.f(x), p->f(x) with a dependent o or p: resolved per instantiation. */
    if (out->n > before || !names_callee(call) || !clang_Cursor_isNull(clang_getCursorReferenced(call)) ||
        !in_code(ctx))
      return;
    for (int i = 0; i < nargs; i++) {
      CXCursor arg = clang_Cursor_getArgument(call, (unsigned)i);
      if (is_dependent(arg) && clang_getCursorKind(arg) != CXCursor_PackExpansionExpr)
        conversion_site(ctx, out, call, call, arg, NULL);
    }
    return;
  }
  unsigned ncand = clang_getNumOverloadedDecls(set);
  for (int i = 0; i < nargs; i++) {
    CXCursor arg = clang_Cursor_getArgument(call, (unsigned)i);
    if (!is_dependent(arg) || clang_getCursorKind(arg) == CXCursor_PackExpansionExpr) continue;
    const hl_wrapper *w = NULL;
    CXType wtype = {CXType_Invalid, {0, 0}};
    for (unsigned k = 0; k < ncand; k++) {
      const hl_wrapper *cw = candidate_store(ctx, clang_getOverloadedDecl(set, k), i, nargs, &wtype);
      if (!cw || (w && cw != w)) {
        w = NULL;
        break;
      }
      w = cw;
    }
    if (!w) w = hl_sbo_built_wrapper(ctx, call, i, &wtype);
    if (w)
      deferred(ctx, out, call, w, wtype, arg, clang_getNullCursor(), HL_STORE_OTHER);
    else if (!all_std(set) && may_convert(ctx, set, i, nargs) && in_code(ctx))
      conversion_site(ctx, out, call, call, arg, NULL);
  }
}

/* return x; with a dependent x, in a function that returns a wrapper. */
static void template_return(hl_ctx *ctx, sites *out, CXCursor ret) {
  CXCursor value = hl_first_child(ret);
  if (!clang_isExpression(clang_getCursorKind(value)) || !is_dependent(value)) return;
  for (size_t k = 0;; k++) {
    CXCursor fn = hl_ctx_ancestor(ctx, k);
    if (clang_Cursor_isNull(fn)) return;
    enum CXCursorKind fk = clang_getCursorKind(fn);
    if (fk == CXCursor_LambdaExpr) return;
    if (!hl_is_function_like(fk)) continue;
    CXType wtype = clang_getCursorResultType(fn);
    const hl_wrapper *w = hl_sbo_wrapper_of(ctx, wtype);
    if (w) deferred(ctx, out, ret, w, wtype, value, clang_getNullCursor(), HL_STORE_OTHER);
    return;
  }
}

size_t hl_sbo_template_sites(hl_ctx *ctx, CXCursor c, hl_sbo_site **out) {
  sites S = {0};
  enum CXCursorKind k = clang_getCursorKind(c);
  if (k == CXCursor_VarDecl || k == CXCursor_FieldDecl)
    template_init(ctx, &S, c);
  else if (k == CXCursor_BinaryOperator)
    template_assign(ctx, &S, c);
  else if (k == CXCursor_CallExpr)
    template_call(ctx, &S, c);
  else if (k == CXCursor_ReturnStmt)
    template_return(ctx, &S, c);
  else if (k == CXCursor_CXXNewExpr)
    template_new(ctx, &S, c);
  else if (k == CXCursor_Constructor ||
           (k == CXCursor_FunctionTemplate && clang_getTemplateCursorKind(c) == CXCursor_Constructor))
    template_member_inits(ctx, &S, c);
  *out = S.v;
  return S.n;
}
