#include "engine/flow/copies.h"

#include <stdlib.h>
#include <string.h>

#include "engine/ast.h"
#include "engine/flow/flow_impl.h"
#include "engine/loops.h"
#include "util/strv.h"
#include "util/util.h"

static int is_const_lvalue_ref_to(CXType p, CXType cls) {
  CXType c = clang_getCanonicalType(p);
  return c.kind == CXType_LValueReference && clang_isConstQualifiedType(clang_getPointeeType(c)) &&
         hl_same_class(clang_getPointeeType(c), cls);
}

/* Whether the call c moves into a wrapper: its move constructor or move
 * assignment, from std::move(x) (or std::forward). Sets *kind
 * (HL_FLOW_CONSTRUCT or HL_FLOW_ASSIGN) and *src (x). */
int hl_flow_move_call(const hl_ctx *ctx, CXCursor c, hl_flow_copy_kind *kind, CXCursor *src) {
  CXCursor fn = clang_getCursorReferenced(c);
  enum CXCursorKind fk = clang_getCursorKind(fn);
  CXType fty = clang_getCursorType(fn);
  int nargs = clang_Cursor_getNumArguments(c);
  if ((fk != CXCursor_Constructor && fk != CXCursor_CXXMethod) || nargs < 1 || clang_getNumArgTypes(fty) != 1 ||
      hl_is_function_template_specialization(fn))
    return 0;
  CXCursor cls = clang_getCursorSemanticParent(fn);
  CXType p = clang_getCanonicalType(clang_getArgType(fty, 0));
  if (!hl_ctx_wrapper_of_decl(ctx, cls) || p.kind != CXType_RValueReference ||
      clang_isConstQualifiedType(clang_getPointeeType(p)) ||
      !hl_same_class(clang_getPointeeType(p), clang_getCursorType(cls)))
    return 0;
  char *name = hl_cxstring_take(clang_getCursorSpelling(fn));
  int assign = !strcmp(name, "operator=");
  free(name);
  if (fk == CXCursor_CXXMethod && !assign) return 0;
  *kind = assign ? HL_FLOW_ASSIGN : HL_FLOW_CONSTRUCT;
  CXCursor e = hl_strip(clang_Cursor_getArgument(c, (unsigned)nargs - 1));
  if (clang_getCursorKind(e) != CXCursor_CallExpr || clang_Cursor_getNumArguments(e) != 1) return 0;
  char *callee = hl_decl_name(clang_getCursorReferenced(e));
  int moves = !strcmp(callee, "std::move") || !strcmp(callee, "std::forward");
  free(callee);
  if (moves) *src = clang_Cursor_getArgument(e, 0);
  return moves;
}

static const char *const container_copiers[] = {"push_back",    "push_front",    "insert",
                                                "emplace_back", "emplace_front", "emplace"};

/* Whether the call c copies a wrapper: its copy constructor or copy
 * assignment, or a standard container's member copying an lvalue into a new
 * element. Sets *kind and *src (the copied expression). */
const hl_wrapper *hl_flow_copy_call(const hl_ctx *ctx, CXCursor c, hl_flow_copy_kind *kind, CXCursor *src) {
  CXCursor fn = clang_getCursorReferenced(c);
  enum CXCursorKind fk = clang_getCursorKind(fn);
  if (fk != CXCursor_Constructor && fk != CXCursor_CXXMethod) return NULL;
  int nargs = clang_Cursor_getNumArguments(c);
  CXType fty = clang_getCursorType(fn);
  if (nargs < 1 || clang_getNumArgTypes(fty) < 1) return NULL;
  CXCursor cls = clang_getCursorSemanticParent(fn);
  CXType last = clang_getArgType(fty, (unsigned)clang_getNumArgTypes(fty) - 1);
  const hl_wrapper *w = hl_ctx_wrapper_of_decl(ctx, cls);
  if (w) {
    if (hl_is_function_template_specialization(fn) || clang_getNumArgTypes(fty) != 1 ||
        !is_const_lvalue_ref_to(last, clang_getCursorType(cls)))
      return NULL;
    char *name = hl_cxstring_take(clang_getCursorSpelling(fn));
    int assign = !strcmp(name, "operator=");
    free(name);
    if (fk == CXCursor_CXXMethod && !assign) return NULL;
    *kind = assign ? HL_FLOW_ASSIGN : HL_FLOW_CONSTRUCT;
    *src = clang_Cursor_getArgument(c, (unsigned)nargs - 1);
    return w;
  }
  if (fk != CXCursor_CXXMethod) return NULL;
  char *name = hl_cxstring_take(clang_getCursorSpelling(fn));
  int copier = 0;
  for (size_t i = 0; i < sizeof container_copiers / sizeof *container_copiers; i++)
    copier |= !strcmp(name, container_copiers[i]);
  free(name);
  char *tname = hl_template_name(clang_getCursorType(cls));
  int standard = hl_starts_with(tname, "std::");
  free(tname);
  /* The element built from an lvalue (const T& or, through a forwarding
   * reference, T&) of the element's own class is a copy. */
  CXType lc = clang_getCanonicalType(last);
  if (!copier || !standard || lc.kind != CXType_LValueReference) return NULL;
  CXType elem = clang_getPointeeType(lc);
  w = hl_ctx_wrapper_of_type(ctx, elem);
  if (!w || !hl_same_class(clang_Type_getTemplateArgumentAsType(clang_getCursorType(cls), 0), elem)) return NULL;
  *kind = HL_FLOW_CONTAINER;
  *src = clang_Cursor_getArgument(c, (unsigned)nargs - 1);
  return w;
}

static unsigned offset_of(CXSourceLocation l) {
  unsigned off;
  clang_getFileLocation(l, NULL, NULL, NULL, &off);
  return off;
}

/* The statement holding the cursor being visited, when it sits directly in
 * the block that declares d (for a parameter: its function's body), with
 * no loop or lambda in between (for a capture, the lambda's creation
 * counts); else a null cursor. */
static CXCursor straight_stmt(const hl_ctx *ctx, CXCursor self, CXCursor d, int capture) {
  CXCursor below = self;
  for (size_t k = 0; !clang_Cursor_isNull(hl_ctx_ancestor(ctx, k)); k++) {
    CXCursor a = hl_ctx_ancestor(ctx, k);
    enum CXCursorKind ak = clang_getCursorKind(a);
    if (capture && ak == CXCursor_LambdaExpr) {
      /* A capture is made where the lambda is created. */
      capture = 0;
      below = a;
      continue;
    }
    if (ak == CXCursor_ForStmt || ak == CXCursor_WhileStmt || ak == CXCursor_DoStmt || ak == CXCursor_CXXForRangeStmt ||
        ak == CXCursor_LambdaExpr || hl_is_function_like(ak))
      return clang_getNullCursor();
    if (ak != CXCursor_CompoundStmt) {
      below = a;
      continue;
    }
    if (clang_getCursorKind(d) == CXCursor_ParmDecl) {
      CXCursor fn = hl_ctx_ancestor(ctx, k + 1);
      return hl_is_function_like(clang_getCursorKind(fn)) && clang_getCursorKind(fn) != CXCursor_LambdaExpr &&
                     clang_equalCursors(clang_getCanonicalCursor(fn),
                                        clang_getCanonicalCursor(clang_getCursorSemanticParent(d)))
                 ? below
                 : clang_getNullCursor();
    }
    /* d is declared in this block: a block nested in it would hide d from
     * the copy, one around it is outside its extent. */
    unsigned at = offset_of(clang_getCursorLocation(d));
    CXSourceRange r = clang_getCursorExtent(a);
    if (at < offset_of(clang_getRangeStart(r)) || at > offset_of(clang_getRangeEnd(r))) return clang_getNullCursor();
    return below;
  }
  return clang_getNullCursor();
}

typedef struct capture_find {
  CXCursor d;
  int found;
} capture_find;

static enum CXChildVisitResult by_copy(CXCursor c, CXCursor parent, CXClientData data) {
  (void)parent;
  capture_find *F = data;
  CXCursor e = hl_strip(c);
  if (clang_getCursorKind(e) == CXCursor_DeclRefExpr &&
      clang_equalCursors(clang_getCanonicalCursor(clang_getCursorReferenced(e)), F->d))
    F->found = 1;
  return F->found ? CXChildVisit_Break : CXChildVisit_Continue;
}

/* Whether the lambda captures d by copy: each capture by copy ([x], [y = x],
 * or what [=] takes) is an expression among its children. */
static int captures_by_copy(CXCursor lambda, CXCursor d) {
  capture_find F = {clang_getCanonicalCursor(d), 0};
  clang_visitChildren(lambda, by_copy, &F);
  return F.found;
}

/* How the reference being visited reaches d: directly (0); from the body
 * of a lambda holding d by reference (1), a closure that may run after any
 * later statement; or only from bodies of lambdas holding their own copy of
 * d (2), which do not read d itself. A capture's own expression belongs to
 * the scope that creates the lambda. */
static int lambda_access(const hl_ctx *ctx, CXCursor self, CXCursor d) {
  unsigned at = offset_of(clang_getCursorLocation(d));
  size_t top = 0;
  CXCursor capturing = hl_ctx_opaque_ancestor(ctx, &top, self, NULL);
  int r = 0;
  for (size_t k = 0; !clang_Cursor_isNull(hl_ctx_ancestor(ctx, k)); k++) {
    CXCursor a = hl_ctx_ancestor(ctx, k);
    if (clang_getCursorKind(a) != CXCursor_LambdaExpr || (k == top && clang_equalCursors(a, capturing))) continue;
    CXSourceRange rg = clang_getCursorExtent(a);
    if (at >= offset_of(clang_getRangeStart(rg)) && at <= offset_of(clang_getRangeEnd(rg))) continue;
    if (!captures_by_copy(a, d)) return 1;
    r = 2;
  }
  return r;
}

/* [x] (1), [y = x] (2), or an implicit capture by [=] (0): read off the
 * tokens around the copied name. */
static int capture_form(const hl_ctx *ctx, CXCursor ref) {
  CXSourceRange r = clang_getCursorExtent(ref);
  CXToken *toks = NULL;
  unsigned n = 0;
  clang_tokenize(hl_ctx_tu(ctx), r, &toks, &n);
  int form = 0;
  if (n == 1) {
    char *name = hl_cxstring_take(clang_getCursorSpelling(clang_getCursorReferenced(ref)));
    char *t = hl_cxstring_take(clang_getTokenSpelling(hl_ctx_tu(ctx), toks[0]));
    if (!strcmp(name, t)) {
      /* The token before it: '[' or ',' starts a simple capture, '=' ends
       * an init-capture's name. */
      CXFile file;
      unsigned off;
      clang_getFileLocation(clang_getRangeStart(r), &file, NULL, NULL, &off);
      size_t size;
      const char *text = clang_getFileContents(hl_ctx_tu(ctx), file, &size);
      while (text && off > 0 && (text[off - 1] == ' ' || text[off - 1] == '\t' || text[off - 1] == '\n')) off--;
      if (text && off > 0) form = text[off - 1] == '=' ? 2 : (text[off - 1] == '[' || text[off - 1] == ',') ? 1 : 0;
    }
    free(name);
    free(t);
  }
  clang_disposeTokens(hl_ctx_tu(ctx), toks, n);
  return form;
}

void hl_flow_add_copy(hl_ctx *ctx, hl_flow *F, hl_flow_copy_kind kind, const hl_wrapper *w, CXCursor at,
                      CXCursor src_ref, int from, int in_loop) {
  if (!w) return;
  hl_flow_copy c;
  memset(&c, 0, sizeof c);
  c.kind = kind;
  c.from = from;
  c.src = src_ref;
  c.in_loop = in_loop;
  if (hl_ctx_loc(ctx, clang_getCursorLocation(src_ref), &c.loc)) return;
  char *canon = hl_type_spelling(clang_getCanonicalType(hl_unref(clang_getCursorType(src_ref))));
  const char *args = strchr(canon, '<');
  c.wrapper_spelling = hl_xasprintf("%s%s", w->name, args ? args : "");
  free(canon);
  CXSourceRange r = clang_getCursorExtent(src_ref);
  c.begin = offset_of(clang_getRangeStart(r));
  c.end = offset_of(clang_getRangeEnd(r));
  CXCursor d = F->decls[from].cursor;
  c.stmt = clang_getCursorKind(d) == CXCursor_FieldDecl ? clang_getNullCursor()
                                                        : straight_stmt(ctx, at, d, kind == HL_FLOW_CAPTURE);
  if (kind == HL_FLOW_CAPTURE) c.capture_form = capture_form(ctx, src_ref);
  c.callee = clang_getNullCursor();
  if (kind == HL_FLOW_CONSTRUCT) {
    /* A by-value argument: the callee might take a const reference instead. */
    size_t k = 0;
    CXCursor below;
    CXCursor call = hl_ctx_opaque_ancestor(ctx, &k, at, &below);
    int n = clang_getCursorKind(call) == CXCursor_CallExpr ? clang_Cursor_getNumArguments(call) : 0;
    for (int i = 0; i < n; i++)
      if (clang_equalCursors(clang_Cursor_getArgument(call, (unsigned)i), below)) {
        c.callee = clang_getCanonicalCursor(clang_getCursorReferenced(call));
        c.param = i;
      }
  }
  HL_PUSH(F->copies, F->ncopies, F->capcopies, c);
}

/* Whether the lambda around the capture being visited is created in a loop
 * body (its own body runs when it is called, not per iteration). */
int hl_flow_lambda_in_loop(const hl_ctx *ctx) {
  for (size_t k = 0;; k++) {
    CXCursor a = hl_ctx_ancestor(ctx, k);
    if (clang_Cursor_isNull(a)) return 0;
    if (clang_getCursorKind(a) == CXCursor_LambdaExpr) return !clang_Cursor_isNull(hl_loop_above(ctx, k + 1, a));
  }
}

/* A reference to a tracked declaration that is not a copy or an assigned
 * left-hand side: harmless when it only reads (the wrapper called or
 * tested, a const member, bound to a const reference parameter); anything
 * else may change or empty the target, and taints it. */
int hl_flow_only_reads(const hl_ctx *ctx, CXCursor ref) {
  size_t k = 0;
  CXCursor below;
  CXCursor a = hl_ctx_opaque_ancestor(ctx, &k, ref, &below);
  enum CXCursorKind ak = clang_getCursorKind(a);
  if (ak == CXCursor_MemberRefExpr || ak == CXCursor_CallExpr) {
    CXCursor fn = clang_getCursorReferenced(a);
    enum CXCursorKind fk = clang_getCursorKind(fn);
    if (fk == CXCursor_CXXMethod || fk == CXCursor_ConversionFunction) {
      /* The object of a member call: a.f(), a(), if (a). */
      int object = ak == CXCursor_MemberRefExpr || clang_equalCursors(hl_first_child(a), below);
      if (object && hl_ctx_wrapper_of_decl(ctx, clang_getCursorSemanticParent(fn))) return clang_CXXMethod_isConst(fn);
    }
    if (ak == CXCursor_CallExpr) {
      CXType fty = clang_getCursorType(fn);
      int n = clang_Cursor_getNumArguments(a), np = clang_getNumArgTypes(fty);
      for (int i = 0; i < n && i < np; i++)
        if (clang_equalCursors(clang_Cursor_getArgument(a, (unsigned)i), below))
          return is_const_lvalue_ref_to(clang_getArgType(fty, (unsigned)i), clang_getCursorType(ref));
    }
  }
  return 0;
}

/* The copy is the variable's last use, in straight-line code: nothing
 * refers to it later, nor elsewhere in the copy's statement, nor from a
 * lambda (which may run later). Then std::move loses nothing. */
int hl_flow_last_use(const hl_flow *F, const hl_flow_copy *c) {
  if (clang_Cursor_isNull(c->stmt) || (c->kind == HL_FLOW_CAPTURE && c->capture_form == 0)) return 0;
  CXCursor d = F->decls[c->from].cursor;
  if (clang_isConstQualifiedType(clang_getCursorType(d)) || hl_is_ref(clang_getCursorType(d))) return 0;
  unsigned stmt_begin = offset_of(clang_getRangeStart(clang_getCursorExtent(c->stmt)));
  for (size_t i = 0; i < F->nrefs; i++) {
    const flow_ref *r = &F->refs[i];
    if (r->decl != c->from || clang_equalCursors(r->src, c->src)) continue;
    if (r->in_lambda == 1 || (r->in_lambda == 0 && r->offset >= stmt_begin)) return 0;
  }
  return 1;
}

/* The callee of a by-value argument, when it only reads the parameter
 * (calls it, tests it, reads it through const members and const
 * references): a const reference would do, and no copy would be made.
 * Returns its definition's parameter, or a null cursor. */
CXCursor hl_flow_read_only_param(const hl_flow *F, const hl_flow_copy *c) {
  CXCursor none = clang_getNullCursor();
  if (clang_Cursor_isNull(c->callee)) return none;
  CXCursor def = clang_getCursorDefinition(c->callee);
  enum CXCursorKind k = clang_getCursorKind(def);
  if (k != CXCursor_FunctionDecl && k != CXCursor_CXXMethod && k != CXCursor_Constructor) return none;
  if (hl_is_function_template_specialization(def) || (k == CXCursor_CXXMethod && clang_CXXMethod_isVirtual(def)))
    return none;
  if (c->param >= clang_Cursor_getNumArguments(def)) return none;
  CXCursor p = clang_getCanonicalCursor(clang_Cursor_getArgument(def, (unsigned)c->param));
  for (size_t i = 0; i < F->ndecls; i++)
    if (clang_equalCursors(F->decls[i].cursor, p) && F->decls[i].not_only_read) return none;
  return p;
}

hl_flow_param_block hl_flow_param_blocked(const hl_flow *F, const hl_flow_copy *c) {
  for (size_t i = 0; i < F->nescaped; i++)
    if (clang_equalCursors(F->escaped[i], c->callee)) return HL_FLOW_PARAM_ESCAPED;
  for (size_t i = 0; i < F->nfunctions; i++) {
    CXCursor f = F->functions[i];
    if (!clang_equalCursors(clang_getCanonicalCursor(f), c->callee)) continue;
    CXCursor p = clang_Cursor_getArgument(f, (unsigned)c->param);
    char *name = hl_cxstring_take(clang_getCursorSpelling(p));
    int unnamed = !name[0];
    free(name);
    if (unnamed) return HL_FLOW_PARAM_UNNAMED;
    if (clang_Location_isInSystemHeader(clang_getCursorLocation(f))) return HL_FLOW_PARAM_IN_SYSTEM;
  }
  return HL_FLOW_PARAM_FREE;
}

void hl_flow_add_ref(const hl_ctx *ctx, hl_flow *F, int decl, CXCursor ref) {
  CXCursor d = clang_getCursorReferenced(ref);
  flow_ref r = {decl, offset_of(clang_getCursorLocation(ref)), lambda_access(ctx, ref, d), ref};
  HL_PUSH(F->refs, F->nrefs, F->caprefs, r);
}

const hl_flow_copy *hl_flow_copies(const hl_flow *F, size_t *n) {
  *n = F->ncopies;
  return F->copies;
}

size_t hl_flow_param_decls(const hl_flow *F, CXCursor callee, int param, CXCursor **out) {
  size_t n = 0, cap = 0;
  *out = NULL;
  for (size_t i = 0; i < F->nfunctions; i++)
    if (clang_equalCursors(clang_getCanonicalCursor(F->functions[i]), callee))
      HL_PUSH(*out, n, cap, clang_Cursor_getArgument(F->functions[i], (unsigned)param));
  return n;
}
