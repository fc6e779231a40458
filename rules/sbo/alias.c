#include "rules/sbo/alias.h"

#include <stdlib.h>
#include <string.h>

#include "rules/lib/retype.h"
#include "rules/lib/rewrite.h"
#include "rules/lib/runtime_std.h"
#include "rules/lib/uses.h"
#include "rules/sbo/judge.h"
#include "rules/sbo/match.h"
#include "util/strv.h"
#include "util/util.h"

/* The wrapper of rule that t is exactly (canonically), or NULL. */
static const hl_wrapper *wrapper_of(const hl_ctx *ctx, const char *rule, CXType t) {
  const hl_wrapper *w = hl_ctx_wrapper_of_type(ctx, clang_getCanonicalType(t));
  return w && !strcmp(w->rule, rule) ? w : NULL;
}

static int is_alias_decl(CXCursor c) {
  enum CXCursorKind k = clang_getCursorKind(c);
  return k == CXCursor_TypeAliasDecl || k == CXCursor_TypedefDecl;
}

/* ---- recording, during the walk ---- */

/* The include a's file needs, and why this unit cannot take the rewrite
 * (its standard, the runtime's header out of reach). */
static void finish(hl_ctx *ctx, hl_salias *a) {
  if (a->type.file && hl_rewrite_include(ctx, a->type.file, a->header, &a->include) != 0) {
    hl_edit_free(&a->include);
    a->include = (hl_edit){0};
  }
  /* The standard is asked of the compiler (a parse more): not for every
   * function with a wrapper parameter. A parameter's function_ref needs
   * C++11, which --fix's parse of the units it reaches checks anyway. */
  if (!a->blocked && !a->param) a->blocked = hl_runtime_std_blocked(ctx, a->header);
  if (!a->blocked) a->blocked = hl_runtime_unreachable(ctx, a->header);
}

/* Where decl's type writes the wrapper w (a's type and written), or why
 * heaplint may not edit it (a's blocked). Returns 1 when decl writes it
 * through an alias instead (the alias's rewrite is the one), else 0. */
static int decl_range(hl_ctx *ctx, CXCursor decl, const hl_wrapper *w, hl_salias *a) {
  char *alias = NULL, *reason = NULL;
  int range = hl_rewrite_template_range(ctx, decl, w->name, &a->type, &a->written, &alias, &reason);
  free(alias);
  if (range < 0) {
    hl_edit_free(&a->type);
    a->type = (hl_edit){0};
    a->blocked = reason ? reason : hl_xstrdup("heaplint cannot find where its type is written");
  } else {
    free(reason);
  }
  return range == 1;
}

static void record_alias(hl_ctx *ctx, hl_summary *sum, const char *rule, const hl_sbo_wording *wd, CXCursor c) {
  CXType under = clang_getTypedefDeclUnderlyingType(c);
  const hl_wrapper *w = wrapper_of(ctx, rule, under);
  if (!w) return;
  char *usr = hl_cxstring_take(clang_getCursorUSR(c));
  for (size_t i = 0; i < sum->naliases && *usr; i++)
    if (!strcmp(sum->aliases[i].usr, usr)) *usr = '\0';
  hl_sbo_site probe = {0};
  char *display;
  probe.wrapper = w;
  hl_sbo_wrapper_words(w, under, &display, &probe.signature);
  const char *repl = wd->replacement(&probe);
  hl_salias a = {0};
  if (!*usr || !repl || strstr(display, "type-parameter-") || hl_ctx_loc(ctx, clang_getCursorLocation(c), &a.at)) {
    free(usr);
    free(display);
    free(probe.signature);
    return;
  }
  free(probe.signature);
  a.usr = usr;
  a.name = hl_decl_name(c);
  a.key = hl_xstrdup(display);
  a.wrapper = display;
  a.replacement = hl_xstrdup(repl);
  a.header = hl_xstrdup(wd->header);
  char *why = NULL;
  if (hl_rewrite_type(ctx, c, w->name, &a.type, &a.written, &why)) {
    hl_edit_free(&a.type);
    a.type = (hl_edit){0};
    a.blocked = why ? why : hl_xstrdup("heaplint cannot find where its type is written");
  }
  finish(ctx, &a);
  HL_PUSH(sum->aliases, sum->naliases, sum->capaliases, a);
}

/* The wrappers of rule made from template tmpl inside type t, into out. */
static void wrappers_in(const hl_ctx *ctx, const char *rule, CXCursor tmpl, CXType t, hl_strv *out, int depth) {
  if (depth > 8 || t.kind == CXType_Invalid) return;
  t = clang_getCanonicalType(t);
  switch (t.kind) {
  case CXType_Pointer:
  case CXType_LValueReference:
  case CXType_RValueReference:
  case CXType_MemberPointer: wrappers_in(ctx, rule, tmpl, clang_getPointeeType(t), out, depth + 1); return;
  case CXType_ConstantArray:
  case CXType_IncompleteArray:
  case CXType_VariableArray:
  case CXType_DependentSizedArray: wrappers_in(ctx, rule, tmpl, clang_getArrayElementType(t), out, depth + 1); return;
  case CXType_FunctionProto:
  case CXType_FunctionNoProto: {
    wrappers_in(ctx, rule, tmpl, clang_getResultType(t), out, depth + 1);
    int n = clang_getNumArgTypes(t);
    for (int i = 0; i < n; i++) wrappers_in(ctx, rule, tmpl, clang_getArgType(t, (unsigned)i), out, depth + 1);
    return;
  }
  case CXType_Record: {
    /* Without its qualifiers (const std::function<...>): its declaration's type. */
    CXCursor decl = clang_getTypeDeclaration(t);
    if (!clang_Cursor_isNull(decl) && clang_getCursorType(decl).kind != CXType_Invalid) t = clang_getCursorType(decl);
    const hl_wrapper *w = wrapper_of(ctx, rule, t);
    /* The primary template (libstdc++'s std::function<R(A...)> is a
     * partial specialization of it). */
    CXCursor made = clang_getSpecializedCursorTemplate(decl);
    for (int i = 0; i < 4 && clang_getCursorKind(made) == CXCursor_ClassTemplatePartialSpecialization; i++)
      made = clang_getSpecializedCursorTemplate(made);
    made = clang_getCanonicalCursor(made);
    if (w && clang_equalCursors(made, tmpl)) {
      char *display, *sig;
      hl_sbo_wrapper_words(w, t, &display, &sig);
      if (!strstr(display, "type-parameter-")) hl_strv_add_unique(out, display);
      free(display);
      free(sig);
    }
    int n = clang_Type_getNumTemplateArguments(t);
    for (int i = 0; i < n; i++)
      wrappers_in(ctx, rule, tmpl, clang_Type_getTemplateArgumentAsType(t, (unsigned)i), out, depth + 1);
    return;
  }
  default: return;
  }
}

/* ref names a wrapper's class template where the code writes a type out:
 * the wrapper types written there (found in the type of what encloses it:
 * a declaration, a cast), each once per unit. An alias of exactly the
 * wrapper is not a spelling: it is what API rewrites retype. */
static void record_spelling(hl_ctx *ctx, hl_summary *sum, const char *rule, CXCursor ref) {
  CXCursor tmpl = clang_getCanonicalCursor(clang_getCursorReferenced(ref));
  if (clang_getCursorKind(tmpl) != CXCursor_ClassTemplate) return;
  hl_strv found = {0};
  for (size_t k = 0; k < 3 && !found.n; k++) {
    CXCursor a = hl_ctx_ancestor(ctx, k);
    if (clang_Cursor_isNull(a)) break;
    enum CXCursorKind ak = clang_getCursorKind(a);
    if (is_alias_decl(a) && wrapper_of(ctx, rule, clang_getTypedefDeclUnderlyingType(a))) return;
    CXType t = clang_getCursorType(a);
    /* A function's own type holds its parameters' (written elsewhere,
     * perhaps through the alias): only its result is written here. */
    if (ak == CXCursor_FunctionDecl || ak == CXCursor_CXXMethod || ak == CXCursor_FunctionTemplate ||
        ak == CXCursor_ConversionFunction)
      t = clang_getResultType(t);
    wrappers_in(ctx, rule, tmpl, t, &found, 0);
  }
  hl_loc at;
  if (found.n && !hl_ctx_loc(ctx, clang_getCursorLocation(ref), &at)) {
    for (size_t i = 0; i < found.n; i++) {
      int seen = 0;
      for (size_t k = 0; k < sum->nspellings && !seen; k++) seen = !strcmp(sum->spellings[k].wrapper, found.v[i]);
      if (seen) continue;
      hl_sspelling p = {hl_xstrdup(found.v[i]), hl_loc_copy(&at)};
      HL_PUSH(sum->spellings, sum->nspellings, sum->capspellings, p);
    }
    hl_loc_free(&at);
  }
  hl_strv_free(&found);
}

/* ---- a function's parameter: only called, it can be a function_ref ---- */

#define FUNCTION_REF "hl::function_ref"
#define FUNCTION_REF_HEADER "heaplint/function_ref.hpp"

/* The wrapper of rule a declaration's type is, by value or reference
 * (const or not); *wtype its type. */
static const hl_wrapper *param_wrapper(const hl_ctx *ctx, const char *rule, CXCursor p, CXType *wtype) {
  CXType t = clang_getCanonicalType(hl_unref(clang_getCursorType(p)));
  CXCursor decl = clang_getTypeDeclaration(t);
  if (clang_Cursor_isNull(decl)) return NULL;
  *wtype = clang_getCursorType(decl);
  return wrapper_of(ctx, rule, *wtype);
}

static void record_params(hl_ctx *ctx, hl_summary *sum, const char *rule, const hl_sbo_wording *wd, CXCursor fn) {
  if (clang_getCursorKind(fn) == CXCursor_CXXMethod && clang_CXXMethod_isVirtual(fn)) return;
  char *fusr = hl_cxstring_take(clang_getCursorUSR(fn));
  int n = clang_Cursor_getNumArguments(fn), defined = clang_isCursorDefinition(fn);
  for (int i = 0; *fusr && i < n; i++) {
    CXCursor p = clang_Cursor_getArgument(fn, (unsigned)i);
    CXType wtype;
    const hl_wrapper *w = param_wrapper(ctx, rule, p, &wtype);
    hl_sbo_site probe = {0};
    char *display = NULL;
    if (w) {
      probe.wrapper = w;
      hl_sbo_wrapper_words(w, wtype, &display, &probe.signature);
    }
    hl_salias a = {0};
    /* Not a wrapper, or written through an alias: the alias's. */
    int skip = !(w && probe.signature && wd->replacement(&probe) && !strstr(display, "type-parameter-") &&
                 !hl_ctx_loc(ctx, clang_getCursorLocation(p), &a.at)) ||
               decl_range(ctx, p, w, &a);
    free(probe.signature);
    if (skip) {
      free(display);
      hl_salias_free(&a);
      continue;
    }
    a.param = defined ? 2 : 1;
    a.usr = hl_slot_param_usr(fusr, i);
    a.key = hl_slot_param(fusr, i);
    char *api = hl_retype_api_name(fn), *pname = hl_cxstring_take(clang_getCursorSpelling(p));
    a.name = *pname ? hl_xasprintf("'%s' of %s", pname, api) : hl_xasprintf("%d of %s", i + 1, api);
    free(api);
    free(pname);
    a.wrapper = display;
    a.replacement = hl_xstrdup(FUNCTION_REF);
    a.header = hl_xstrdup(FUNCTION_REF_HEADER);
    finish(ctx, &a);
    HL_PUSH(sum->aliases, sum->naliases, sum->capaliases, a);
  }
  free(fusr);
}

/* Whether ref (the parameter index of fn) is handed, as it is or copied,
 * to the same parameter of fn itself: a recursive call, which passes the
 * function_ref on as it was passed in. */
static int passed_to_itself(const hl_ctx *ctx, CXCursor ref, CXCursor fn, int index) {
  size_t k = 0;
  CXCursor below, p = hl_ctx_opaque_ancestor(ctx, &k, ref, &below);
  if (clang_getCursorKind(p) == CXCursor_CallExpr &&
      clang_getCursorKind(clang_getCursorReferenced(p)) == CXCursor_Constructor) {
    k++;
    p = hl_ctx_opaque_ancestor(ctx, &k, p, &below);
  }
  if (clang_getCursorKind(p) != CXCursor_CallExpr || index >= clang_Cursor_getNumArguments(p) ||
      !clang_equalCursors(clang_getCanonicalCursor(clang_getCursorReferenced(p)), clang_getCanonicalCursor(fn)))
    return 0;
  return clang_equalRanges(clang_getCursorExtent(clang_Cursor_getArgument(p, (unsigned)index)),
                           clang_getCursorExtent(below));
}

/* Whether ref, a use of parameter a, moves or copies it whole into a
 * member of its type in the constructor's initializer list: then a->into
 * names the member (a second member blocks it: one flow per rewrite). */
static int moved_into_member(hl_ctx *ctx, hl_salias *a, CXCursor ref) {
  CXCursor m = hl_retype_member_init(ctx, ref);
  if (clang_Cursor_isNull(m)) return 0;
  char *usr = hl_cxstring_take(clang_getCursorUSR(m)), *key = *usr ? hl_slot_member(usr) : NULL;
  free(usr);
  if (!key) return 0;
  if (!a->into) {
    a->into = key;
    return 1;
  }
  if (strcmp(a->into, key)) {
    char *name = hl_decl_name(m);
    a->blocked = hl_xasprintf("its value goes into more than one member ('%s' too)", name);
    free(name);
  }
  free(key);
  return 1;
}

/* A use in a function's body of one of its parameters: anything but a call
 * (or a recursive call's passing it on) keeps it from becoming a
 * function_ref (which holds no callable of its own, cannot be tested or
 * stored beyond the call). */
static void param_use(hl_ctx *ctx, hl_summary *sum, CXCursor ref) {
  CXCursor p = clang_getCursorReferenced(ref);
  if (clang_getCursorKind(p) != CXCursor_ParmDecl) return;
  CXCursor fn = clang_getCursorSemanticParent(p);
  int n = clang_Cursor_getNumArguments(fn), index = -1;
  for (int i = 0; i < n && index < 0; i++)
    if (clang_equalCursors(clang_Cursor_getArgument(fn, (unsigned)i), p)) index = i;
  if (index < 0) return;
  char *fusr = hl_cxstring_take(clang_getCursorUSR(fn)), *usr = hl_slot_param_usr(fusr, index);
  hl_salias *a = NULL;
  for (size_t i = sum->naliases; i-- > 0 && !a;)
    if (sum->aliases[i].param == 2 && !strcmp(sum->aliases[i].usr, usr)) a = &sum->aliases[i];
  hl_use u;
  if (a && !a->blocked && moved_into_member(ctx, a, ref)) {
    /* Retyped with the member (hl_salias.into). */
  } else if (a && !a->blocked && !passed_to_itself(ctx, ref, fn, index) && !hl_use_of(ctx, ref, &u)) {
    if (u.kind != HL_USE_MEMBER || strcmp(u.method_name, "operator()")) {
      char *at = hl_loc_where(&u.loc);
      a->blocked = u.kind == HL_USE_MEMBER
                       ? hl_xasprintf("the function calls its %s() at %s", u.method_name, at)
                       : hl_xasprintf("it is %s at %s", u.kind == HL_USE_ESCAPE ? u.how : "used", at);
      free(at);
    }
    hl_use_free(&u);
  }
  free(fusr);
  free(usr);
}

void hl_sbo_alias_visit(hl_ctx *ctx, const char *rule, const hl_sbo_wording *wd, CXCursor c) {
  hl_summary *sum = hl_ctx_summary(ctx);
  if (!sum || !wd->replacement) return;
  enum CXCursorKind k = clang_getCursorKind(c);
  if (is_alias_decl(c))
    record_alias(ctx, sum, rule, wd, c);
  else if (k == CXCursor_TemplateRef)
    record_spelling(ctx, sum, rule, c);
  else if (k == CXCursor_FunctionDecl || k == CXCursor_CXXMethod || k == CXCursor_Constructor)
    record_params(ctx, sum, rule, wd, c);
  else if (k == CXCursor_DeclRefExpr)
    param_use(ctx, sum, c);
}

/* The wrapper of rule that decl's type is, or holds as a standard
 * container's element (or mapped) type; *wtype its type. */
static const hl_wrapper *member_wrapper(const hl_ctx *ctx, const char *rule, CXCursor decl, CXType *wtype) {
  CXType t = clang_getCanonicalType(clang_getCursorType(decl));
  const hl_wrapper *w = wrapper_of(ctx, rule, t);
  *wtype = t;
  int n = clang_Type_getNumTemplateArguments(t);
  for (int i = 0; !w && i < n && i < 2; i++) {
    *wtype = clang_Type_getTemplateArgumentAsType(t, (unsigned)i);
    w = wrapper_of(ctx, rule, *wtype);
  }
  return w;
}

void hl_sbo_member_record(hl_ctx *ctx, const char *rule, const hl_sbo_wording *wd, CXCursor decl, const char *blocked,
                          const CXCursor *partners, size_t npartners) {
  hl_summary *sum = hl_ctx_summary(ctx);
  CXType wtype;
  const hl_wrapper *w = sum && wd->replacement ? member_wrapper(ctx, rule, decl, &wtype) : NULL;
  if (!w) return;
  char *usr = hl_cxstring_take(clang_getCursorUSR(decl));
  for (size_t i = 0; i < sum->naliases && *usr; i++)
    if (!strcmp(sum->aliases[i].usr, usr)) *usr = '\0';
  hl_salias a = {0};
  hl_sbo_site probe = {0};
  char *display;
  probe.wrapper = w;
  hl_sbo_wrapper_words(w, wtype, &display, &probe.signature);
  const char *repl = wd->replacement(&probe);
  free(probe.signature);
  /* Written through an alias: the alias's rewrite is the one. */
  if (!*usr || !repl || strstr(display, "type-parameter-") || hl_ctx_loc(ctx, clang_getCursorLocation(decl), &a.at) ||
      decl_range(ctx, decl, w, &a)) {
    free(usr);
    free(display);
    hl_salias_free(&a);
    return;
  }
  if (!a.blocked && blocked) a.blocked = hl_xstrdup(blocked);
  /* Each partner's type, edited with the member's. */
  for (size_t i = 0; i < npartners && !a.blocked; i++) {
    hl_edit e;
    char *written = NULL, *palias = NULL, *preason = NULL;
    if (hl_rewrite_template_range(ctx, partners[i], w->name, &e, &written, &palias, &preason) == 0) {
      e.text = written;
      HL_PUSH(a.extra, a.nextra, a.capextra, e);
    } else {
      hl_edit_free(&e);
      free(written);
      char *name = hl_cxstring_take(clang_getCursorSpelling(partners[i]));
      a.blocked = hl_xasprintf("its value moves into '%s', whose type heaplint cannot rewrite%s%s", name,
                               preason || palias ? ": " : "",
                               preason  ? preason
                               : palias ? "it is written through an alias"
                                        : "");
      free(name);
    }
    free(palias);
    free(preason);
  }
  a.member = 1;
  a.usr = usr;
  a.key = hl_slot_member(usr);
  a.name = hl_decl_name(decl);
  a.wrapper = display;
  a.replacement = hl_xstrdup(repl);
  a.header = hl_xstrdup(wd->header);
  finish(ctx, &a);
  HL_PUSH(sum->aliases, sum->naliases, sum->capaliases, a);
}

/* ---- const captures: what keeps a lambda from moving without throwing ---- */

typedef struct capwalk {
  hl_ctx *ctx;
  const hl_sbo_site *s;
  size_t index;
  int fixable;
  hl_strv names; /* the captures to make init-captures */
} capwalk;

/* A closure field: nothrow movable as it is, or only once it is not const
 * (then its capture, named, goes on the list); anything else is not fixable. */
static enum CXVisitorResult cap_field(CXCursor field, CXClientData data) {
  capwalk *w = data;
  size_t i = w->index++;
  CXType ft = clang_getCursorType(field);
  if (ft.kind == CXType_LValueReference || ft.kind == CXType_RValueReference) return CXVisit_Continue;
  CXCursor decl = clang_getTypeDeclaration(ft);
  int konst = clang_isConstQualifiedType(ft) && !clang_Cursor_isNull(decl);
  hl_traits tr = {0};
  hl_type_traits(hl_ctx_types(w->ctx), konst ? clang_getCursorType(decl) : ft, 0, NULL, 0, &tr);
  const char *name = i < w->s->ncaptures ? w->s->captures[i] : NULL;
  if (tr.nothrow_move.value != HL_YES)
    w->fixable = 0;
  else if (konst && name && strcmp(name, "this"))
    hl_strv_add(&w->names, name);
  else if (konst)
    w->fixable = 0;
  hl_traits_free(&tr);
  return w->fixable ? CXVisit_Continue : CXVisit_Break;
}

/* The insertion " = name" after the plain by-copy capture name in lambda's
 * capture list, into e; 0, or -1 when it is not written so ([=], a macro). */
static int init_capture(hl_ctx *ctx, CXCursor lambda, const char *name, hl_edit *e) {
  CXToken *tok;
  unsigned n;
  CXTranslationUnit tu = hl_ctx_tu(ctx);
  clang_tokenize(tu, clang_getCursorExtent(lambda), &tok, &n);
  int rc = -1, depth = 0;
  for (unsigned k = 0; k < n && rc < 0; k++) {
    char *t = hl_cxstring_take(clang_getTokenSpelling(tu, tok[k]));
    int open = !strcmp(t, "[") || !strcmp(t, "(") || !strcmp(t, "{"),
        close = !strcmp(t, "]") || !strcmp(t, ")") || !strcmp(t, "}");
    if (k == 0 && strcmp(t, "[")) {
      free(t);
      break;
    }
    depth += open - close;
    if (depth == 0) {
      free(t);
      break; /* the end of the capture list */
    }
    if (depth == 1 && k > 0 && k + 1 < n && clang_getTokenKind(tok[k]) == CXToken_Identifier && !strcmp(t, name)) {
      char *before = hl_cxstring_take(clang_getTokenSpelling(tu, tok[k - 1]));
      char *after = hl_cxstring_take(clang_getTokenSpelling(tu, tok[k + 1]));
      CXFile f;
      unsigned off;
      if ((!strcmp(before, "[") || !strcmp(before, ",")) && (!strcmp(after, ",") || !strcmp(after, "]")) &&
          hl_rewrite_spelled_at(clang_getRangeEnd(clang_getTokenExtent(tu, tok[k])), &f, &off) &&
          !hl_rewrite_span(ctx, f, off, off, e)) {
        e->text = hl_xasprintf(" = %s", name);
        rc = 0;
      }
      free(before);
      free(after);
    }
    free(t);
  }
  clang_disposeTokens(tu, tok, n);
  return rc;
}

/* A lambda whose move may throw only because it captures const copies of
 * classes that move without throwing: the edits that make those captures
 * init-captures (non-const copies) into x. */
static void const_captures(hl_ctx *ctx, const hl_sbo_site *s, hl_svalue *x) {
  if (clang_Cursor_isNull(s->lambda) || !s->captures || s->stored.kind == CXType_Invalid) return;
  capwalk w = {ctx, s, 0, 1, {0}};
  clang_Type_visitFields(clang_getCanonicalType(hl_unref(s->stored)), cap_field, &w);
  for (size_t i = 0; w.fixable && i < w.names.n; i++) {
    hl_edit e;
    if (init_capture(ctx, s->lambda, w.names.v[i], &e)) {
      w.fixable = 0;
      break;
    }
    HL_PUSH(x->fixes, x->nfixes, x->capfixes, e);
  }
  x->move_fixed = w.fixable && w.names.n;
  if (!x->move_fixed) {
    for (size_t i = 0; i < x->nfixes; i++) hl_edit_free(&x->fixes[i]);
    free(x->fixes);
    x->fixes = NULL;
    x->nfixes = x->capfixes = 0;
  }
  hl_strv_free(&w.names);
}

void hl_sbo_alias_value(hl_ctx *ctx, const hl_sbo_wording *wd, const hl_sbo_site *s, const hl_sbo_verdict *v,
                        const hl_loc *store, CXCursor member) {
  hl_summary *sum = hl_ctx_summary(ctx);
  if (!sum || s->convert || !s->wrapper || !wd->replacement || !wd->replacement(s) ||
      strstr(s->wrapper_spelling, "type-parameter-"))
    return;
  char *usr = clang_Cursor_isNull(member) ? NULL : hl_cxstring_take(clang_getCursorUSR(member));
  hl_svalue x = {.wrapper = usr ? hl_slot_member(usr) : hl_xstrdup(s->wrapper_spelling),
                 .at = hl_loc_copy(&s->loc),
                 .store = hl_loc_copy(store ? store : &s->loc),
                 .dependent = store && v->allocates == HL_UNKNOWN,
                 .size = v->size,
                 .align = v->align};
  /* A wrapper stored into a wrapper keeps its own heap, and the
   * replacement rejects it: not a value any capacity holds. */
  int wrapper = s->stored.kind != CXType_Invalid &&
                hl_ctx_wrapper_of_type(ctx, clang_getCanonicalType(hl_unref(s->stored))) != NULL;
  x.known = v->allocates != HL_UNKNOWN && !wrapper;
  x.allocates = v->allocates == HL_YES;
  x.move_throws = (wd->replacement_requires & HL_REQ_NOTHROW_MOVE) && v->traits.nothrow_move.value != HL_YES;
  if (x.known && x.move_throws) const_captures(ctx, s, &x);
  HL_PUSH(sum->values, sum->nvalues, sum->capvalues, x);
  /* A member's value is one of its wrapper type too (for an alias). */
  if (usr) hl_sbo_alias_value(ctx, wd, s, v, store, clang_getNullCursor());
  free(usr);
  /* And one passed to a parameter: the parameter's (for function_ref). */
  if (!usr && s->param.usr) {
    hl_svalue y = {0};
    y.wrapper = hl_slot_param(s->param.usr, s->param.index);
    y.at = hl_loc_copy(&s->loc);
    y.store = hl_loc_copy(&s->loc);
    y.known = 1;
    y.allocates = v->allocates == HL_YES;
    y.size = v->size;
    y.align = v->align;
    HL_PUSH(sum->values, sum->nvalues, sum->capvalues, y);
  }
}

/* ---- the plan, over the project index ---- */

/* "src/a.cc:12" */
static char *where(const hl_loc *l) { return hl_loc_where(l); }

/* The qualified name a public-api glob is matched against: the alias's
 * or member's, or a parameter's function ("'cb' of Loop::post(...)" gives
 * "Loop::post"). Caller frees. */
static char *api_name(const hl_salias *a) {
  if (!a->param) return hl_xstrdup(a->name);
  const char *of = strstr(a->name, " of ");
  const char *q = of ? of + 4 : a->name;
  const char *op = strstr(q, "operator()");
  const char *paren = strchr(op ? op + strlen("operator()") : q, '(');
  return paren ? hl_xstrndup(q, (size_t)(paren - q)) : hl_xstrdup(q);
}

/* The configuration's word on v's declaration: public-api leaves it alone. */
static char *policy_refusal(const hl_alias_view *v, const hl_plan_policy *policy) {
  if (!policy || !policy->public_api || !v->alias.at.file) return NULL;
  char *name = api_name(&v->alias);
  const char *glob = policy->public_api(policy->data, v->alias.at.file, name);
  char *r =
      glob ? hl_xasprintf("the configuration names %s as public API (public-api: '%s'), which rewrites leave alone",
                          name, glob)
           : NULL;
  free(name);
  return r;
}

/* Why v's alias is not retyped, or NULL (caller frees). */
static char *refusal(const hl_alias_view *v, const hl_plan_policy *policy) {
  char *at = NULL, *r = policy_refusal(v, policy);
  if (r) return r;
  if (v->alias.param && !v->defined)
    return hl_xstrdup("no unit of the compile database defines its function, so what it does with it is not known");
  if (v->blocked) return hl_xstrdup(v->blocked);
  if (v->alias.param) return NULL;
  if (v->alias.blocked) return hl_xstrdup(v->alias.blocked);
  if (!v->alias.type.file || !v->alias.written) return hl_xstrdup("heaplint cannot find where its type is written");
  if (v->unknown_at.file) {
    at = where(&v->unknown_at);
    r = hl_xasprintf("a value whose size heaplint does not know is stored into %s at %s", v->alias.wrapper, at);
  } else if (v->fixes_unreadable) {
    r = hl_xasprintf("the index holds edits for a value stored into it that it cannot read; run heaplint again");
  } else if (v->throws_at.file) {
    at = where(&v->throws_at);
    r = hl_xasprintf("%s rejects a target whose move may throw, and the value stored at %s may", v->alias.replacement,
                     at);
  } else if (v->spelled_at.file) {
    at = where(&v->spelled_at);
    r = hl_xasprintf("%s is also written out without the alias at %s, and values would pass between the two types",
                     v->alias.wrapper, at);
  }
  free(at);
  return r;
}

/* "hl::function_ref<void()>" from the wrapper as written
 * ("std::function<void()>"), or NULL. Caller frees. */
static char *function_ref_type(const char *written) {
  const char *lt = written ? strchr(written, '<') : NULL;
  return lt ? hl_xasprintf("%s%s", FUNCTION_REF, lt) : NULL;
}

/* A parameter the function only calls: every declaration of it becomes a
 * function_ref, which refers to the caller's callable instead of holding
 * it, or a note says why not. */
static void plan_param(const hl_alias_view *v, const hl_plan_policy *policy, const char *rule, hl_findings *out) {
  char *why = refusal(v, policy);
  if (!why && v->alias.into)
    why = hl_xstrdup("its value moves into a member that no unit of the compile database otherwise uses");
  char *type = why ? NULL : function_ref_type(v->alias.written);
  if (!why && !type) why = hl_xstrdup("heaplint cannot read its type as written");
  char *counts = hl_xasprintf("%zu value%s passed to it that %s on the heap today (in %zu file%s)", v->allocating,
                              v->allocating == 1 ? "" : "s", v->allocating == 1 ? "goes" : "go", v->files,
                              v->files == 1 ? "" : "s");
  char *m = why ? hl_xasprintf(
                      "the parameter %s is not made a function_ref, which would leave on the caller's side "
                      "the %s: %s",
                      v->alias.name, counts, why)
                : hl_xasprintf(
                      "pass the parameter %s as %s: the function only calls it, so the %s %s where %s made "
                      "(the function refers to %s during the call); every declaration of the function "
                      "changes with it",
                      v->alias.name, type, counts, v->allocating == 1 ? "stays" : "stay",
                      v->allocating == 1 ? "it is" : "they are", v->allocating == 1 ? "it" : "them");
  hl_finding *f = hl_finding_new(rule, HL_SEV_NOTE, &v->alias.at, m);
  f->whole_project = 1;
  for (size_t i = 0; i < v->nsites; i++) hl_finding_note(f, &v->sites[i], "passed to it, on the heap today");
  for (size_t i = 0; type && i < v->nextra; i++) {
    hl_edit e = v->extra[i];
    e.text = function_ref_type(v->extra[i].text);
    if (e.text) hl_finding_edit(f, &e);
    free(e.text);
  }
  for (size_t i = 0; type && i < v->nincs; i++) hl_finding_edit(f, &v->incs[i]);
  hl_findings_add(out, f);
  free(m);
  free(counts);
  free(type);
  free(why);
}

/* The configuration's max-inline-capacity, when capacity exceeds it:
 * the refusal (caller frees), else NULL. */
static char *over_capacity(const hl_alias_view *v, const hl_plan_policy *policy, long capacity) {
  long max =
      policy && policy->max_capacity && v->alias.at.file ? policy->max_capacity(policy->data, v->alias.at.file) : 0;
  if (!max || capacity <= max) return NULL;
  return hl_xasprintf(
      "its values need a %ld-byte buffer (the largest %ld bytes), above the configuration's max-inline-capacity "
      "of %ld",
      capacity, v->size, max);
}

/* Two aliases of one wrapper type (using A = std::function<void()>;
 * using B = std::function<void()>;) name the same type: values pass
 * between them, so they are retyped together (to the same type: the
 * capacity is the wrapper type's) or not at all. */
static int same_type(const hl_alias_view *a, const hl_alias_view *b) {
  return !a->alias.member && !a->alias.param && !b->alias.member && !b->alias.param && a->alias.key && b->alias.key &&
         !strcmp(a->alias.key, b->alias.key);
}

/* Why an alias of v[i]'s type is not retyped, which keeps v[i] as it is
 * too, or NULL (caller frees); *grouped: v[i] has such partners. */
static char *partner_refusal(const hl_alias_view *v, size_t n, size_t i, const hl_plan_policy *policy, int *grouped) {
  *grouped = 0;
  for (size_t j = 0; j < n; j++) {
    if (j == i || !same_type(&v[i], &v[j])) continue;
    *grouped = 1;
    char *r = refusal(&v[j], policy);
    if (!r) r = over_capacity(&v[j], policy, hl_sbo_capacity(v[j].size));
    if (!r) continue;
    char *m = hl_xasprintf(
        "it names the same type as the alias '%s', and values pass between the two, but that "
        "one is not retyped: %s",
        v[j].alias.name, r);
    free(r);
    return m;
  }
  return NULL;
}

/* ---- parameters moved into a member: one rewrite ---- */

static hl_edit edit_dup(const hl_edit *e, const char *text) {
  hl_edit d = *e;
  d.file = hl_xstrdup(e->file);
  d.text = text ? hl_xstrdup(text) : NULL;
  return d;
}

/* Whether key is the member's or one of the parameters' moved into it. */
static int in_flow(const hl_alias_view *v, size_t n, const hl_alias_view *m, const char *key) {
  if (!strcmp(key, m->alias.key)) return 1;
  for (size_t j = 0; j < n; j++)
    if (v[j].alias.param && v[j].alias.into && !strcmp(v[j].alias.into, m->alias.key) && !strcmp(v[j].alias.key, key))
      return 1;
  return 0;
}

/* A wrapper from outside the flow (another wrapper object, a call's
 * result) that goes into slot key: converting it would keep its heap.
 * The refusal (caller frees), or NULL. */
static char *foreign_flow(const hl_index_lookup *ix, const hl_alias_view *v, size_t n, const hl_alias_view *m,
                          const char *key, const char *what) {
  hl_svalue *vals = NULL;
  hl_sflow *flows = NULL;
  size_t nvals = 0, nflows = 0;
  char *r = NULL;
  if (ix->slot) ix->slot(ix->data, key, &vals, &nvals, &flows, &nflows);
  for (size_t i = 0; i < nflows && !r; i++) {
    if (flows[i].from && in_flow(v, n, m, flows[i].from)) continue;
    char *at = where(&flows[i].at);
    r = hl_xasprintf("a %s whose target heaplint does not know goes into %s at %s (converted, it would keep its heap)",
                     m->alias.wrapper, what, at);
    free(at);
  }
  for (size_t i = 0; i < nvals; i++) hl_svalue_free(&vals[i]);
  for (size_t i = 0; i < nflows; i++) hl_sflow_free(&flows[i]);
  free(vals);
  free(flows);
  return r;
}

/* Parameter p's values and declarations added to member m's, which it
 * moves into: they are retyped together. */
static void merge_param(hl_alias_view *m, const hl_alias_view *p) {
  m->values += p->values;
  m->allocating += p->allocating;
  if (p->size > m->size) m->size = p->size;
  if (p->align > m->align) m->align = p->align;
  if (!m->unknown_at.file && p->unknown_at.file) m->unknown_at = hl_loc_copy(&p->unknown_at);
  if (!m->throws_at.file && p->throws_at.file) m->throws_at = hl_loc_copy(&p->throws_at);
  m->fixes_unreadable |= p->fixes_unreadable;
  m->fixed_values += p->fixed_values;
  size_t cap = m->nsites;
  for (size_t k = 0; k < p->nsites; k++) HL_PUSH(m->sites, m->nsites, cap, hl_loc_copy(&p->sites[k]));
  cap = m->nextra;
  for (size_t k = 0; k < p->nextra; k++) HL_PUSH(m->extra, m->nextra, cap, edit_dup(&p->extra[k], p->extra[k].text));
  cap = m->nfixes;
  for (size_t k = 0; k < p->nfixes; k++) HL_PUSH(m->fixes, m->nfixes, cap, edit_dup(&p->fixes[k], p->fixes[k].text));
  /* Each declaration's file includes the member's header instead. */
  char *inc = hl_xasprintf("#include <%s>\n", m->alias.header);
  cap = m->nincs;
  for (size_t k = 0; k < p->nincs; k++) HL_PUSH(m->incs, m->nincs, cap, edit_dup(&p->incs[k], inc));
  free(inc);
  /* Allocating files, counted again over the merged sites. */
  m->files = 0;
  for (size_t k = 0; k < m->nsites; k++) {
    size_t j = 0;
    while (j < k && strcmp(m->sites[j].file, m->sites[k].file)) j++;
    m->files += j == k;
  }
}

/* The parameters that move into member v[i]: their values merged into
 * v[i]'s, their names listed in *names ("the parameter 'cb' of
 * Timer::Timer(...)"); the first reason one of them, or a foreign wrapper
 * going into the flow, keeps them all as they are (caller frees), or NULL. */
static char *link_params(const hl_index_lookup *ix, hl_alias_view *v, size_t n, size_t i, const hl_plan_policy *policy,
                         hl_sb *names) {
  char *why = foreign_flow(ix, v, n, &v[i], v[i].alias.key, "it");
  for (size_t j = 0; j < n; j++) {
    if (!v[j].alias.param || !v[j].alias.into || strcmp(v[j].alias.into, v[i].alias.key)) continue;
    merge_param(&v[i], &v[j]);
    hl_sb_printf(names, "%sthe parameter %s", names->len ? ", " : "", v[j].alias.name);
    char *what = hl_xasprintf("the parameter %s", v[j].alias.name), *r = refusal(&v[j], policy);
    if (r && !why) why = hl_xasprintf("its value comes from %s, which cannot be retyped: %s", what, r);
    free(r);
    if (!why) why = foreign_flow(ix, v, n, &v[i], v[j].alias.key, what);
    free(what);
  }
  return why;
}

/* partner: why an alias of the same type is not retyped, or NULL;
 * grouped: there are such aliases (retyped together). */
static void plan_one(const hl_alias_view *v, const hl_plan_policy *policy, const char *rule, const char *partner,
                     int grouped, const char *linked, hl_findings *out) {
  long capacity = hl_sbo_capacity(v->size);
  char *why = refusal(v, policy);
  if (!why) why = over_capacity(v, policy, capacity);
  if (!why && partner) why = hl_xstrdup(partner);
  char *type = why ? NULL : hl_inline_type(v->alias.written, v->alias.replacement, capacity, v->align);
  if (!why && !type) why = hl_xstrdup("heaplint cannot read its type as written");
  int member = v->alias.member;
  char *counts = hl_xasprintf("%zu value%s stored %s it that %s on the heap today (in %zu file%s)", v->allocating,
                              v->allocating == 1 ? "" : "s", member ? "into" : "through",
                              v->allocating == 1 ? "goes" : "go", v->files, v->files == 1 ? "" : "s");
  char *m;
  if (why)
    m = hl_xasprintf("the %s '%s' is not retyped, which would keep inline the %s: %s", member ? "member" : "alias",
                     v->alias.name, counts, why);
  else if (member)
    m = hl_xasprintf(
        "retype the member '%s'%s%s%s to hold %s: it keeps inline the %s, and all %zu value%s stored into it "
        "in the project fit (the largest %ld bytes, align %ld)",
        v->alias.name, linked ? " and " : "", linked ? linked : "", linked ? ", whose value moves into it," : "", type,
        counts, v->values, v->values == 1 ? "" : "s", v->size, v->align);
  else
    m = hl_xasprintf(
        "retype the alias '%s' as %s: it keeps inline the %s, and all %zu value%s stored into %s in the "
        "project fit (the largest %ld bytes, align %ld); every declaration written through the alias "
        "changes with it%s",
        v->alias.name, type, counts, v->values, v->values == 1 ? "" : "s", v->alias.wrapper, v->size, v->align,
        grouped ? ", and the other aliases of that type with it (values pass between them): one edit" : "");
  hl_finding *f = hl_finding_new(rule, HL_SEV_NOTE, &v->alias.at, m);
  f->whole_project = 1;
  if (grouped && type) f->together = hl_xstrdup(v->alias.key);
  for (size_t i = 0; i < v->nsites; i++)
    hl_finding_note(f, &v->sites[i],
                    member ? "stored into it, on the heap today" : "stored through it, on the heap today");
  if (type) {
    hl_edit e = v->alias.type;
    e.text = type;
    hl_finding_edit(f, &e);
    if (v->alias.include.file) hl_finding_edit(f, &v->alias.include);
    for (size_t i = 0; i < v->nfixes; i++) hl_finding_edit(f, &v->fixes[i]);
    for (size_t i = 0; i < v->nextra; i++) {
      hl_edit x = v->extra[i];
      x.text = hl_inline_type(v->extra[i].text, v->alias.replacement, capacity, v->align);
      if (x.text) hl_finding_edit(f, &x);
      free(x.text);
    }
    /* A linked parameter's declarations in other files include the header. */
    for (size_t i = 0; i < v->nincs; i++) {
      int have = v->alias.include.file && !strcmp(v->alias.include.file, v->incs[i].file);
      for (size_t k = 0; k < i && !have; k++) have = !strcmp(v->incs[k].file, v->incs[i].file);
      if (!have) hl_finding_edit(f, &v->incs[i]);
    }
    if (v->fixed_values) {
      char *note = hl_xasprintf(
          "%zu lambda%s capture%s a const copy, which a move copies and which may throw: "
          "with the rewrite, %s capture%s become%s%s init-capture%s ([n = n]: a copy that is not "
          "const)",
          v->fixed_values, v->fixed_values == 1 ? "" : "s", v->fixed_values == 1 ? "s" : "",
          v->nfixes == 1 ? "that" : "those", v->nfixes == 1 ? "" : "s", v->nfixes == 1 ? "s" : "",
          v->nfixes == 1 ? " an" : "", v->nfixes == 1 ? "" : "s");
      hl_finding_note(f, &v->alias.at, note);
      free(note);
    }
  }
  hl_findings_add(out, f);
  free(m);
  free(counts);
  free(type);
  free(why);
}

void hl_sbo_alias_plan(const hl_index_lookup *ix, const hl_plan_policy *policy, const char *rule, hl_findings *out) {
  hl_alias_view *v = NULL;
  size_t n = 0;
  char *err = NULL;
  /* An index that cannot be read plans nothing (its other readers say why). */
  if (!ix->aliases || ix->aliases(ix->data, &v, &n, &err)) {
    free(err);
    return;
  }
  for (size_t i = 0; i < n; i++) {
    if (v[i].alias.param) {
      /* One that moves into a member is planned with it. */
      size_t m = 0;
      while (m < n && !(v[i].alias.into && v[m].alias.member && !strcmp(v[m].alias.key, v[i].alias.into))) m++;
      if (m == n && v[i].allocating) plan_param(&v[i], policy, rule, out);
      continue;
    }
    hl_sb linked = {0};
    char *link = v[i].alias.member ? link_params(ix, v, n, i, policy, &linked) : NULL;
    /* What is stored is counted per wrapper type: the aliases of one type
     * allocate alike. */
    if (v[i].allocating) {
      int grouped;
      char *partner = partner_refusal(v, n, i, policy, &grouped);
      plan_one(&v[i], policy, rule, partner ? partner : link, grouped, linked.len ? linked.s : NULL, out);
      free(partner);
    }
    free(link);
    free(linked.s);
  }
  hl_alias_views_free(v, n);
}
