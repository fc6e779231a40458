/* no-alloc: no-allocation zones. A function (or lambda) marked
 * [[clang::nonallocating]] or [[clang::nonblocking]], HEAPLINT_NO_ALLOC
 * (<heaplint/noalloc.h>: an annotate attribute) or listed by the config's
 * no-alloc-functions globs is a zone; every allocation heaplint knows of in
 * it — the other rules' verdicts, wherever they warn or not, and new, throw,
 * container inserts, coroutine frames, the allocation functions — and every
 * call of a function of the translation unit that reaches one is an error,
 * with the chain of calls. Calls it cannot follow are listed as not
 * verified. See docs/rules/no-alloc.md.
 *
 * The rule reviews the others' verdicts: it ends after them. */
#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>

#include "util/util.h"
#include "rules/lib/tokens.h"
#include "rules/zones/link.h"
#include "rules/zones/zones.h"

#define RULE "no-alloc"
#define ANNOTATION "heaplint::no_alloc"

/* .heaplint.yaml's no-alloc-functions: globs over qualified function names
 * (fnmatch) that make zones. */
static const hl_rule_option options[] = {
    {"no-alloc-functions", "a glob over qualified function names"},
    {NULL, NULL},
};

static void *begin(hl_ctx *ctx, const hl_rule *self) {
  (void)ctx;
  (void)self;
  return hl_zones_new();
}

/* clang's function effects, as libclang 19 spells them in the type. */
static const char *effect(CXCursor fn) {
  char *t = hl_cxstring_take(clang_getTypeSpelling(clang_getCursorType(fn)));
  const char *r = strstr(t, "__attribute__((nonblocking))")     ? "marked [[clang::nonblocking]]"
                  : strstr(t, "__attribute__((nonallocating))") ? "marked [[clang::nonallocating]]"
                                                                : NULL;
  free(t);
  return r;
}

static enum CXChildVisitResult annotation(CXCursor c, CXCursor parent, CXClientData d) {
  (void)parent;
  if (clang_getCursorKind(c) != CXCursor_AnnotateAttr) return CXChildVisit_Continue;
  char *s = hl_cxstring_take(clang_getCursorSpelling(c));
  *(int *)d |= !strcmp(s, ANNOTATION);
  free(s);
  return CXChildVisit_Continue;
}

static int annotated(CXCursor fn) {
  int found = 0;
  clang_visitChildren(fn, annotation, &found);
  return found;
}

/* A lambda's own marker sits between its introducer and its body: read the
 * tokens there (libclang shows no attribute of a lambda's call operator). */
static const char *lambda_marker(hl_ctx *ctx, CXCursor lambda) {
  CXCursor body = hl_last_child(lambda);
  hl_strv t = hl_tokens(ctx, clang_getRange(clang_getRangeStart(clang_getCursorExtent(lambda)),
                                            clang_getRangeStart(clang_getCursorExtent(body))));
  const char *r = NULL;
  int off = 0;
  for (size_t i = 0; i < t.n; i++) {
    const char *s = t.v[i];
    if (!strcmp(s, "nonblocking"))
      r = "marked [[clang::nonblocking]]";
    else if (!strcmp(s, "nonallocating"))
      r = r ? r : "marked [[clang::nonallocating]]";
    else if (!strcmp(s, "HEAPLINT_NO_ALLOC") || !strcmp(s, "\"" ANNOTATION "\""))
      r = "marked HEAPLINT_NO_ALLOC";
    else if (!strcmp(s, "false"))
      off = 1; /* nonblocking(false) */
  }
  hl_strv_free(&t);
  return off ? NULL : r;
}

/* Why fn is a zone (to free), or NULL. */
static char *zone_marker(hl_ctx *ctx, CXCursor fn) {
  if (clang_getCursorKind(fn) == CXCursor_LambdaExpr) {
    const char *m = lambda_marker(ctx, fn);
    return m ? hl_xstrdup(m) : NULL;
  }
  CXCursor canon = clang_getCanonicalCursor(fn);
  const char *e = effect(fn);
  if (!e) e = effect(canon);
  if (e) return hl_xstrdup(e);
  if (annotated(fn) || annotated(canon)) return hl_xstrdup("marked HEAPLINT_NO_ALLOC");
  size_t n;
  const char *const *globs = hl_ctx_option(ctx, &options[0], &n);
  if (!n) return NULL;
  char *name = hl_decl_name(fn), *r = NULL;
  for (size_t i = 0; i < n && !r; i++)
    if (fnmatch(globs[i], name, 0) == 0) r = hl_xasprintf("listed in the config's no-alloc-functions ('%s')", globs[i]);
  free(name);
  return r;
}

static void visit(hl_ctx *ctx, void *st, CXCursor c) {
  enum CXCursorKind k = clang_getCursorKind(c);
  if (k == CXCursor_CallExpr || k == CXCursor_CXXNewExpr || k == CXCursor_CXXThrowExpr) {
    hl_zones_expr(st, c);
  } else if (k == CXCursor_LambdaExpr || (hl_is_function_like(k) && clang_isCursorDefinition(c))) {
    char *why = zone_marker(ctx, c);
    hl_zones_function(st, c, why);
    free(why);
  }
}

static void end(hl_ctx *ctx, void *st) {
  hl_zones_report(st, ctx, RULE);
  hl_zones_free(st);
}

/* The zones' calls into other units, over the project index. */
static void link(const hl_index_lookup *ix, const hl_summary *unit, hl_findings *out) {
  hl_zones_link(ix, unit, RULE, out);
}

const hl_rule hl_rule_no_alloc = {
    RULE,
    NULL,
    begin,
    visit,
    NULL,
    end, /* end waits for the other rules' verdicts */
    HL_RULE_REVIEWS | HL_RULE_ERRORS,
    link,
    NULL, /* no project-wide plan */
    NULL, /* no numbers from the profiles */
    options,
};
