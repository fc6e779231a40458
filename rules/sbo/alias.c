#include "rules/sbo/alias.h"

#include <stdlib.h>
#include <string.h>

#include "rules/lib/rewrite.h"
#include "rules/lib/runtime_std.h"
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
  a.wrapper = display;
  a.replacement = hl_xstrdup(repl);
  a.header = hl_xstrdup(wd->header);
  char *why = NULL;
  if (hl_rewrite_type(ctx, c, w->name, &a.type, &a.written, &why)) {
    hl_edit_free(&a.type);
    a.type = (hl_edit){0};
    a.blocked = why ? why : hl_xstrdup("heaplint cannot find where its type is written");
  } else if (hl_rewrite_include(ctx, a.type.file, wd->header, &a.include) != 0) {
    hl_edit_free(&a.include);
    a.include = (hl_edit){0};
  }
  if (!a.blocked) a.blocked = hl_runtime_std_blocked(ctx, wd->header);
  if (!a.blocked) a.blocked = hl_runtime_unreachable(ctx, wd->header);
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

void hl_sbo_alias_visit(hl_ctx *ctx, const char *rule, const hl_sbo_wording *wd, CXCursor c) {
  hl_summary *sum = hl_ctx_summary(ctx);
  if (!sum || !wd->replacement) return;
  if (is_alias_decl(c))
    record_alias(ctx, sum, rule, wd, c);
  else if (clang_getCursorKind(c) == CXCursor_TemplateRef)
    record_spelling(ctx, sum, rule, c);
}

void hl_sbo_alias_value(hl_ctx *ctx, const hl_sbo_wording *wd, const hl_sbo_site *s, const hl_sbo_verdict *v,
                        const hl_loc *store) {
  hl_summary *sum = hl_ctx_summary(ctx);
  if (!sum || s->convert || !s->wrapper || !wd->replacement || !wd->replacement(s) ||
      strstr(s->wrapper_spelling, "type-parameter-"))
    return;
  hl_svalue x = {.wrapper = hl_xstrdup(s->wrapper_spelling),
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
  HL_PUSH(sum->values, sum->nvalues, sum->capvalues, x);
}

/* ---- the plan, over the project index ---- */

/* "src/a.cc:12" */
static char *where(const hl_loc *l) { return hl_loc_where(l); }

/* Why v's alias is not retyped, or NULL (caller frees). */
static char *refusal(const hl_alias_view *v) {
  char *at = NULL, *r = NULL;
  if (v->alias.blocked) return hl_xstrdup(v->alias.blocked);
  if (!v->alias.type.file || !v->alias.written) return hl_xstrdup("heaplint cannot find where its type is written");
  if (v->unknown_at.file) {
    at = where(&v->unknown_at);
    r = hl_xasprintf("a value whose size heaplint does not know is stored into %s at %s", v->alias.wrapper, at);
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

static void plan_one(const hl_alias_view *v, const char *rule, hl_findings *out) {
  char *why = refusal(v);
  long capacity = hl_sbo_capacity(v->size);
  char *type = why ? NULL : hl_inline_type(v->alias.written, v->alias.replacement, capacity, v->align);
  if (!why && !type) why = hl_xstrdup("heaplint cannot read its type as written");
  char *counts = hl_xasprintf("%zu value%s stored through it that %s on the heap today (in %zu file%s)", v->allocating,
                              v->allocating == 1 ? "" : "s", v->allocating == 1 ? "goes" : "go", v->files,
                              v->files == 1 ? "" : "s");
  char *m =
      why ? hl_xasprintf("the alias '%s' is not retyped, which would keep inline the %s: %s", v->alias.name, counts,
                         why)
          : hl_xasprintf(
                "retype the alias '%s' as %s: it keeps inline the %s, and all %zu value%s "
                "stored into %s in the project fit (the largest %ld bytes, align %ld); every "
                "declaration written through the alias changes with it",
                v->alias.name, type, counts, v->values, v->values == 1 ? "" : "s", v->alias.wrapper, v->size, v->align);
  hl_finding *f = hl_finding_new(rule, HL_SEV_NOTE, &v->alias.at, m);
  f->whole_project = 1;
  for (size_t i = 0; i < v->nsites; i++) hl_finding_note(f, &v->sites[i], "stored through it, on the heap today");
  if (type) {
    hl_edit e = v->alias.type;
    e.text = type;
    hl_finding_edit(f, &e);
    if (v->alias.include.file) hl_finding_edit(f, &v->alias.include);
  }
  hl_findings_add(out, f);
  free(m);
  free(counts);
  free(type);
  free(why);
}

void hl_sbo_alias_plan(const hl_index_lookup *ix, const char *rule, hl_findings *out) {
  hl_alias_view *v = NULL;
  size_t n = 0;
  char *err = NULL;
  /* An index that cannot be read plans nothing (its other readers say why). */
  if (!ix->aliases || ix->aliases(ix->data, &v, &n, &err)) {
    free(err);
    return;
  }
  for (size_t i = 0; i < n; i++)
    if (v[i].allocating) plan_one(&v[i], rule, out);
  hl_alias_views_free(v, n);
}
