#include "rules/sbo/match.h"

#include <stdlib.h>
#include <string.h>

#include "rules/lib/uses.h"
#include "util/strv.h"
#include "util/util.h"

/* "std::function<void ()>": the profile's name for the wrapper and its
 * template arguments as the compiler spells them, without the library's
 * inline namespaces (std::__1) or the typedefs it returns through. */
static char *wrapper_display(const hl_wrapper *w, CXType wtype) {
  char *canon = hl_type_spelling(clang_getCanonicalType(hl_unref(wtype)));
  /* A dependent type's canonical spelling numbers the template's
   * parameters ("type-parameter-0-0"): the code's names read better. */
  if (strstr(canon, "type-parameter-")) {
    free(canon);
    canon = hl_type_spelling(hl_unref(wtype));
  }
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
    if (hl_is_transparent(e)) {
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

static int is_pair(CXType t) {
  CXType c = clang_getCanonicalType(hl_unref(t));
  char *name = hl_class_name(c);
  int r = !strcmp(name, "std::pair") && clang_Type_getNumTemplateArguments(c) == 2;
  free(name);
  return r;
}

/* A standard container's member that builds a wrapper element (or mapped
 * value) inside the library from the one value it is given: returns the
 * wrapper, its type and the type of the value it is built from. */
static const hl_wrapper *container_store(const hl_ctx *ctx, CXCursor fn, CXType *wtype, CXType *stored) {
  static const char *const emplacers[] = {"emplace_back", "emplace_front", "emplace",          "emplace_after",
                                          "emplace_hint", "try_emplace",   "insert_or_assign", "insert"};
  char *name = hl_cxstring_take(clang_getCursorSpelling(fn));
  const hl_wrapper *w = NULL;
  if (!hl_str_in(name, emplacers, sizeof emplacers / sizeof *emplacers)) goto out;
  CXType fty = clang_getCursorType(fn);
  CXType ct = clang_getCursorType(clang_getCursorSemanticParent(fn));
  char *cname = hl_class_name(ct);
  int np = clang_getNumArgTypes(fty);
  int map = hl_str_in(cname, map_containers, 4);
  CXType last = np > 0 ? clang_getArgType(fty, (unsigned)(np - 1)) : (CXType){CXType_Invalid, {0, 0}};
  if (!map && hl_starts_with(cname, "std::") && strcmp(name, "insert")) {
    /* A position comes first for emplace_after/_hint and a sequence's emplace. */
    int positional = !strcmp(name, "emplace_after") || !strcmp(name, "emplace_hint") ||
                     (!strcmp(name, "emplace") && hl_str_in(cname, sequence_containers, 3));
    if (np == 1 + positional) {
      *wtype = clang_Type_getTemplateArgumentAsType(ct, 0);
      *stored = last;
      w = hl_ctx_wrapper_of_type(ctx, *wtype);
    }
  } else if (map && (!strcmp(name, "insert") || !strcmp(name, "emplace") || !strcmp(name, "emplace_hint")) && np >= 1 &&
             np <= 2 && is_pair(last)) {
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
      char *p0 = hl_class_name(clang_getArgType(fty, 0));
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
  /* One that depends on a template as the code writes it (void(Task<T> *)),
   * not as clang numbers its parameters (type-parameter-0-0). */
  if (hl_type_is_dependent(canon)) {
    canon = hl_unref(wtype);
    if (canon.kind == CXType_Elaborated) canon = clang_Type_getNamedType(canon);
  }
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
  if (!clang_Cursor_isNull(expr) && same_type(clang_getCursorType(expr), stored))
    cands[n++] = clang_getCursorType(expr);
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

void hl_sbo_wrapper_words(const hl_wrapper *w, CXType wtype, char **display, char **signature) {
  *display = wrapper_display(w, wtype);
  *signature = signature_of(wtype);
}

/* Fills s for a store of a value of type stored (made by expr, or at the
 * call at) into a wrapper w of type wtype. Returns 0 when nothing new is
 * stored: copies and moves of the wrapper itself, nullptr. */
int hl_sbo_fill_site(hl_ctx *ctx, hl_sbo_site *s, CXCursor visited, const hl_wrapper *w, CXType wtype, CXType stored,
                     CXCursor expr, CXCursor at) {
  if (stored.kind == CXType_Invalid) return 0;
  CXType canon = clang_getCanonicalType(hl_unref(stored));
  if (canon.kind == CXType_NullPtr || hl_same_class(stored, wtype)) return 0;
  hl_types_learn(hl_ctx_types(ctx), wtype);
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

int hl_sbo_match(hl_ctx *ctx, CXCursor c, hl_sbo_site *s) {
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
    size_t nw;
    const hl_wrapper *const *ws = hl_ctx_wrappers(ctx, &nw);
    for (size_t i = 0; i < nw && !w; i++)
      if (hl_str_in(name, (const char *const *)ws[i]->factories, ws[i]->nfactories)) w = ws[i];
    free(name);
    if (!w) return 0;
    stored = clang_Cursor_getTemplateArgumentType(fn, 0);
    wtype = clang_getCursorType(c);
    kind = HL_STORE_OTHER;
  } else if ((w = hl_ctx_wrapper_of_decl(ctx, clang_getCursorSemanticParent(fn)))) {
    if (!hl_is_function_template_specialization(fn) || np < (fk == CXCursor_Constructor ? 1 : 0)) return 0;
    char *name = hl_cxstring_take(clang_getCursorSpelling(fn));
    int ok = 1;
    if (fk == CXCursor_Constructor) {
      CXType p0 = clang_getArgType(fty, 0);
      char *p0name = hl_class_name(p0);
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
    } else if (hl_str_in(name, (const char *const *)w->emplacers, w->nemplacers)) {
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

  if (!hl_sbo_fill_site(ctx, s, c, w, wtype, stored, expr, at)) return 0;
  s->call = c;
  s->store_kind = kind;
  return 1;
}

/* ---- stores through brace initialization of arrays and aggregates ---- */

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
size_t hl_sbo_init_list_sites(hl_ctx *ctx, CXCursor list, hl_sbo_site **out) {
  CXType t = clang_getCanonicalType(clang_getCursorType(list));
  size_t nkids;
  CXCursor *kids = hl_children(list, &nkids);
  field_types F = {0};
  if (t.kind == CXType_ConstantArray || t.kind == CXType_IncompleteArray) {
    for (size_t i = 0; i < nkids; i++) HL_PUSH(F.v, F.n, F.cap, clang_getArrayElementType(t));
  } else if (t.kind == CXType_Record && hl_ctx_wrapper_of_type(ctx, t)) {
    if (nkids == 1) HL_PUSH(F.v, F.n, F.cap, t);
  } else if (t.kind == CXType_Record) {
    /* Aggregates with bases take the bases' initializers first: those are
     * not paired with fields here, rather than paired wrongly. */
    int has_base = 0;
    clang_visitChildren(clang_getTypeDeclaration(t), find_base, &has_base);
    if (!has_base) clang_Type_visitFields(t, list_field_type, &F);
  }
  size_t n = 0, cap = 0;
  *out = NULL;
  for (size_t i = 0; i < nkids && i < F.n; i++) {
    const hl_wrapper *w = hl_ctx_wrapper_of_type(ctx, F.v[i]);
    /* A nested braced list is its own cursor, judged when visited. */
    if (!w || clang_getCursorKind(kids[i]) == CXCursor_InitListExpr) continue;
    hl_sbo_site s;
    if (hl_sbo_fill_site(ctx, &s, list, w, F.v[i], clang_getCursorType(kids[i]), kids[i], kids[i]))
      HL_PUSH(*out, n, cap, s);
  }
  free(kids);
  free(F.v);
  return n;
}

/* ---- stores through std::pair, std::tuple and std::optional ---- */

static const char *const tuple_likes[] = {"std::pair", "std::tuple", "std::optional"};

/* A forwarding constructor of a pair, tuple or optional whose element is a
 * wrapper builds that wrapper inside the library, from the matching
 * argument — or from the matching element of a pair or tuple argument:
 * m.insert({1, f}), std::tuple<int, std::function<void()>> t{1, f}. */
size_t hl_sbo_tuple_sites(hl_ctx *ctx, CXCursor c, hl_sbo_site **out) {
  *out = NULL;
  CXCursor fn = clang_getCursorReferenced(c);
  if (clang_getCursorKind(fn) != CXCursor_Constructor || !hl_is_function_template_specialization(fn)) return 0;
  CXType ct = clang_getCanonicalType(clang_getCursorType(clang_getCursorSemanticParent(fn)));
  char *cname = hl_class_name(ct);
  int known = hl_str_in(cname, tuple_likes, 3);
  free(cname);
  if (!known) return 0;
  int nelem = clang_Type_getNumTemplateArguments(ct);
  CXType fty = clang_getCursorType(fn);
  int np = clang_getNumArgTypes(fty), nargs = clang_Cursor_getNumArguments(c);
  if (nelem <= 0 || np <= 0) return 0;
  CXType p0 = clang_getCanonicalType(hl_unref(clang_getArgType(fty, 0)));
  char *p0name = hl_class_name(p0);
  int tagged = !strcmp(p0name, "std::piecewise_construct_t") || !strcmp(p0name, "std::allocator_arg_t") ||
               !strcmp(p0name, "std::in_place_t");
  int from_tuple = np == 1 && hl_str_in(p0name, tuple_likes, 3) && clang_Type_getNumTemplateArguments(p0) == nelem;
  free(p0name);
  if (tagged || (np != nelem && !from_tuple)) return 0;
  size_t n = 0, cap = 0;
  for (int i = 0; i < nelem; i++) {
    CXType elem = clang_Type_getTemplateArgumentAsType(ct, (unsigned)i);
    const hl_wrapper *w = hl_ctx_wrapper_of_type(ctx, elem);
    if (!w) continue;
    CXType source =
        from_tuple ? clang_Type_getTemplateArgumentAsType(p0, (unsigned)i) : clang_getArgType(fty, (unsigned)i);
    int arg = from_tuple ? 0 : i;
    CXCursor expr = arg < nargs ? clang_Cursor_getArgument(c, (unsigned)arg) : clang_getNullCursor();
    hl_sbo_site s;
    if (hl_sbo_fill_site(ctx, &s, c, w, elem, source, from_tuple ? clang_getNullCursor() : expr,
                         clang_Cursor_isNull(expr) ? c : expr))
      HL_PUSH(*out, n, cap, s);
  }
  return n;
}

/* ---- stores through a constructor the library calls ---- */

static const char *const built_in_sequences[] = {"std::vector", "std::deque", "std::list", "std::forward_list"};

/* The class a call builds inside the library from its arguments (those
 * from *first on): the element of a sequence's emplace_back,
 * emplace_front, emplace or emplace_after, or std::make_unique's and
 * std::make_shared's T. */
static int built_class(CXCursor fn, CXType *t, int *first) {
  if (!hl_is_function_template_specialization(fn)) return 0;
  enum CXCursorKind fk = clang_getCursorKind(fn);
  char *name = hl_decl_name(fn);
  int ok = 0;
  if (fk == CXCursor_CXXMethod) {
    CXType ct = clang_getCanonicalType(clang_getCursorType(clang_getCursorSemanticParent(fn)));
    char *cname = hl_class_name(ct);
    const char *member = strrchr(name, ':') ? strrchr(name, ':') + 1 : name;
    int positional = !strcmp(member, "emplace") || !strcmp(member, "emplace_after");
    if (hl_str_in(cname, built_in_sequences, 4) &&
        (positional || !strcmp(member, "emplace_back") || !strcmp(member, "emplace_front"))) {
      *t = clang_Type_getTemplateArgumentAsType(ct, 0);
      *first = positional;
      ok = 1;
    }
    free(cname);
  } else if (fk == CXCursor_FunctionDecl && (!strcmp(name, "std::make_unique") || !strcmp(name, "std::make_shared")) &&
             clang_Cursor_getNumTemplateArguments(fn) >= 1) {
    *t = clang_Cursor_getTemplateArgumentType(fn, 0);
    *first = 0;
    ok = 1;
  }
  free(name);
  return ok;
}

typedef struct ctors {
  CXCursor v[32];
  size_t n;
  int templated; /* a constructor template (or inherited constructors): any argument may go anywhere */
} ctors;

static enum CXChildVisitResult list_ctor(CXCursor c, CXCursor parent, CXClientData d) {
  (void)parent;
  ctors *C = d;
  enum CXCursorKind k = clang_getCursorKind(c);
  if (k == CXCursor_Constructor && C->n < 32)
    C->v[C->n++] = c;
  else if (k == CXCursor_Constructor ||
           (k == CXCursor_FunctionTemplate && clang_getTemplateCursorKind(c) == CXCursor_Constructor) ||
           k == CXCursor_UsingDeclaration) /* maybe a base's constructors, inherited */
    C->templated = 1;
  return CXChildVisit_Continue;
}

/* A constructor's parameter type in cls: as declared, or, for one read
 * from cls's class template (libclang shows no member of an implicit
 * instantiation), the class's template argument it names (C, C&&). Invalid
 * when it depends on the template otherwise. */
static CXType param_in(CXType cls, CXType pt, int pattern) {
  pt = hl_unref(pt);
  if (!pattern || !hl_type_is_dependent(pt)) return pt;
  char *canon = hl_type_spelling(clang_getCanonicalType(pt));
  int index = -1, used = 0;
  CXType t = {CXType_Invalid, {0, 0}};
  if (sscanf(canon, "type-parameter-0-%d%n", &index, &used) == 1 && canon[used] == '\0' &&
      index < clang_Type_getNumTemplateArguments(cls))
    t = clang_Type_getTemplateArgumentAsType(cls, (unsigned)index);
  free(canon);
  return t;
}

const hl_wrapper *hl_sbo_wrapper_of(hl_ctx *ctx, CXType t) {
  const hl_wrapper *w = hl_ctx_wrapper_of_type(ctx, t);
  if (w || t.kind == CXType_Invalid) return w;
  CXCursor decl = clang_getTypeDeclaration(clang_getCanonicalType(t));
  if (clang_getCursorKind(decl) != CXCursor_ClassTemplate) return NULL;
  char *name = hl_decl_name(decl);
  size_t n;
  const hl_wrapper *const *all = hl_ctx_wrappers(ctx, &n);
  for (size_t i = 0; i < n && !w; i++)
    if (!strcmp(all[i]->name, name)) w = all[i];
  free(name);
  return w;
}

/* The wrapper parameter i of every constructor of a class taking np
 * arguments (copies and moves aside) has, or NULL when they do not agree. */
static const hl_wrapper *ctor_wrapper(hl_ctx *ctx, const ctors *C, CXType cls, int pattern, int np, int i,
                                      CXType *wtype) {
  const hl_wrapper *w = NULL;
  for (size_t k = 0; k < C->n; k++) {
    CXType fty = clang_getCursorType(C->v[k]);
    if (clang_getNumArgTypes(fty) != np) continue;
    if (clang_CXXConstructor_isCopyConstructor(C->v[k]) || clang_CXXConstructor_isMoveConstructor(C->v[k])) continue;
    if (np == 1 && hl_same_class(param_in(cls, clang_getArgType(fty, 0), pattern), cls)) continue;
    CXType pt = param_in(cls, clang_getArgType(fty, (unsigned)i), pattern);
    if (pt.kind == CXType_Invalid) return NULL;
    const hl_wrapper *cw = hl_sbo_wrapper_of(ctx, pt);
    if (!cw || (w && (cw != w || !clang_equalTypes(clang_getCanonicalType(pt), clang_getCanonicalType(*wtype)))))
      return NULL;
    w = cw;
    *wtype = pt;
  }
  return w;
}

/* The constructors of cls (read from its class template for an implicit
 * instantiation); 0 when it has a constructor template or none. */
static int built_ctors(CXType cls, ctors *C, int *from_pattern) {
  memset(C, 0, sizeof *C);
  CXCursor decl = clang_getTypeDeclaration(cls), pattern = clang_getSpecializedCursorTemplate(decl);
  clang_visitChildren(decl, list_ctor, C);
  /* The pattern's parameters are the class's template arguments only when
   * no enclosing class template adds parameters of its own. */
  enum CXCursorKind outer = clang_getCursorKind(clang_getCursorSemanticParent(pattern));
  *from_pattern = C->n == 0 && !C->templated && clang_getCursorKind(pattern) == CXCursor_ClassTemplate &&
                  (outer == CXCursor_Namespace || outer == CXCursor_TranslationUnit);
  if (*from_pattern) clang_visitChildren(pattern, list_ctor, C);
  return !C->templated && C->n > 0;
}

const hl_wrapper *hl_sbo_built_wrapper(hl_ctx *ctx, CXCursor call, int i, CXType *wtype) {
  CXCursor callee = hl_strip(hl_first_child(call));
  if (clang_getCursorKind(callee) != CXCursor_MemberRefExpr) return NULL;
  /* An unresolved member call names an overload set: its first member. */
  CXCursor named = clang_getCursorReferenced(callee);
  if (clang_getCursorKind(named) == CXCursor_OverloadedDeclRef && clang_getNumOverloadedDecls(named) > 0)
    named = clang_getOverloadedDecl(named, 0);
  char *member = hl_cxstring_take(clang_getCursorSpelling(clang_Cursor_isNull(named) ? callee : named));
  int positional = !strcmp(member, "emplace") || !strcmp(member, "emplace_after");
  int ok = positional || !strcmp(member, "emplace_back") || !strcmp(member, "emplace_front");
  free(member);
  CXType ot = hl_unref(clang_getCursorType(hl_strip(hl_first_child(callee))));
  if (ot.kind == CXType_Pointer) ot = clang_getPointeeType(ot);
  ot = clang_getCanonicalType(ot);
  if (!ok || ot.kind != CXType_Record || hl_type_is_dependent(ot)) return NULL;
  char *cname = hl_class_name(ot);
  ok = hl_str_in(cname, built_in_sequences, 4);
  free(cname);
  CXType cls = ok ? clang_getCanonicalType(clang_Type_getTemplateArgumentAsType(ot, 0)) : ot;
  ctors C;
  int from_pattern, np = clang_Cursor_getNumArguments(call) - positional;
  if (!ok || cls.kind != CXType_Record || hl_ctx_wrapper_of_type(ctx, cls) || i < positional || np < 2 ||
      !built_ctors(cls, &C, &from_pattern))
    return NULL;
  return ctor_wrapper(ctx, &C, cls, from_pattern, np, i - positional, wtype);
}

const hl_wrapper *hl_sbo_ctor_wrapper(hl_ctx *ctx, CXType cls, int np, int i, CXType *wtype) {
  cls = clang_getCanonicalType(hl_unref(cls));
  ctors C;
  int from_pattern = 0;
  if (hl_type_is_dependent(cls)) {
    /* Worker<T>: its class template's constructors as written. */
    CXCursor decl = clang_getTypeDeclaration(cls);
    if (clang_getCursorKind(decl) != CXCursor_ClassTemplate) return NULL;
    memset(&C, 0, sizeof C);
    clang_visitChildren(decl, list_ctor, &C);
    if (C.templated || !C.n) return NULL;
  } else if (cls.kind != CXType_Record || hl_ctx_wrapper_of_type(ctx, cls) || !built_ctors(cls, &C, &from_pattern)) {
    return NULL;
  }
  if (np < 1 || i < 0 || i >= np || hl_sbo_wrapper_of(ctx, cls)) return NULL;
  return ctor_wrapper(ctx, &C, cls, from_pattern, np, i, wtype);
}

/* v.emplace_back(a, f), std::make_shared<T>(a, f): the library builds a T
 * from the arguments, and when every constructor of T that takes that many
 * takes a wrapper at f's place (T has no constructor template), f is
 * converted to that wrapper inside the library: a store, whatever T is
 * (taskflow's std::vector<tf::Pipe<std::function<...>>>). */
size_t hl_sbo_built_sites(hl_ctx *ctx, CXCursor c, hl_sbo_site **out) {
  *out = NULL;
  CXCursor fn = clang_getCursorReferenced(c);
  CXType t;
  int first;
  if (!built_class(fn, &t, &first)) return 0;
  CXType cls = clang_getCanonicalType(t);
  if (cls.kind != CXType_Record || hl_ctx_wrapper_of_type(ctx, cls)) return 0;
  ctors C;
  int from_pattern;
  int nargs = clang_Cursor_getNumArguments(c), np = nargs - first;
  if (!built_ctors(cls, &C, &from_pattern) || np < 1) return 0;
  size_t n = 0, cap = 0;
  for (int i = 0; i < np; i++) {
    CXType wtype = {CXType_Invalid, {0, 0}};
    const hl_wrapper *w = ctor_wrapper(ctx, &C, cls, from_pattern, np, i, &wtype);
    if (!w) continue;
    CXCursor arg = clang_Cursor_getArgument(c, (unsigned)(first + i));
    /* One T: its implicit copy or move constructor, which libclang does not list. */
    if (np == 1 && hl_same_class(clang_getCursorType(arg), cls)) continue;
    hl_sbo_site s;
    if (hl_sbo_fill_site(ctx, &s, c, w, wtype, clang_getCursorType(arg), arg, arg)) {
      s.call = c;
      s.store_kind = HL_STORE_OTHER;
      HL_PUSH(*out, n, cap, s);
    }
  }
  return n;
}

size_t hl_sbo_field_types(CXType t, CXType **out) {
  field_types F = {0};
  clang_Type_visitFields(t, list_field_type, &F);
  *out = F.v;
  return F.n;
}

void hl_sbo_site_free(hl_sbo_site *s) {
  free(s->untargeted);
  hl_retype_param_free(&s->param);
  free(s->convert_type);
  free(s->wrapper_spelling);
  free(s->signature);
  hl_loc_free(&s->loc);
  for (size_t i = 0; i < s->ncaptures; i++) free(s->captures[i]);
  free(s->captures);
}
