#include "rules/sbo/plan.h"

#include <stdlib.h>
#include <string.h>

#include "rules/lib/rewrite.h"
#include "rules/lib/runtime_std.h"
#include "rules/sbo/judge.h"
#include "util/util.h"

void hl_sbo_plan_free(hl_sbo_plan *p) {
  free(p->blocked_own);
  hl_edit_free(&p->type);
  hl_edit_free(&p->include);
}

/* Why the replacement would reject a value stored into target t: a move
 * that may throw, or one heaplint cannot tell; NULL when it accepts them all
 * (caller frees). */
static char *throwing_move(const hl_sbo_site *sites, size_t n, int t, const hl_sbo_verdict *verdicts,
                           const hl_sbo_wording *wording, const hl_sbo_site *any) {
  if (!(wording->replacement_requires & HL_REQ_NOTHROW_MOVE)) return NULL;
  for (size_t i = 0; i < n; i++) {
    const hl_trait *m = &verdicts[i].traits.nothrow_move;
    if (sites[i].target != t || m->value == HL_YES) continue;
    const hl_sbo_site *s = &sites[i];
    char *what = s->decays                      ? hl_xstrdup("the pointer")
                 : hl_type_is_lambda(s->stored) ? hl_xstrdup("the lambda")
                                                : hl_type_spelling(s->stored);
    char *why = !m->why ? hl_xstrdup(what) : m->why[0] == ' ' ? hl_xasprintf("%s%s", what, m->why) : hl_xstrdup(m->why);
    char *r = m->value == HL_NO ? hl_xasprintf("%s rejects a target whose move may throw, and %s's may: %s",
                                               wording->replacement(any), what, why)
                                : hl_xasprintf(
                                      "%s rejects a target whose move may throw, and heaplint cannot tell "
                                      "whether %s's may: %s",
                                      wording->replacement(any), what, why);
    free(what);
    free(why);
    return r;
  }
  return NULL;
}

void hl_sbo_plan_make(hl_ctx *ctx, const hl_sbo_site *sites, size_t n, hl_retype *R, const hl_sbo_wording *wording,
                      int t, const hl_sbo_verdict *verdicts, hl_sbo_plan *p) {
  p->made = 1;
  p->blocked = hl_retype_blocked(R, t);
  if (p->blocked) return;
  long size = 1, align = 1;
  const hl_sbo_site *any = NULL;
  for (size_t i = 0; i < n; i++) {
    if (sites[i].target != t) continue;
    if (verdicts[i].allocates == HL_UNKNOWN) {
      p->blocked = "the size of a callable stored into it is not known";
      return;
    }
    if (verdicts[i].size > size) size = verdicts[i].size;
    if (verdicts[i].align > align) align = verdicts[i].align;
    any = &sites[i];
  }
  if (!(p->blocked = p->blocked_own = throwing_move(sites, n, t, verdicts, wording, any)))
    p->blocked = p->blocked_own = hl_runtime_std_blocked(ctx, wording->header);
  if (p->blocked) return;
  p->capacity = hl_sbo_capacity(size);
  p->align = align;
  long max = hl_ctx_max_inline_capacity(ctx);
  if (max && p->capacity > max) {
    p->blocked = p->blocked_own = hl_xasprintf(
        "its callables need a %ld-byte buffer, above the configuration's max-inline-capacity of %ld", p->capacity, max);
    return;
  }
  int container;
  CXCursor decl = hl_retype_decl(R, t, &container);
  char *written = NULL, *why = NULL;
  if (hl_rewrite_type(ctx, decl, any->wrapper->name, &p->type, &written, &why)) {
    p->blocked = p->blocked_own = why;
    if (!why) p->blocked = "heaplint cannot find where its type is written";
  } else {
    p->type.text = hl_inline_type(written, wording->replacement(any), p->capacity, p->align);
    if (!p->type.text)
      p->blocked = "heaplint cannot read its type as written";
    else if ((p->blocked = p->blocked_own = hl_runtime_unreachable(ctx, wording->header)) == NULL)
      p->has_include = hl_rewrite_include(ctx, p->type.file, wording->header, &p->include) == 0;
  }
  free(written);
}
