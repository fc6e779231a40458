#include "rules/sbo/judge.h"

#include <stdlib.h>
#include <string.h>

#include "util/util.h"

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
  if (v->too_big || v->too_aligned || v->failed)
    v->allocates = HL_YES;
  else
    v->allocates = v->unknown ? HL_UNKNOWN : HL_NO;
}

void hl_sbo_judge(hl_ctx *ctx, const hl_sbo_site *s, int ask, hl_sbo_verdict *v) {
  memset(v, 0, sizeof *v);
  const hl_wrapper *w = s->wrapper;
  if (s->decays) {
    v->size = v->align = hl_ctx_pointer_width(ctx) / 8;
  } else if (s->size > 0) {
    v->size = s->size;
    v->align = s->align;
  } else if (hl_type_layout(hl_ctx_types(ctx), s->stored, &v->size, &v->align)) {
    v->allocates = HL_UNKNOWN;
    return;
  }
  fit(w, v);
  hl_type_traits(hl_ctx_types(ctx), s->stored, ask, (const char *const *)s->captures, s->ncaptures, &v->traits);
  requirements(w, v);
}

void hl_sbo_judge_probed(const hl_wrapper *w, const hl_inst_answer *h, hl_sbo_verdict *v) {
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
void hl_sbo_reasons(const hl_ctx *ctx, const hl_sbo_site *s, const hl_sbo_verdict *v, hl_sb *b) {
  const hl_wrapper *w = s->wrapper;
  const char *L = lib(ctx, s);
  if (v->too_big) {
    if (w->header_size > 0)
      hl_sb_printf(b,
                   "%ld bytes (align %ld) with %s's %ld-byte %s in front need %ld bytes, more than its inline buffer "
                   "of %ld bytes",
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

void hl_sbo_why_note(hl_finding *f, const hl_loc *loc, const char *what, const char *type, const hl_trait *t) {
  if (t->value != HL_NO || !t->why) return;
  char *m = t->why[0] == ' ' ? hl_xasprintf("%s: %s%s", what, type, t->why) : hl_xasprintf("%s: %s", what, t->why);
  hl_finding_note(f, loc, m);
  free(m);
}

char *hl_sbo_rule_words(const hl_ctx *ctx, const hl_sbo_site *s) {
  const hl_wrapper *w = s->wrapper;
  hl_sb b = {0};
  hl_sb_printf(&b, "%s keeps it inline when it ", lib(ctx, s));
  if (w->header_size > 0)
    hl_sb_printf(&b, "fits the %ld-byte buffer after the %ld-byte %s", w->buffer_size, w->header_size,
                 w->header_what ? w->header_what : "header");
  else
    hl_sb_printf(&b, "is at most %ld bytes", w->buffer_size);
  if (w->max_align > 0) hl_sb_printf(&b, ", aligned at most %ld", w->max_align);
  const char *traits[] = {"trivially copyable", "nothrow copy constructible", "nothrow move constructible"};
  const unsigned bits[] = {HL_REQ_TRIVIALLY_COPYABLE, HL_REQ_NOTHROW_COPY, HL_REQ_NOTHROW_MOVE};
  for (size_t i = 0; i < 3; i++)
    if (w->requires & bits[i]) hl_sb_printf(&b, ", and is %s", traits[i]);
  return hl_sb_take(&b);
}
