#include "rules/sbo/sbo.h"

#include <stdlib.h>
#include <string.h>

#include "engine/ast.h"
#include "rules/sbo/captures.h"
#include "rules/sbo/judge.h"
#include "rules/sbo/match.h"
#include "rules/sbo/plan.h"
#include "util/util.h"

struct hl_sbo {
  const char *rule;
  const hl_sbo_wording *wording;
  hl_sbo_site *sites;
  size_t n, cap;
  hl_retype *retype;
};

static void report(hl_ctx *ctx, hl_sbo *S, const hl_sbo_site *s, const hl_sbo_verdict *v, const hl_sbo_plan *p) {
  char *noun = S->wording->noun(ctx, s);
  hl_sb m = {0};
  hl_sb_printf(&m, "%s stores this %s on the heap%s: ", s->wrapper_spelling, noun,
               s->in_loop ? " on every iteration of the enclosing loop" : "");
  hl_sbo_reasons(ctx, s, v, &m);
  hl_finding *f = hl_finding_new(S->rule, HL_SEV_WARNING, &s->loc, hl_sb_str(&m));
  hl_sb_free(&m);

  char *caps = hl_sbo_captures_note(ctx, s, v);
  if (caps) hl_finding_note(f, &s->loc, caps);
  free(caps);
  char *tname = s->decays ? hl_xstrdup("the pointer") : hl_type_is_lambda(s->stored) ? hl_xstrdup("the lambda")
                                                                                      : hl_type_spelling(s->stored);
  if (v->failed & HL_REQ_TRIVIALLY_COPYABLE)
    hl_sbo_why_note(f, &s->loc, "not trivially copyable", tname, &v->traits.trivially_copyable);
  if (v->failed & HL_REQ_NOTHROW_COPY)
    hl_sbo_why_note(f, &s->loc, "not nothrow copy constructible", tname, &v->traits.nothrow_copy);
  if (v->failed & HL_REQ_NOTHROW_MOVE)
    hl_sbo_why_note(f, &s->loc, "not nothrow move constructible", tname, &v->traits.nothrow_move);
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
    hl_sbo_site_free(s);
    return;
  }
  hl_sbo_name_captures(s);
  if (S->wording->replacement && S->wording->replacement(s))
    s->target = hl_retype_store(S->retype, ctx, s->call, clang_Cursor_isNull(s->call) ? HL_STORE_OTHER : s->store_kind,
                                s->wrapper, &s->untargeted);
  HL_PUSH(S->sites, S->n, S->cap, *s);
}


/* A wrapper variable or member initialized inside a template from a value
 * whose type depends on the template: a lambda with listed captures is laid
 * out from them; anything else is not judged (no guessing), and -v says so. */
static void template_init(hl_ctx *ctx, hl_sbo *S, CXCursor var) {
  CXType wtype = clang_getCursorType(var);
  const hl_wrapper *w = hl_ctx_wrapper_of_type(ctx, wtype);
  if (!w || strcmp(w->rule, S->rule)) return;
  CXCursor init = hl_last_child(var);
  if (!clang_isExpression(clang_getCursorKind(init)) ||
      clang_Type_getSizeOf(clang_getCursorType(init)) != CXTypeLayoutError_Dependent)
    return;
  CXCursor lambda = init;
  while (clang_getCursorKind(lambda) == CXCursor_UnexposedExpr || clang_getCursorKind(lambda) == CXCursor_ParenExpr)
    lambda = hl_first_child(lambda);
  long size, align;
  hl_sbo_site s;
  if (clang_getCursorKind(lambda) == CXCursor_LambdaExpr && !hl_sbo_template_lambda_layout(ctx, lambda, &size, &align) &&
      hl_sbo_fill_site(ctx, &s, var, w, wtype, clang_getCursorType(lambda), lambda, lambda)) {
    s.size = size;
    s.align = align;
    keep(ctx, S, &s);
    return;
  }
  hl_loc loc;
  if (!ctx->verbose || hl_ctx_loc(ctx, clang_getCursorLocation(init), &loc)) return;
  hl_ctx_remark(ctx, &loc, "%s: not decided: the stored type depends on a template parameter", S->rule);
  hl_loc_free(&loc);
}

void hl_sbo_visit(hl_ctx *ctx, hl_sbo *S, CXCursor c) {
  enum CXCursorKind k = clang_getCursorKind(c);
  if (k == CXCursor_VarDecl || k == CXCursor_FieldDecl) template_init(ctx, S, c);
  if (k == CXCursor_InitListExpr || k == CXCursor_CallExpr) {
    hl_sbo_site *v;
    size_t n = k == CXCursor_InitListExpr ? hl_sbo_init_list_sites(ctx, c, &v) : hl_sbo_tuple_sites(ctx, c, &v);
    for (size_t i = 0; i < n; i++) keep(ctx, S, &v[i]);
    free(v);
    if (k == CXCursor_InitListExpr || n) return;
  }
  hl_sbo_site s;
  if (hl_sbo_match(ctx, c, &s)) keep(ctx, S, &s);
  if (k == CXCursor_DeclRefExpr || k == CXCursor_MemberRefExpr) hl_retype_use(S->retype, ctx, c);
}

void hl_sbo_prepare(hl_ctx *ctx, hl_sbo *S) {
  /* Only sites the layout and the class structure cannot settle ask the
   * compiler (one batched parse per translation unit): whether they
   * allocate, every reason why when they do (so that a warning's reasons do
   * not depend on whether its fix is planned), and whether the replacement
   * accepts what they store. */
  for (size_t i = 0; i < S->n; i++) {
    hl_sbo_verdict v;
    hl_sbo_judge(ctx, &S->sites[i], 0, &v);
    int rewritable = S->sites[i].target >= 0 && (S->wording->replacement_requires & HL_REQ_NOTHROW_MOVE);
    if (v.allocates == HL_UNKNOWN || (v.allocates == HL_YES && v.unknown) ||
        (rewritable && v.traits.nothrow_move.value == HL_UNKNOWN)) {
      hl_traits_free(&v.traits);
      hl_sbo_judge(ctx, &S->sites[i], 1, &v);
    }
    hl_traits_free(&v.traits);
  }
}

void hl_sbo_end(hl_ctx *ctx, hl_sbo *S) {
  hl_retype_finish(S->retype);
  hl_sbo_verdict *verdicts = hl_xcalloc(S->n ? S->n : 1, sizeof *verdicts);
  int ntargets = 0;
  for (size_t i = 0; i < S->n; i++) {
    hl_sbo_judge(ctx, &S->sites[i], 0, &verdicts[i]);
    if (S->sites[i].target >= ntargets) ntargets = S->sites[i].target + 1;
  }
  hl_sbo_plan *plans = hl_xcalloc(ntargets ? (size_t)ntargets : 1, sizeof *plans);
  for (size_t i = 0; i < S->n; i++) {
    hl_sbo_site *s = &S->sites[i];
    hl_sbo_verdict *v = &verdicts[i];
    if (v->allocates == HL_YES) {
      hl_sbo_plan *p = NULL;
      if (s->target >= 0) {
        p = &plans[s->target];
        if (!p->made) hl_sbo_plan_make(ctx, S->sites, S->n, S->retype, S->wording, s->target, verdicts, p);
      }
      report(ctx, S, s, v, p);
    } else if (v->allocates == HL_UNKNOWN) {
      const hl_trait *t = (v->unknown & HL_REQ_TRIVIALLY_COPYABLE) ? &v->traits.trivially_copyable
                          : (v->unknown & HL_REQ_NOTHROW_COPY)    ? &v->traits.nothrow_copy
                                                                  : &v->traits.nothrow_move;
      const char *why = v->unknown && t->why ? t->why : "";
      hl_ctx_remark(ctx, &s->loc, "%s: not decided: %s%s%s", S->rule,
                    v->unknown ? "the stored type" : "its layout is not known (a dependent type)",
                    why[0] && why[0] != ' ' ? ": " : "", why);
    }
  }
  for (size_t i = 0; i < S->n; i++) {
    hl_traits_free(&verdicts[i].traits);
    hl_sbo_site_free(&S->sites[i]);
  }
  for (int t = 0; t < ntargets; t++) hl_sbo_plan_free(&plans[t]);
  free(plans);
  free(verdicts);
  free(S->sites);
  hl_retype_free(S->retype);
  free(S);
}

