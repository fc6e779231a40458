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
    a.replacement = hl_xstrdup(HL_SBO_FUNCTION_REF);
    a.header = hl_xstrdup(HL_SBO_FUNCTION_REF_HEADER);
    finish(ctx, &a);
    HL_PUSH(sum->aliases, sum->naliases, sum->capaliases, a);
  }
  free(fusr);
}

/* Where parameter a's whole value goes, key (taken), into *slot: the
 * first place recorded; another blocks a, with why and the other's name
 * (taken). Returns 1 (the use is judged). */
static int goes_once(hl_salias *a, char **slot, char *key, const char *why, char *name) {
  if (!*slot) {
    *slot = key;
    key = NULL;
  } else if (strcmp(*slot, key)) {
    a->blocked = hl_xasprintf("%s (%s too)", why, name);
  }
  free(key);
  free(name);
  return 1;
}

/* The call ref (a use of a parameter) is handed to whole, as it is, moved
 * or copied, as an argument of a function (not virtual) whose parameter
 * there is written as the same wrapper: that function, with *index the
 * argument's; else a null cursor. */
static CXCursor passed_on(hl_ctx *ctx, CXCursor ref, int *index) {
  CXCursor below, p = hl_retype_whole_parent(ctx, ref, &below);
  CXCursor callee = clang_getCursorReferenced(p);
  enum CXCursorKind ck = clang_getCursorKind(callee);
  if (clang_getCursorKind(p) != CXCursor_CallExpr ||
      !(ck == CXCursor_FunctionDecl || (ck == CXCursor_CXXMethod && !clang_CXXMethod_isVirtual(callee))))
    return clang_getNullCursor();
  int n = clang_Cursor_getNumArguments(p);
  for (int i = 0; i < n; i++) {
    if (!clang_equalRanges(clang_getCursorExtent(clang_Cursor_getArgument(p, (unsigned)i)),
                           clang_getCursorExtent(below)))
      continue;
    CXCursor q = clang_Cursor_getArgument(callee, (unsigned)i);
    if (clang_Cursor_isNull(q) ||
        !hl_same_class(clang_getCursorType(q), clang_getCursorType(clang_getCursorReferenced(ref))))
      return clang_getNullCursor();
    *index = i;
    return callee;
  }
  return clang_getNullCursor();
}

/* Whether ref (the parameter index of fn) is handed whole to a parameter
 * of the same wrapper: to the same parameter of fn itself (a recursive
 * call, which passes the function_ref on as it was passed in), or to
 * another function's, which a->onto then names (a second one blocks it). */
static int handed_on(hl_ctx *ctx, hl_salias *a, CXCursor ref, CXCursor fn, int index) {
  int at = -1;
  CXCursor g = passed_on(ctx, ref, &at);
  /* A system header's function (a container's push_back) is not retyped. */
  if (clang_Cursor_isNull(g) || clang_Location_isInSystemHeader(clang_getCursorLocation(g))) return 0;
  if (at == index && clang_equalCursors(clang_getCanonicalCursor(g), clang_getCanonicalCursor(fn))) return 1;
  char *gusr = hl_cxstring_take(clang_getCursorUSR(g)), *key = *gusr ? hl_slot_param(gusr, at) : NULL;
  free(gusr);
  return key ? goes_once(a, &a->onto, key, "it is passed on to more than one function", hl_retype_api_name(g)) : 0;
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
  char *name = hl_decl_name(m), *quoted = hl_xasprintf("'%s'", name);
  free(name);
  return goes_once(a, &a->into, key, "its value goes into more than one member", quoted);
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
  } else if (a && !a->blocked && !handed_on(ctx, a, ref, fn, index) && !hl_use_of(ctx, ref, &u)) {
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
