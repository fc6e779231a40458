#include "engine/ast.h"
#include "rules/sbo/sbo.h"

#include <stdlib.h>
#include <string.h>

#include "util/util.h"
#include "rules/lib/rewrite.h"
#include "rules/lib/uses.h"

struct hl_sbo {
  const char *rule;
  const hl_sbo_wording *wording;
  hl_sbo_site *sites;
  size_t n, cap;
  hl_retype *retype;
};

/* ---- small AST helpers ---- */

/* "std::function<void ()>": the profile's name for the wrapper and its
 * template arguments as the compiler spells them, without the library's
 * inline namespaces (std::__1) or the typedefs it returns through. */
static char *wrapper_display(const hl_wrapper *w, CXType wtype) {
  char *canon = hl_type_spelling(clang_getCanonicalType(hl_unref(wtype)));
  const char *last = strrchr(w->name, ':');
  last = last ? last + 1 : w->name;
  size_t n = strlen(last);
  const char *args = "";
  for (const char *p = canon; (p = strstr(p, last)); p++)
    if ((p == canon || p[-1] == ':') && (p[n] == '<' || p[n] == '\0')) {
      args = p + n;
      break;
    }
  char *r = hl_xasprintf("%s%s", w->name, args);
  free(canon);
  return r;
}

/* Qualified name of the class template a type instantiates, or of the class. */
static char *class_name(CXType t) {
  CXCursor d = clang_getTypeDeclaration(clang_getCanonicalType(hl_unref(t)));
  if (clang_Cursor_isNull(d)) return hl_xstrdup("");
  CXCursor tmpl = clang_getSpecializedCursorTemplate(d);
  return hl_decl_name(clang_Cursor_isNull(tmpl) ? d : tmpl);
}

/* The same type but for references and cv-qualifiers. */
static int same_type(CXType a, CXType b) {
  char *x = hl_type_spelling(clang_getCanonicalType(hl_unref(a)));
  char *y = hl_type_spelling(clang_getCanonicalType(hl_unref(b)));
  const char *px = hl_starts_with(x, "const ") ? x + 6 : x, *py = hl_starts_with(y, "const ") ? y + 6 : y;
  int r = !strcmp(px, py);
  free(x);
  free(y);
  return r;
}

static int name_in(const char *name, char *const *list, size_t n) {
  for (size_t i = 0; i < n; i++)
    if (!strcmp(name, list[i])) return 1;
  return 0;
}

/* Through implicit conversions, parentheses and copies to the expression
 * that made the value: a lambda, a call (std::bind, std::ref), a variable. */
static void origin(CXCursor e, CXCursor *lambda, CXCursor *callee) {
  *lambda = clang_getNullCursor();
  *callee = clang_getNullCursor();
  for (int depth = 0; depth < 16 && !clang_Cursor_isNull(e); depth++) {
    enum CXCursorKind k = clang_getCursorKind(e);
    if (k == CXCursor_LambdaExpr) {
      *lambda = e;
      return;
    }
    if (k == CXCursor_UnexposedExpr || k == CXCursor_ParenExpr) {
      e = hl_first_child(e);
      continue;
    }
    if (k == CXCursor_CallExpr) {
      CXCursor fn = clang_getCursorReferenced(e);
      if (clang_getCursorKind(fn) == CXCursor_Constructor && clang_Cursor_getNumArguments(e) == 1) {
        e = clang_Cursor_getArgument(e, 0); /* a copy or move of the value */
        continue;
      }
      *callee = fn;
      return;
    }
    if (k == CXCursor_DeclRefExpr) {
      /* auto cb = [..]{..}; std::function<void()> f = cb; */
      CXCursor var = clang_getCursorReferenced(e);
      if (clang_getCursorKind(var) != CXCursor_VarDecl) return;
      e = hl_last_child(var);
      if (clang_getCursorKind(e) == CXCursor_TypeRef || clang_getCursorKind(e) == CXCursor_NamespaceRef) return;
      continue;
    }
    return;
  }
}

/* ---- finding the stores ---- */

static const char *const sequence_containers[] = {"std::vector", "std::deque", "std::list"};
static const char *const map_containers[] = {"std::map", "std::multimap", "std::unordered_map",
                                             "std::unordered_multimap"};

static int in_list(const char *s, const char *const *v, size_t n) {
  for (size_t i = 0; i < n; i++)
    if (!strcmp(s, v[i])) return 1;
  return 0;
}

static int is_pair(CXType t) {
  CXType c = clang_getCanonicalType(hl_unref(t));
  char *name = class_name(c);
  int r = !strcmp(name, "std::pair") && clang_Type_getNumTemplateArguments(c) == 2;
  free(name);
  return r;
}

/* A standard container's member that builds a wrapper element (or mapped
 * value) inside the library from the one value it is given: returns the
 * wrapper, its type and the type of the value it is built from. */
static const hl_wrapper *container_store(const hl_ctx *ctx, CXCursor fn, CXType *wtype, CXType *stored) {
  static const char *const emplacers[] = {"emplace_back", "emplace_front", "emplace",       "emplace_after",
                                          "emplace_hint", "try_emplace",   "insert_or_assign", "insert"};
  char *name = hl_cx(clang_getCursorSpelling(fn));
  const hl_wrapper *w = NULL;
  if (!in_list(name, emplacers, sizeof emplacers / sizeof *emplacers)) goto out;
  CXType fty = clang_getCursorType(fn);
  CXType ct = clang_getCursorType(clang_getCursorSemanticParent(fn));
  char *cname = class_name(ct);
  int np = clang_getNumArgTypes(fty);
  int map = in_list(cname, map_containers, 4);
  CXType last = np > 0 ? clang_getArgType(fty, (unsigned)(np - 1)) : (CXType){CXType_Invalid, {0, 0}};
  if (!map && hl_starts_with(cname, "std::") && strcmp(name, "insert")) {
    /* A position comes first for emplace_after/_hint and a sequence's emplace. */
    int positional = !strcmp(name, "emplace_after") || !strcmp(name, "emplace_hint") ||
                     (!strcmp(name, "emplace") && in_list(cname, sequence_containers, 3));
    if (np == 1 + positional) {
      *wtype = clang_Type_getTemplateArgumentAsType(ct, 0);
      *stored = last;
      w = hl_ctx_wrapper_of_type(ctx, *wtype);
    }
  } else if (map && (!strcmp(name, "insert") || !strcmp(name, "emplace") || !strcmp(name, "emplace_hint")) &&
             np >= 1 && np <= 2 && is_pair(last)) {
    /* One pair (after a hint) whose second member becomes the mapped value:
     * m.insert(std::make_pair(k, f)), m.emplace(p). */
    *wtype = clang_Type_getTemplateArgumentAsType(ct, 1);
    *stored = clang_Type_getTemplateArgumentAsType(clang_getCanonicalType(hl_unref(last)), 1);
    w = hl_ctx_wrapper_of_type(ctx, *wtype);
  } else if (map && strcmp(name, "insert") && strcmp(name, "emplace_back") && strcmp(name, "emplace_front")) {
    /* key, value (after a hint for emplace_hint and the hinted overloads). */
    int hinted = !strcmp(name, "emplace_hint") ||
                 ((!strcmp(name, "try_emplace") || !strcmp(name, "insert_or_assign")) && np == 3);
    if (np == 2 + hinted) {
      char *p0 = class_name(clang_getArgType(fty, 0));
      if (strcmp(p0, "std::piecewise_construct_t")) {
        *wtype = clang_Type_getTemplateArgumentAsType(ct, 1);
        *stored = last;
        w = hl_ctx_wrapper_of_type(ctx, *wtype);
      }
      free(p0);
    }
  }
  free(cname);
out:
  free(name);
  return w;
}

/* "void ()" -> "void()": how people write a signature. */
static char *signature_of(CXType wtype) {
  CXType canon = clang_getCanonicalType(hl_unref(wtype));
  if (clang_Type_getNumTemplateArguments(canon) < 1) return NULL;
  CXType sig = clang_Type_getTemplateArgumentAsType(canon, 0);
  if (sig.kind != CXType_FunctionProto && sig.kind != CXType_FunctionNoProto) return NULL;
  char *s = hl_type_spelling(sig);
  char *p = strstr(s, " (");
  if (p) memmove(p, p + 1, strlen(p + 1) + 1);
  return s;
}

/* Of the spellings of one type — the argument's own (std::string), the
 * library's deduced parameter (std::basic_string<char>), the canonical one —
 * the shortest reads best: library typedefs ("typename _Bind_helper<...>::
 * type") are long, the code's own names are short. */
static CXType readable(CXType stored, CXCursor expr) {
  CXType cands[3] = {stored, clang_getCanonicalType(hl_unref(stored)), stored};
  size_t n = 2;
  if (!clang_Cursor_isNull(expr) && same_type(clang_getCursorType(expr), stored)) cands[n++] = clang_getCursorType(expr);
  CXType best = stored;
  size_t best_len = (size_t)-1;
  for (size_t i = 0; i < n; i++) {
    char *sp = hl_type_spelling(hl_unref(cands[i]));
    if (strlen(sp) < best_len) {
      best_len = strlen(sp);
      best = cands[i];
    }
    free(sp);
  }
  return best;
}

/* Fills s for a store of a value of type stored (made by expr, or at the
 * call at) into a wrapper w of type wtype. Returns 0 when nothing new is
 * stored: copies and moves of the wrapper itself, nullptr. */
static int fill_site(hl_ctx *ctx, hl_sbo_site *s, CXCursor visited, const hl_wrapper *w, CXType wtype, CXType stored,
                     CXCursor expr, CXCursor at) {
  if (stored.kind == CXType_Invalid) return 0;
  CXType canon = clang_getCanonicalType(hl_unref(stored));
  if (canon.kind == CXType_NullPtr || hl_same_class(stored, wtype)) return 0;
  memset(s, 0, sizeof *s);
  s->wrapper = w;
  s->call = clang_getNullCursor();
  s->store_kind = HL_STORE_OTHER;
  s->target = -1;
  s->probe = -1;
  s->stored = hl_type_stored(readable(stored, expr), &s->decays);
  s->expr = expr;
  origin(expr, &s->lambda, &s->callee);
  if (hl_ctx_loc(ctx, clang_getCursorLocation(clang_Cursor_isNull(expr) ? at : expr), &s->loc)) return 0;
  s->wrapper_spelling = wrapper_display(w, wtype);
  s->signature = signature_of(wtype);
  s->in_loop = !clang_Cursor_isNull(hl_loop_around(ctx, visited));
  return 1;
}

static int match(hl_ctx *ctx, CXCursor c, hl_sbo_site *s) {
  if (clang_getCursorKind(c) != CXCursor_CallExpr) return 0;
  CXCursor fn = clang_getCursorReferenced(c);
  enum CXCursorKind fk = clang_getCursorKind(fn);
  if (fk != CXCursor_Constructor && fk != CXCursor_CXXMethod && fk != CXCursor_FunctionDecl) return 0;
  CXType fty = clang_getCursorType(fn);
  int np = clang_getNumArgTypes(fty), nargs = clang_Cursor_getNumArguments(c);
  const hl_wrapper *w = NULL;
  CXType wtype = {0}, stored = {0};
  CXCursor expr = clang_getNullCursor(), at = c;
  hl_store_kind kind = HL_STORE_OTHER;

  if (fk == CXCursor_FunctionDecl) {
    if (!hl_is_function_template_specialization(fn) || clang_Cursor_getNumTemplateArguments(fn) < 1) return 0;
    char *name = hl_decl_name(fn);
    for (size_t i = 0; i < ctx->nwrappers && !w; i++)
      if (name_in(name, ctx->wrappers[i]->factories, ctx->wrappers[i]->nfactories)) w = ctx->wrappers[i];
    free(name);
    if (!w) return 0;
    stored = clang_Cursor_getTemplateArgumentType(fn, 0);
    wtype = clang_getCursorType(c);
    kind = HL_STORE_OTHER;
  } else if ((w = hl_ctx_wrapper_of_decl(ctx, clang_getCursorSemanticParent(fn)))) {
    if (!hl_is_function_template_specialization(fn) || np < (fk == CXCursor_Constructor ? 1 : 0)) return 0;
    char *name = hl_cx(clang_getCursorSpelling(fn));
    int ok = 1;
    if (fk == CXCursor_Constructor) {
      CXType p0 = clang_getArgType(fty, 0);
      char *p0name = class_name(p0);
      if (!strcmp(p0name, "std::in_place_type_t")) {
        stored = clang_Type_getTemplateArgumentAsType(clang_getCanonicalType(hl_unref(p0)), 0);
      } else {
        stored = p0;
        if (nargs >= 1) expr = clang_Cursor_getArgument(c, 0);
      }
      free(p0name);
      wtype = clang_getCursorType(c);
      kind = HL_STORE_CONSTRUCT;
    } else if (!strcmp(name, "operator=") && np == 1) {
      kind = HL_STORE_ASSIGN;
      stored = clang_getArgType(fty, 0);
      if (nargs >= 1) expr = clang_Cursor_getArgument(c, (unsigned)(nargs - 1));
      wtype = nargs >= 2 ? clang_getCursorType(clang_Cursor_getArgument(c, 0))
                         : clang_getCursorType(clang_getCursorSemanticParent(fn));
    } else if (name_in(name, w->emplacers, w->nemplacers)) {
      kind = HL_STORE_OTHER;
      stored = hl_unref(clang_getResultType(fty));
      wtype = clang_getCursorType(clang_getCursorSemanticParent(fn));
      CXCursor callee = hl_first_child(c);
      if (!clang_Cursor_isNull(callee)) at = callee;
    } else {
      ok = 0;
    }
    free(name);
    if (!ok) return 0;
  } else if (fk == CXCursor_CXXMethod && hl_is_function_template_specialization(fn) &&
             (w = container_store(ctx, fn, &wtype, &stored))) {
    kind = HL_STORE_CONTAINER;
    if (nargs >= 1) expr = clang_Cursor_getArgument(c, (unsigned)(nargs - 1));
  } else {
    return 0;
  }

  if (!fill_site(ctx, s, c, w, wtype, stored, expr, at)) return 0;
  s->call = c;
  s->store_kind = kind;
  return 1;
}

/* ---- stores through brace initialization of arrays and aggregates ---- */

typedef struct cursors {
  CXCursor *v;
  size_t n, cap;
} cursors;

static enum CXChildVisitResult list_child(CXCursor c, CXCursor parent, CXClientData d) {
  (void)parent;
  cursors *C = d;
  HL_PUSH(C->v, C->n, C->cap, c);
  return CXChildVisit_Continue;
}

typedef struct field_types {
  CXType *v;
  size_t n, cap;
} field_types;

static enum CXVisitorResult list_field_type(CXCursor f, CXClientData d) {
  field_types *F = d;
  HL_PUSH(F->v, F->n, F->cap, clang_getCursorType(f));
  return CXVisit_Continue;
}

static enum CXChildVisitResult find_base(CXCursor c, CXCursor parent, CXClientData d) {
  (void)parent;
  if (clang_getCursorKind(c) != CXCursor_CXXBaseSpecifier) return CXChildVisit_Continue;
  *(int *)d = 1;
  return CXChildVisit_Break;
}

/* libclang shows an init list in its written form: the elements before
 * their conversion to the array's element type or the aggregate's field
 * types. Each element that becomes a wrapper is a store. */
static size_t init_list_sites(hl_ctx *ctx, CXCursor list, hl_sbo_site **out) {
  CXType t = clang_getCanonicalType(clang_getCursorType(list));
  cursors C = {0};
  clang_visitChildren(list, list_child, &C);
  field_types F = {0};
  if (t.kind == CXType_ConstantArray || t.kind == CXType_IncompleteArray) {
    for (size_t i = 0; i < C.n; i++) HL_PUSH(F.v, F.n, F.cap, clang_getArrayElementType(t));
  } else if (t.kind == CXType_Record && hl_ctx_wrapper_of_type(ctx, t)) {
    if (C.n == 1) HL_PUSH(F.v, F.n, F.cap, t);
  } else if (t.kind == CXType_Record) {
    /* Aggregates with bases take the bases' initializers first: those are
     * not paired with fields here, rather than paired wrongly. */
    int has_base = 0;
    clang_visitChildren(clang_getTypeDeclaration(t), find_base, &has_base);
    if (!has_base) clang_Type_visitFields(t, list_field_type, &F);
  }
  size_t n = 0, cap = 0;
  *out = NULL;
  for (size_t i = 0; i < C.n && i < F.n; i++) {
    const hl_wrapper *w = hl_ctx_wrapper_of_type(ctx, F.v[i]);
    /* A nested braced list is its own cursor, judged when visited. */
    if (!w || clang_getCursorKind(C.v[i]) == CXCursor_InitListExpr) continue;
    hl_sbo_site s;
    if (fill_site(ctx, &s, list, w, F.v[i], clang_getCursorType(C.v[i]), C.v[i], C.v[i])) HL_PUSH(*out, n, cap, s);
  }
  free(C.v);
  free(F.v);
  return n;
}

/* ---- stores through std::pair, std::tuple and std::optional ---- */

static const char *const tuple_likes[] = {"std::pair", "std::tuple", "std::optional"};

/* A forwarding constructor of a pair, tuple or optional whose element is a
 * wrapper builds that wrapper inside the library, from the matching
 * argument — or from the matching element of a pair or tuple argument:
 * m.insert({1, f}), std::tuple<int, std::function<void()>> t{1, f}. */
static size_t tuple_sites(hl_ctx *ctx, CXCursor c, hl_sbo_site **out) {
  *out = NULL;
  CXCursor fn = clang_getCursorReferenced(c);
  if (clang_getCursorKind(fn) != CXCursor_Constructor || !hl_is_function_template_specialization(fn)) return 0;
  CXType ct = clang_getCanonicalType(clang_getCursorType(clang_getCursorSemanticParent(fn)));
  char *cname = class_name(ct);
  int known = in_list(cname, tuple_likes, 3);
  free(cname);
  if (!known) return 0;
  int nelem = clang_Type_getNumTemplateArguments(ct);
  CXType fty = clang_getCursorType(fn);
  int np = clang_getNumArgTypes(fty), nargs = clang_Cursor_getNumArguments(c);
  if (nelem <= 0 || np <= 0) return 0;
  CXType p0 = clang_getCanonicalType(hl_unref(clang_getArgType(fty, 0)));
  char *p0name = class_name(p0);
  int tagged = !strcmp(p0name, "std::piecewise_construct_t") || !strcmp(p0name, "std::allocator_arg_t") ||
               !strcmp(p0name, "std::in_place_t");
  int from_tuple = np == 1 && in_list(p0name, tuple_likes, 3) && clang_Type_getNumTemplateArguments(p0) == nelem;
  free(p0name);
  if (tagged || (np != nelem && !from_tuple)) return 0;
  size_t n = 0, cap = 0;
  for (int i = 0; i < nelem; i++) {
    CXType elem = clang_Type_getTemplateArgumentAsType(ct, (unsigned)i);
    const hl_wrapper *w = hl_ctx_wrapper_of_type(ctx, elem);
    if (!w) continue;
    CXType source = from_tuple ? clang_Type_getTemplateArgumentAsType(p0, (unsigned)i) : clang_getArgType(fty, (unsigned)i);
    int arg = from_tuple ? 0 : i;
    CXCursor expr = arg < nargs ? clang_Cursor_getArgument(c, (unsigned)arg) : clang_getNullCursor();
    hl_sbo_site s;
    if (fill_site(ctx, &s, c, w, elem, source, from_tuple ? clang_getNullCursor() : expr,
                  clang_Cursor_isNull(expr) ? c : expr))
      HL_PUSH(*out, n, cap, s);
  }
  return n;
}

/* ---- naming a lambda's captures ---- */

typedef struct cap_walk {
  CXCursor lambda;
  CXSourceRange range;
  char **names;  /* candidates for implicit captures, in order of first use */
  CXType *types; /* their types; a null-kind type for this */
  size_t n, cap, captypes;
} cap_walk;

static int offset_of(CXSourceLocation l) {
  unsigned off;
  clang_getFileLocation(l, NULL, NULL, NULL, &off);
  return (int)off;
}

static int outside_lambda(const cap_walk *w, CXCursor decl) {
  int off = offset_of(clang_getCursorLocation(decl));
  return off < offset_of(clang_getRangeStart(w->range)) || off > offset_of(clang_getRangeEnd(w->range));
}

static void candidate(cap_walk *w, const char *name, CXType t) {
  for (size_t i = 0; i < w->n; i++)
    if (!strcmp(w->names[i], name)) return;
  size_t before = w->n;
  HL_PUSH(w->names, w->n, w->cap, hl_xstrdup(name));
  hl_grow((void **)&w->types, &w->captypes, w->n, sizeof *w->types);
  w->types[before] = t;
}

static enum CXChildVisitResult find_uses(CXCursor c, CXCursor parent, CXClientData d) {
  (void)parent;
  cap_walk *w = d;
  enum CXCursorKind k = clang_getCursorKind(c);
  if (k == CXCursor_DeclRefExpr) {
    CXCursor decl = clang_getCursorReferenced(c);
    enum CXCursorKind dk = clang_getCursorKind(decl);
    if ((dk == CXCursor_VarDecl || dk == CXCursor_ParmDecl) && clang_Cursor_getStorageClass(decl) != CX_SC_Static &&
        hl_is_function_like(clang_getCursorKind(clang_getCursorSemanticParent(decl))) && outside_lambda(w, decl)) {
      char *name = hl_cx(clang_getCursorSpelling(decl));
      candidate(w, name, clang_getCursorType(decl));
      free(name);
    }
  } else if (k == CXCursor_CXXThisExpr ||
             (k == CXCursor_MemberRefExpr && clang_Cursor_isNull(hl_first_child(c)) &&
              clang_getCursorKind(clang_getCursorReferenced(c)) == CXCursor_FieldDecl)) {
    CXType none = {CXType_Invalid, {0, 0}};
    candidate(w, "this", none);
  }
  return CXChildVisit_Recurse;
}

/* Whether a field of type f can hold the variable of type v. */
static int holds(CXType f, CXType v) {
  if (v.kind == CXType_Invalid) return clang_getCanonicalType(f).kind == CXType_Pointer; /* this */
  CXType fc = clang_getCanonicalType(f);
  CXType vt = clang_getCanonicalType(hl_unref(v));
  if (fc.kind == CXType_LValueReference || fc.kind == CXType_RValueReference)
    fc = clang_getCanonicalType(clang_getPointeeType(fc));
  char *a = hl_type_spelling(fc), *b = hl_type_spelling(vt);
  const char *pa = hl_starts_with(a, "const ") ? a + 6 : a, *pb = hl_starts_with(b, "const ") ? b + 6 : b;
  int r = !strcmp(pa, pb);
  free(a);
  free(b);
  return r;
}

/* The capture list as written: explicit names in order ("this", "*this",
 * "x" for x, &x, x = e), and whether a default (= or &) is present. */
static size_t explicit_captures(CXCursor lambda, char ***names, int *has_default) {
  CXTranslationUnit tu = clang_Cursor_getTranslationUnit(lambda);
  CXToken *toks = NULL;
  unsigned n = 0;
  clang_tokenize(tu, clang_getCursorExtent(lambda), &toks, &n);
  size_t count = 0, cap = 0;
  *has_default = 0;
  *names = NULL;
  char **sp = hl_xcalloc(n ? n : 1, sizeof *sp);
  for (unsigned i = 0; i < n; i++) sp[i] = hl_cx(clang_getTokenSpelling(tu, toks[i]));
  if (n > 0 && !strcmp(sp[0], "[")) {
    unsigned i = 1;
    while (i < n && strcmp(sp[i], "]")) {
      /* One capture: tokens up to a comma at this level. */
      unsigned start = i;
      int depth = 0;
      while (i < n && (depth > 0 || (strcmp(sp[i], ",") && strcmp(sp[i], "]")))) {
        if (!strcmp(sp[i], "(") || !strcmp(sp[i], "[") || !strcmp(sp[i], "{")) depth++;
        if (!strcmp(sp[i], ")") || !strcmp(sp[i], "]") || !strcmp(sp[i], "}")) depth--;
        i++;
      }
      unsigned len = i - start;
      if (len == 1 && (!strcmp(sp[start], "=") || !strcmp(sp[start], "&"))) {
        *has_default = 1;
      } else if (len >= 1) {
        unsigned j = start;
        if (!strcmp(sp[j], "*") && j + 1 < i && !strcmp(sp[j + 1], "this")) {
          HL_PUSH(*names, count, cap, hl_xstrdup("*this"));
        } else {
          while (j < i && (!strcmp(sp[j], "&") || !strcmp(sp[j], "..."))) j++;
          if (j < i) HL_PUSH(*names, count, cap, hl_xstrdup(sp[j]));
        }
      }
      if (i < n && !strcmp(sp[i], ",")) i++;
    }
  }
  for (unsigned i = 0; i < n; i++) free(sp[i]);
  free(sp);
  clang_disposeTokens(tu, toks, n);
  return count;
}

/* Names each field of the closure, or leaves s->captures NULL when the
 * fields cannot be matched to captures with certainty. */
static void name_captures(hl_sbo_site *s) {
  if (clang_Cursor_isNull(s->lambda)) return;
  field_types F = {0};
  clang_Type_visitFields(clang_getCursorType(s->lambda), list_field_type, &F);
  int has_default;
  char **names;
  size_t nexplicit = explicit_captures(s->lambda, &names, &has_default);
  char **out = hl_xcalloc(F.n ? F.n : 1, sizeof *out);
  size_t got = 0;
  for (; got < nexplicit && got < F.n; got++) out[got] = hl_xstrdup(names[got]);
  if (has_default && got < F.n) {
    cap_walk w = {0};
    w.lambda = s->lambda;
    w.range = clang_getCursorExtent(s->lambda);
    CXCursor body = hl_last_child(s->lambda);
    clang_visitChildren(body, find_uses, &w);
    /* Implicit captures follow in order of first use; uses that capture
     * nothing (constants, statics) have no field and are skipped. */
    size_t c = 0;
    while (got < F.n && c < w.n) {
      int dup = 0;
      for (size_t e = 0; e < nexplicit; e++) dup |= !strcmp(names[e], w.names[c]);
      if (!dup && holds(F.v[got], w.types[c])) out[got++] = hl_xstrdup(w.names[c]);
      c++;
    }
    for (size_t i = 0; i < w.n; i++) free(w.names[i]);
    free(w.names);
    free(w.types);
  }
  if (got == F.n) {
    s->captures = out;
    s->ncaptures = F.n;
  } else {
    for (size_t i = 0; i < got; i++) free(out[i]);
    free(out);
  }
  for (size_t i = 0; i < nexplicit; i++) free(names[i]);
  free(names);
  free(F.v);
}

static void site_free(hl_sbo_site *s) {
  free(s->untargeted);
  free(s->wrapper_spelling);
  free(s->signature);
  hl_loc_free(&s->loc);
  for (size_t i = 0; i < s->ncaptures; i++) free(s->captures[i]);
  free(s->captures);
}

/* ---- judging ---- */


long hl_sbo_capacity(long size) { return hl_align_up(size < 8 ? 8 : size, 8); }

/* The library places its header (a vtable pointer) first, then the target
 * at its own alignment; the whole must fit the buffer. */
static void fit(const hl_wrapper *w, hl_sbo_verdict *v) {
  if (w->header_size > 0) {
    long whole_align = v->align > w->header_align ? v->align : w->header_align;
    v->needed = hl_align_up(hl_align_up(w->header_size, v->align) + v->size, whole_align);
  } else {
    v->needed = v->size;
  }
  v->too_big = v->needed > w->buffer_size;
  v->too_aligned = w->max_align > 0 && v->align > w->max_align;
}

/* The traits the library requires, against v's traits: the verdict. */
static void requirements(const hl_wrapper *w, hl_sbo_verdict *v) {
  const struct {
    unsigned bit;
    const hl_trait *t;
  } req[] = {{HL_REQ_TRIVIALLY_COPYABLE, &v->traits.trivially_copyable},
             {HL_REQ_NOTHROW_COPY, &v->traits.nothrow_copy},
             {HL_REQ_NOTHROW_MOVE, &v->traits.nothrow_move}};
  for (size_t i = 0; i < 3; i++) {
    if (!(w->requires & req[i].bit)) continue;
    if (req[i].t->value == HL_NO) v->failed |= req[i].bit;
    if (req[i].t->value == HL_UNKNOWN) v->unknown |= req[i].bit;
  }
  if (v->too_big || v->too_aligned || v->failed) v->allocates = HL_YES;
  else v->allocates = v->unknown ? HL_UNKNOWN : HL_NO;
}

static void judge(hl_ctx *ctx, const hl_sbo_site *s, int ask, hl_sbo_verdict *v) {
  memset(v, 0, sizeof *v);
  const hl_wrapper *w = s->wrapper;
  if (s->decays) {
    v->size = v->align = ctx->pointer_width / 8;
  } else if (s->size > 0) {
    v->size = s->size;
    v->align = s->align;
  } else if (hl_type_layout(ctx->types, s->stored, &v->size, &v->align)) {
    v->allocates = HL_UNKNOWN;
    return;
  }
  fit(w, v);
  hl_type_traits(ctx->types, s->stored, ask, (const char *const *)s->captures, s->ncaptures, &v->traits);
  requirements(w, v);
}

/* The verdict on one instantiation a probe answered: the compiler's own
 * numbers and traits. */
static void judge_probed(const hl_wrapper *w, const hl_probe_hit *h, hl_sbo_verdict *v) {
  memset(v, 0, sizeof *v);
  v->size = h->size;
  v->align = h->align;
  fit(w, v);
  v->traits.trivially_copyable.value = h->trivially_copyable ? HL_YES : HL_NO;
  v->traits.nothrow_copy.value = h->nothrow_copy ? HL_YES : HL_NO;
  v->traits.nothrow_move.value = h->nothrow_move ? HL_YES : HL_NO;
  v->traits.nothrow_destroy.value = HL_YES;
  requirements(w, v);
}

/* Whose inline buffer it is: the library's, or, for a wrapper a profile
 * adds on top of any library (my::Callback), the wrapper's own. */
static const char *lib(const hl_ctx *ctx, const hl_sbo_site *s) {
  (void)ctx;
  const hl_profile *p = s->wrapper->profile;
  return p->library ? p->library : s->wrapper->name;
}

/* The numbers and the library's rule, e.g. "24 bytes (align 8) exceeds
 * libstdc++'s inline buffer of 16 bytes". */
static void reasons(const hl_ctx *ctx, const hl_sbo_site *s, const hl_sbo_verdict *v, hl_sb *b) {
  const hl_wrapper *w = s->wrapper;
  const char *L = lib(ctx, s);
  if (v->too_big) {
    if (w->header_size > 0)
      hl_sb_printf(b, "%ld bytes (align %ld) with %s's %ld-byte %s in front need %ld bytes, more than its inline buffer of %ld bytes",
                   v->size, v->align, L, w->header_size, w->header_what ? w->header_what : "header", v->needed,
                   w->buffer_size);
    else
      hl_sb_printf(b, "%ld bytes (align %ld) exceeds %s's inline buffer of %ld bytes", v->size, v->align, L,
                   w->buffer_size);
  }
  if (v->too_aligned)
    hl_sb_printf(b, "%salignment %ld exceeds the %ld that %s's inline buffer allows", v->too_big ? "; " : "", v->align,
                 w->max_align, L);
  if (!v->too_big && !v->too_aligned)
    hl_sb_printf(b, "%ld bytes (align %ld) would fit %s's %ld-byte inline buffer, but", v->size, v->align, L,
                 w->buffer_size);
  const char *sep = (v->too_big || v->too_aligned) ? "; " : " ";
  if (v->failed & HL_REQ_TRIVIALLY_COPYABLE) {
    hl_sb_printf(b, "%sit is not trivially copyable, which %s requires for inline storage", sep, L);
    sep = "; ";
  }
  if (v->failed & HL_REQ_NOTHROW_COPY) {
    hl_sb_printf(b, "%sit is not nothrow copy constructible, which %s requires for inline storage", sep, L);
    sep = "; ";
  }
  if (v->failed & HL_REQ_NOTHROW_MOVE)
    hl_sb_printf(b, "%sit is not nothrow move constructible, which %s requires for inline storage", sep, L);
}

static void why_note(hl_finding *f, const hl_loc *loc, const char *what, const char *type, const hl_trait *t) {
  if (t->value != HL_NO || !t->why) return;
  char *m = t->why[0] == ' ' ? hl_xasprintf("%s: %s%s", what, type, t->why) : hl_xasprintf("%s: %s", what, t->why);
  hl_finding_note(f, loc, m);
  free(m);
}

typedef struct cap_layout {
  const hl_types *T;
  const hl_sbo_site *s;
  long record_size;
  size_t index;
  long end; /* bytes used so far */
  hl_sb *b;
} cap_layout;

static enum CXVisitorResult describe_field(CXCursor f, CXClientData d) {
  cap_layout *c = d;
  long size = 0, align = 0;
  hl_type_layout(c->T, clang_getCursorType(f), &size, &align);
  /* Inside a template libclang has no offsets: lay the field out as the
   * compiler would, after the previous one at its alignment. */
  long bits = clang_Cursor_getOffsetOfField(f);
  long off = bits >= 0 ? bits / 8 : hl_align_up(c->end, align > 0 ? align : 1);
  if (c->index > 0 && off > c->end) hl_sb_printf(c->b, ", +%ld padding", off - c->end);
  if (c->index > 0) hl_sb_puts(c->b, "), ");
  hl_sb_printf(c->b, "%s (%ld", c->s->captures[c->index], size);
  c->end = off + size;
  c->index++;
  return CXVisit_Continue;
}

/* "captures: this (8), id (4, +4 padding), deadline (8)" */
static char *captures_note(const hl_ctx *ctx, const hl_sbo_site *s, const hl_sbo_verdict *v) {
  if (!s->captures || s->ncaptures == 0) return NULL;
  hl_sb b = {0};
  hl_sb_puts(&b, "captures: ");
  cap_layout c = {ctx->types, s, v->size, 0, 0, &b};
  clang_Type_visitFields(clang_getCursorType(s->lambda), describe_field, &c);
  if (v->size > c.end) hl_sb_printf(&b, ", +%ld padding", v->size - c.end);
  hl_sb_puts(&b, ")");
  return hl_sb_take(&b);
}

/* The rewrite of one declaration: its type's edit, the include, and the
 * capacity that holds every callable stored into it. */
typedef struct plan {
  int made;
  const char *blocked;   /* points into retype, or blocked_own */
  char *blocked_own;
  long capacity, align;
  hl_edit type, include;
  int has_include;
} plan;

static void plan_free(plan *p) {
  free(p->blocked_own);
  hl_edit_free(&p->type);
  hl_edit_free(&p->include);
}

/* "std::function<void()>" -> "hl::inplace_function<void(), 24>" */
static char *retyped(const char *written, const char *replacement, long capacity, long align) {
  const char *lt = strchr(written, '<');
  const char *gt = strrchr(written, '>');
  if (!lt || !gt || gt < lt) return NULL;
  hl_sb b = {0};
  hl_sb_puts(&b, replacement);
  hl_sb_putn(&b, lt, (size_t)(gt - lt));
  hl_sb_printf(&b, ", %ld", capacity);
  if (align > 16) hl_sb_printf(&b, ", %ld", align);
  hl_sb_putc(&b, '>');
  return hl_sb_take(&b);
}

static void make_plan(hl_ctx *ctx, hl_sbo *S, int t, const hl_sbo_verdict *verdicts, plan *p) {
  p->made = 1;
  p->blocked = hl_retype_blocked(S->retype, t);
  if (p->blocked) return;
  long size = 1, align = 1;
  const hl_sbo_site *any = NULL;
  for (size_t i = 0; i < S->n; i++) {
    if (S->sites[i].target != t) continue;
    if (verdicts[i].allocates == HL_UNKNOWN) {
      p->blocked = "the size of a callable stored into it is not known";
      return;
    }
    if (verdicts[i].size > size) size = verdicts[i].size;
    if (verdicts[i].align > align) align = verdicts[i].align;
    any = &S->sites[i];
  }
  p->capacity = hl_sbo_capacity(size);
  p->align = align;
  int container;
  CXCursor decl = hl_retype_decl(S->retype, t, &container);
  char *written = NULL, *alias = NULL;
  char *reason = NULL;
  int r = hl_rewrite_template_range(ctx, decl, any->wrapper->name, &p->type, &written, &alias, &reason);
  if (r == 1) {
    p->blocked = p->blocked_own =
        hl_xasprintf("its type is spelled through the alias '%s', which other code may use; retype the alias", alias);
  } else if (r < 0 && reason) {
    p->blocked = p->blocked_own = reason;
  } else if (r < 0) {
    p->blocked = "heaplint cannot find where its type is written";
  } else {
    p->type.text = retyped(written, S->wording->replacement(any), p->capacity, p->align);
    if (!p->type.text) p->blocked = "heaplint cannot read its type as written";
    else p->has_include = hl_rewrite_include(ctx, p->type.file, S->wording->header, &p->include) == 0;
  }
  free(written);
  free(alias);
}

/* A probed instantiation is reported where the code made its type concrete
 * (probed_noun names what the probe saw), with a note at the store inside
 * the template (stored_at); every other site where it stores. */
static void report(hl_ctx *ctx, hl_sbo *S, const hl_sbo_site *s, const hl_sbo_verdict *v, const plan *p,
                   const char *probed_type, const hl_loc *stored_at) {
  char *noun = probed_type ? S->wording->probed_noun(probed_type) : S->wording->noun(ctx, s);
  hl_sb m = {0};
  hl_sb_printf(&m, "%s stores this %s on the heap%s: ", s->wrapper_spelling, noun,
               s->in_loop ? " on every iteration of the enclosing loop" : "");
  reasons(ctx, s, v, &m);
  hl_finding *f = hl_finding_new(S->rule, HL_SEV_WARNING, &s->loc, hl_sb_str(&m));
  hl_sb_free(&m);
  if (stored_at) {
    char *where = hl_loc_where(stored_at);
    char *note = hl_xasprintf("stored at %s as %s", where, s->wrapper_spelling);
    hl_finding_note(f, stored_at, note);
    free(note);
    free(where);
  }

  char *caps = captures_note(ctx, s, v);
  if (caps) hl_finding_note(f, &s->loc, caps);
  free(caps);
  char *tname = s->decays ? hl_xstrdup("the pointer") : hl_type_is_lambda(s->stored) ? hl_xstrdup("the lambda")
                                                                                      : hl_type_spelling(s->stored);
  if (v->failed & HL_REQ_TRIVIALLY_COPYABLE)
    why_note(f, &s->loc, "not trivially copyable", tname, &v->traits.trivially_copyable);
  if (v->failed & HL_REQ_NOTHROW_COPY) why_note(f, &s->loc, "not nothrow copy constructible", tname, &v->traits.nothrow_copy);
  if (v->failed & HL_REQ_NOTHROW_MOVE) why_note(f, &s->loc, "not nothrow move constructible", tname, &v->traits.nothrow_move);
  free(tname);
  hl_sbo_fix fx = {hl_sbo_capacity(v->size), v->align, s->untargeted, 0};
  if (p && !p->blocked) {
    fx.capacity = p->capacity;
    fx.align = p->align;
    fx.rewritten = 1;
    hl_finding_edit(f, &p->type);
    if (p->has_include) hl_finding_edit(f, &p->include);
  } else if (p) {
    fx.blocked = p->blocked;
  }
  S->wording->fix(ctx, s, v, &fx, f);
  hl_findings_add(ctx->out, f);
  free(noun);
}

/* ---- the pass ---- */

hl_sbo *hl_sbo_begin(const char *rule_id, const hl_sbo_wording *wording) {
  hl_sbo *S = hl_xcalloc(1, sizeof *S);
  S->rule = rule_id;
  S->wording = wording;
  S->retype = hl_retype_new();
  return S;
}

static void keep(hl_ctx *ctx, hl_sbo *S, hl_sbo_site *s) {
  if (strcmp(s->wrapper->rule, S->rule)) {
    site_free(s);
    return;
  }
  name_captures(s);
  if (S->wording->replacement && S->wording->replacement(s))
    s->target = hl_retype_store(S->retype, ctx, s->call, clang_Cursor_isNull(s->call) ? HL_STORE_OTHER : s->store_kind,
                                s->wrapper, &s->untargeted);
  HL_PUSH(S->sites, S->n, S->cap, *s);
}

typedef struct closure_layout {
  const hl_types *T;
  long size, align;
  int ok;
} closure_layout;

static enum CXVisitorResult lay_field(CXCursor f, CXClientData d) {
  closure_layout *L = d;
  long size, align;
  if (hl_type_layout(L->T, clang_getCursorType(f), &size, &align)) {
    L->ok = 0;
    return CXVisit_Break;
  }
  L->size = hl_align_up(L->size, align) + size;
  if (align > L->align) L->align = align;
  return CXVisit_Continue;
}

/* Inside a template clang treats every lambda's closure type as dependent,
 * so it has no size. A lambda that lists its captures (no = or & default,
 * which a template resolves only when instantiated) and whose captures all
 * have a layout is laid out here as the compiler lays out any class: each
 * capture at its alignment, in order, the whole padded to the largest. */
static int template_lambda_layout(const hl_ctx *ctx, CXCursor lambda, long *size, long *align) {
  int has_default;
  char **names;
  size_t n = explicit_captures(lambda, &names, &has_default);
  for (size_t i = 0; i < n; i++) free(names[i]);
  free(names);
  if (has_default) return -1;
  closure_layout L = {ctx->types, 0, 1, 1};
  size_t nfields = 0;
  field_types F = {0};
  clang_Type_visitFields(clang_getCursorType(lambda), list_field_type, &F);
  nfields = F.n;
  free(F.v);
  if (nfields != n) return -1;
  clang_Type_visitFields(clang_getCursorType(lambda), lay_field, &L);
  if (!L.ok) return -1;
  *size = nfields ? hl_align_up(L.size, L.align) : 1;
  *align = L.align;
  return 0;
}

/* ---- stores inside templates ---- */

/* Whether the expression's type depends on a template parameter. */
static int is_dependent(CXCursor e) {
  return clang_Type_getSizeOf(clang_getCursorType(e)) == CXTypeLayoutError_Dependent;
}

/* The overload set an unresolved call names (take(x), std::move(x) with a
 * dependent x), or a null cursor. */
static CXCursor overload_set(CXCursor call) {
  CXCursor callee = hl_strip(hl_first_child(call));
  if (clang_getCursorKind(callee) == CXCursor_OverloadedDeclRef) return callee;
  if (clang_getCursorKind(callee) != CXCursor_DeclRefExpr) return clang_getNullCursor();
  CXCursor last = hl_last_child(callee);
  return clang_getCursorKind(last) == CXCursor_OverloadedDeclRef ? last : clang_getNullCursor();
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
  if (!calls(e, "std::bind") || strstr(ctx->triple, "windows")) return 0;
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

/* A store inside a template of a value whose type depends on the template
 * (expr): a lambda whose captures all have a layout is laid out from them
 * and judged here, once; anything else is judged per instantiation by a
 * probe (hl_sbo_prepare), and is counted as not decided when none answers. */
static void deferred(hl_ctx *ctx, hl_sbo *S, CXCursor visited, const hl_wrapper *w, CXType wtype, CXCursor expr,
                     CXCursor call, hl_store_kind kind) {
  if (strcmp(w->rule, S->rule)) return;
  hl_sbo_site s;
  CXCursor lambda = through_local(strip_moves(expr));
  long size, align;
  if (clang_getCursorKind(lambda) == CXCursor_LambdaExpr && !template_lambda_layout(ctx, lambda, &size, &align)) {
    if (!fill_site(ctx, &s, visited, w, wtype, clang_getCursorType(lambda), expr, expr)) return;
    s.size = size;
    s.align = align;
    s.lambda = lambda;
  } else {
    if (!fill_site(ctx, &s, visited, w, wtype, clang_getCursorType(expr), expr, expr)) return;
    s.dependent = 1;
    s.independent = bind_independent(ctx, expr);
  }
  s.call = call;
  s.store_kind = kind;
  keep(ctx, S, &s);
}

/* A wrapper variable or member initialized inside a template. */
static void template_init(hl_ctx *ctx, hl_sbo *S, CXCursor var) {
  CXType wtype = clang_getCursorType(var);
  const hl_wrapper *w = hl_ctx_wrapper_of_type(ctx, wtype);
  if (!w) return;
  CXCursor init = hl_last_child(var);
  if (!clang_isExpression(clang_getCursorKind(init)) || !is_dependent(init)) return;
  deferred(ctx, S, var, w, wtype, init, clang_getNullCursor(), HL_STORE_OTHER);
}

/* wrapper = value, with a value whose type depends on the template. */
static void template_assign(hl_ctx *ctx, hl_sbo *S, CXCursor op) {
  char *spelling = hl_cx(clang_getCursorSpelling(op));
  int assign = !strcmp(spelling, "=");
  free(spelling);
  if (!assign) return;
  CXCursor lhs = hl_first_child(op), rhs = hl_last_child(op);
  CXType wtype = clang_getCursorType(lhs);
  const hl_wrapper *w = hl_ctx_wrapper_of_type(ctx, wtype);
  if (w && is_dependent(rhs)) deferred(ctx, S, op, w, wtype, rhs, op, HL_STORE_ASSIGN);
}

/* take(x) with a dependent x, where every function take names takes a
 * wrapper there: the call is resolved only when the template is
 * instantiated, but whatever it resolves to stores x. */
static void template_call(hl_ctx *ctx, hl_sbo *S, CXCursor call) {
  CXCursor set = overload_set(call);
  if (clang_Cursor_isNull(set)) return;
  unsigned ncand = clang_getNumOverloadedDecls(set);
  int nargs = clang_Cursor_getNumArguments(call);
  for (int i = 0; i < nargs; i++) {
    CXCursor arg = clang_Cursor_getArgument(call, (unsigned)i);
    if (!is_dependent(arg)) continue;
    const hl_wrapper *w = NULL;
    CXType wtype = {CXType_Invalid, {0, 0}};
    for (unsigned k = 0; k < ncand; k++) {
      CXCursor fn = clang_getOverloadedDecl(set, k);
      enum CXCursorKind fk = clang_getCursorKind(fn);
      CXType fty = clang_getCursorType(fn);
      const hl_wrapper *cw = NULL;
      if ((fk == CXCursor_FunctionDecl || fk == CXCursor_CXXMethod) && i < clang_getNumArgTypes(fty)) {
        wtype = clang_getArgType(fty, (unsigned)i);
        cw = hl_ctx_wrapper_of_type(ctx, wtype);
      }
      if (!cw || (w && cw != w)) {
        w = NULL;
        break;
      }
      w = cw;
    }
    if (w) deferred(ctx, S, call, w, wtype, arg, clang_getNullCursor(), HL_STORE_OTHER);
  }
}

void hl_sbo_visit(hl_ctx *ctx, hl_sbo *S, CXCursor c) {
  enum CXCursorKind k = clang_getCursorKind(c);
  if (k == CXCursor_VarDecl || k == CXCursor_FieldDecl) template_init(ctx, S, c);
  if (k == CXCursor_InitListExpr || k == CXCursor_CallExpr) {
    hl_sbo_site *v;
    size_t n = k == CXCursor_InitListExpr ? init_list_sites(ctx, c, &v) : tuple_sites(ctx, c, &v);
    for (size_t i = 0; i < n; i++) keep(ctx, S, &v[i]);
    free(v);
    if (k == CXCursor_InitListExpr || n) return;
  }
  hl_sbo_site s;
  if (match(ctx, c, &s)) keep(ctx, S, &s);
  else if (k == CXCursor_CallExpr) template_call(ctx, S, c);
  if (k == CXCursor_BinaryOperator) template_assign(ctx, S, c);
  if (k == CXCursor_DeclRefExpr || k == CXCursor_MemberRefExpr) hl_retype_use(S->retype, ctx, c);
}

void hl_sbo_prepare(hl_ctx *ctx, hl_sbo *S) {
  /* Only sites the layout and the class structure cannot settle ask the
   * compiler (one batched parse per translation unit). */
  for (size_t i = 0; i < S->n; i++) {
    hl_sbo_verdict v;
    judge(ctx, &S->sites[i], 0, &v);
    if (v.allocates == HL_UNKNOWN) {
      hl_traits_free(&v.traits);
      judge(ctx, &S->sites[i], 1, &v);
    }
    /* A store only an instantiation can size gets a probe (all of the
     * unit's in one more parse). */
    if (v.allocates == HL_UNKNOWN && S->sites[i].dependent)
      S->sites[i].probe = hl_probes_add(ctx->probes, S->sites[i].expr, &S->sites[i].unprobed);
    hl_traits_free(&v.traits);
  }
}

/* The short category of an undecided site, for the summary's count. */
static const char *undecided_reason(const hl_sbo_site *s, const char *why) {
  if (s->dependent || strstr(why, "depends on a template parameter")) return "template-dependent";
  if (strstr(why, "cannot be named")) return "unnamed type";
  return "traits not known";
}

/* A store inside a template, judged per instantiation from its probe's
 * answers: reported where the code made the type concrete, with a note at
 * the store, or once at the store when its layout does not depend on the
 * template. Without an answer it is not decided. */
static void judge_instantiations(hl_ctx *ctx, hl_sbo *S, const hl_sbo_site *s, const plan *p) {
  size_t n = 0;
  const hl_probe_hit *h = s->probe >= 0 ? hl_probes_hits(ctx->probes, s->probe, &n) : NULL;
  if (n == 0) {
    hl_ctx_undecided(ctx, S->rule, &s->loc, "template-dependent",
                     "the stored type depends on a template parameter (%s)",
                     s->probe < 0 ? s->unprobed : "no instantiation of it was seen");
    return;
  }
  for (size_t i = 0; i < n; i++) {
    hl_sbo_verdict v;
    judge_probed(s->wrapper, &h[i], &v);
    if (v.allocates == HL_YES) {
      const hl_loc *at = &h[i].chain[h[i].user];
      if (s->independent || (at->offset == s->loc.offset && !strcmp(at->file, s->loc.file))) {
        report(ctx, S, s, &v, p, h[i].type, NULL);
        break;
      }
      hl_sbo_site u = *s;
      u.loc = *at;
      u.lambda = clang_getNullCursor();
      u.callee = clang_getNullCursor();
      u.captures = NULL;
      u.ncaptures = 0;
      u.in_loop = 0;
      report(ctx, S, &u, &v, p, h[i].type, &s->loc);
    } else if (s->independent) {
      break;
    }
  }
}

void hl_sbo_end(hl_ctx *ctx, hl_sbo *S) {
  hl_retype_finish(S->retype);
  hl_sbo_verdict *verdicts = hl_xcalloc(S->n ? S->n : 1, sizeof *verdicts);
  int ntargets = 0;
  for (size_t i = 0; i < S->n; i++) {
    judge(ctx, &S->sites[i], 0, &verdicts[i]);
    if (S->sites[i].target >= ntargets) ntargets = S->sites[i].target + 1;
  }
  plan *plans = hl_xcalloc(ntargets ? (size_t)ntargets : 1, sizeof *plans);
  for (size_t i = 0; i < S->n; i++) {
    hl_sbo_site *s = &S->sites[i];
    hl_sbo_verdict *v = &verdicts[i];
    if (v->allocates == HL_YES) {
      plan *p = NULL;
      if (s->target >= 0) {
        p = &plans[s->target];
        if (!p->made) make_plan(ctx, S, s->target, verdicts, p);
      }
      report(ctx, S, s, v, p, NULL, NULL);
    } else if (v->allocates == HL_UNKNOWN && s->dependent) {
      plan *p = NULL;
      if (s->target >= 0) {
        p = &plans[s->target];
        if (!p->made) make_plan(ctx, S, s->target, verdicts, p);
      }
      judge_instantiations(ctx, S, s, p);
    } else if (v->allocates == HL_UNKNOWN) {
      const hl_trait *t = (v->unknown & HL_REQ_TRIVIALLY_COPYABLE) ? &v->traits.trivially_copyable
                          : (v->unknown & HL_REQ_NOTHROW_COPY)    ? &v->traits.nothrow_copy
                                                                  : &v->traits.nothrow_move;
      const char *why = v->unknown && t->why ? t->why : "";
      hl_ctx_undecided(ctx, S->rule, &s->loc, undecided_reason(s, why), "%s%s%s",
                       v->unknown ? "the stored type" : "its layout is not known (a dependent type)",
                       why[0] && why[0] != ' ' ? ": " : "", why);
    }
  }
  for (size_t i = 0; i < S->n; i++) {
    hl_traits_free(&verdicts[i].traits);
    site_free(&S->sites[i]);
  }
  for (int t = 0; t < ntargets; t++) plan_free(&plans[t]);
  free(plans);
  free(verdicts);
  free(S->sites);
  hl_retype_free(S->retype);
  free(S);
}
