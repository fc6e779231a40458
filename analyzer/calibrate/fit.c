#include "calibrate/fit.h"

#include <stdlib.h>
#include <string.h>

#include "input/profile.h"
#include "util/util.h"

/* The alignments the probes use (probe.hpp's sweeps). */
static const long aligns[] = {1, 2, 4, 8, 16, 32, 64};
#define NALIGNS (sizeof aligns / sizeof *aligns)

static int is_inline(const hl_cal_prog_probe *p) { return p->allocations == 0; }

/* Bytes of the buffer a target takes, its header in front (docs/profiles.md). */
static long needed(long h, long ha, long size, long align) {
  if (h == 0) return size;
  return hl_align_up(hl_align_up(h, align) + size, ha > align ? ha : align);
}

static int has_traits(unsigned requires, int kind) {
  if ((requires & HL_REQ_TRIVIALLY_COPYABLE) && kind != HL_KIND_TRIVIAL) return 0;
  if ((requires & HL_REQ_NOTHROW_COPY) && (kind == HL_KIND_COPY_THROWS || kind == HL_KIND_BOTH_THROW)) return 0;
  if ((requires & HL_REQ_NOTHROW_MOVE) && (kind == HL_KIND_MOVE_THROWS || kind == HL_KIND_BOTH_THROW)) return 0;
  return 1;
}

/* Whether the rule keeps a target of this size, alignment and kind inline. */
static int predicts_inline(const hl_rule_fit *f, long size, long align, int kind) {
  return needed(f->header_size, f->header_align, size, align) <= f->buffer_size &&
         (f->max_align == 0 || align <= f->max_align) && has_traits(f->requires, kind);
}

/* ---- the measurements, in words ---- */

static int by_size(const void *a, const void *b) {
  const hl_cal_prog_probe *x = *(const hl_cal_prog_probe *const *)a, *y = *(const hl_cal_prog_probe *const *)b;
  return (x->size > y->size) - (x->size < y->size);
}

/* The trivially copyable probes of one alignment, by size. */
static size_t at_align(const hl_cal_prog_probed *p, long align, const hl_cal_prog_probe ***out) {
  const hl_cal_prog_probe **v = hl_xcalloc(p->n ? p->n : 1, sizeof *v);
  size_t n = 0;
  for (size_t i = 0; i < p->n; i++)
    if (p->v[i].kind == HL_KIND_TRIVIAL && p->v[i].align == align) v[n++] = &p->v[i];
  qsort(v, n, sizeof *v, by_size);
  *out = v;
  return n;
}

/* The measurements of one wrapper in a few lines, each starting with two
 * spaces: per alignment, the sizes kept inline and those allocated, and
 * where the target was found; then the trait variants. */
static char *describe(const hl_cal_prog_probed *p) {
  hl_sb b = {0};
  hl_sb_printf(&b, "  the wrapper: %ld bytes, align %ld\n", p->size, p->align);
  for (size_t a = 0; a < NALIGNS; a++) {
    const hl_cal_prog_probe **v;
    size_t n = at_align(p, aligns[a], &v);
    if (n) hl_sb_printf(&b, "  align %ld:", aligns[a]);
    /* Runs of sizes with one verdict: "inline 1-24, allocated 25-49". */
    for (size_t i = 0; i < n;) {
      size_t j = i;
      while (j + 1 < n && is_inline(v[j + 1]) == is_inline(v[i])) j++;
      hl_sb_printf(&b, "%s %s %ld", i ? "," : "", is_inline(v[i]) ? "inline" : "allocated", v[i]->size);
      if (j > i) hl_sb_printf(&b, "-%ld", v[j]->size);
      i = j + 1;
    }
    long last = -2;
    for (size_t i = 0; i < n; i++)
      if (is_inline(v[i]) && v[i]->offset != last) {
        hl_sb_printf(&b, "%s%ld", last == -2 ? " (target at +" : ", +", v[i]->offset);
        last = v[i]->offset;
      }
    if (last != -2) hl_sb_puts(&b, ")");
    if (n) hl_sb_putc(&b, '\n');
    free(v);
  }
  for (size_t i = 0; i < p->n; i++) {
    const hl_cal_prog_probe *t = &p->v[i];
    if (t->kind != HL_KIND_TRIVIAL)
      hl_sb_printf(&b, "  %ld byte%s, align %ld, %s: %s\n", t->size, t->size == 1 ? "" : "s", t->align,
                   hl_kind_name(t->kind), is_inline(t) ? "inline" : "allocated");
  }
  return hl_sb_take(&b);
}

static int refuse(const hl_cal_prog_probed *p, char **why, const char *reason) {
  char *m = describe(p);
  size_t n = strlen(m);
  if (n && m[n - 1] == '\n') m[n - 1] = '\0';
  *why = hl_xasprintf("%s; measured:\n%s", reason, m);
  free(m);
  return -1;
}

/* ---- size, alignment and header ---- */

/* Where inline targets were found, per alignment. */
typedef struct offsets {
  long align[NALIGNS], at[NALIGNS];
  size_t n;
} offsets;

static int gather_offsets(const hl_cal_prog_probed *p, offsets *o) {
  o->n = 0;
  for (size_t a = 0; a < NALIGNS; a++) {
    long at = -1;
    for (size_t i = 0; i < p->n; i++) {
      const hl_cal_prog_probe *t = &p->v[i];
      if (t->kind != HL_KIND_TRIVIAL || t->align != aligns[a] || !is_inline(t) || t->offset < 0) continue;
      if (at >= 0 && t->offset != at) return -1;
      at = t->offset;
    }
    if (at >= 0) {
      o->align[o->n] = aligns[a];
      o->at[o->n++] = at;
    }
  }
  return 0;
}

/* A header of h bytes puts a target of alignment A at start + hl_align_up(h, A);
 * without one, every target is at the same place. */
static int offsets_fit(const offsets *o, long h) {
  if (o->n == 0) return 1;
  long start = o->at[0] - hl_align_up(h, o->align[0]);
  if (start < 0) return 0;
  for (size_t i = 1; i < o->n; i++)
    if (o->at[i] != start + hl_align_up(h, o->align[i])) return 0;
  return 1;
}

static int sizes_fit(const hl_cal_prog_probed *p, long buffer, long h, long ha, long max_align) {
  for (size_t i = 0; i < p->n; i++) {
    const hl_cal_prog_probe *t = &p->v[i];
    if (t->kind != HL_KIND_TRIVIAL) continue;
    int fits = needed(h, ha, t->size, t->align) <= buffer && (max_align == 0 || t->align <= max_align);
    if (fits != is_inline(t)) return 0;
  }
  return 1;
}

/* The alignment a header of h bytes naturally has: its largest power-of-two
 * divisor, at most the wrapper's. */
static long natural_align(long h, long wrapper_align) {
  long a = 1;
  while (a < 64 && a < wrapper_align && h % (a * 2) == 0) a *= 2;
  return a;
}

/* Candidate values in order of preference: first (when > 0), then none
 * (0) when allowed, then every alignment. */
static size_t order(long first, int with_none, long *out) {
  size_t n = 0;
  if (first > 0) out[n++] = first;
  if (with_none) out[n++] = 0;
  for (size_t a = 0; a < NALIGNS; a++)
    if (aligns[a] != first) out[n++] = aligns[a];
  return n;
}

/* The simplest layout that predicts every trivially copyable probe: the
 * smallest header the target's place allows (none first), the header's
 * natural alignment, the smallest buffer. The alignment limit: without a
 * header, the buffer's own alignment (a buffer holds what is aligned like
 * it), then none; with one, none (the header's padding already charges an
 * over-aligned target), then the smallest. */
static int fit_layout(const hl_cal_prog_probed *p, const offsets *o, hl_rule_fit *f) {
  long has[NALIGNS + 2], mas[NALIGNS + 2];
  for (long h = 0; h < p->size; h++) {
    if (!offsets_fit(o, h)) continue;
    size_t nha = h ? order(natural_align(h, p->align), 0, has) : 1;
    if (!h) has[0] = 0;
    size_t nma = order(h ? 0 : p->align, 1, mas);
    for (size_t i = 0; i < nha; i++)
      for (size_t j = 0; j < nma; j++)
        for (long buffer = h + 1; buffer <= p->size; buffer++)
          if (sizes_fit(p, buffer, h, has[i], mas[j])) {
            f->buffer_size = buffer;
            f->buffer_align = p->align;
            f->header_size = h;
            f->header_align = has[i];
            f->max_align = mas[j];
            return 0;
          }
  }
  return -1;
}

/* ---- traits ---- */

static const hl_cal_prog_probe *find(const hl_cal_prog_probed *p, long size, long align, int kind) {
  for (size_t i = 0; i < p->n; i++)
    if (p->v[i].size == size && p->v[i].align == align && p->v[i].kind == kind) return &p->v[i];
  return NULL;
}

/* The traits that gate inline storage, read from the trait variants of a
 * target whose trivially copyable twin stays inline: a variant that is not
 * trivially copyable but nothrow in every way allocating means the library
 * wants trivially copyable; else each variant whose copy (move) may throw
 * and allocates names nothrow copy (move) construction. */
static int fit_traits(const hl_cal_prog_probed *p, hl_rule_fit *f, const char **why) {
  const hl_cal_prog_probe *twin = NULL;
  for (size_t i = 0; i < p->n && !twin; i++) {
    const hl_cal_prog_probe *t = &p->v[i];
    if (t->kind == HL_KIND_NOTHROW) {
      const hl_cal_prog_probe *tc = find(p, t->size, t->align, HL_KIND_TRIVIAL);
      if (tc && is_inline(tc)) twin = tc;
    }
  }
  if (!twin) {
    *why = "no trait variant could be judged: the trivially copyable targets of their size allocated too";
    return -1;
  }
  const hl_cal_prog_probe *k[HL_KINDS];
  for (int i = 1; i < HL_KINDS; i++)
    if (!(k[i] = find(p, twin->size, twin->align, i))) {
      *why = "a trait variant was not measured";
      return -1;
    }
  if (!is_inline(k[HL_KIND_NOTHROW]))
  f->
    requires
  = HL_REQ_TRIVIALLY_COPYABLE;
  else f->
    requires
  = (is_inline(k[HL_KIND_COPY_THROWS]) ? 0 : HL_REQ_NOTHROW_COPY) |
    (is_inline(k[HL_KIND_MOVE_THROWS]) ? 0 : HL_REQ_NOTHROW_MOVE);
  for (size_t i = 0; i < p->n; i++) {
    const hl_cal_prog_probe *t = &p->v[i];
    if (t->kind == HL_KIND_TRIVIAL) continue;
    const hl_cal_prog_probe *tc = find(p, t->size, t->align, HL_KIND_TRIVIAL);
    int predicted = tc && is_inline(tc) && has_traits(f->requires, t->kind);
    if (predicted != is_inline(t)) {
      *why = "the trait variants follow no rule of trivially copyable, nothrow copy and nothrow move construction";
      return -1;
    }
  }
  return 0;
}

int hl_fit(const hl_cal_prog_probed *p, hl_rule_fit *fit, char **why) {
  memset(fit, 0, sizeof *fit);
  int any_inline = 0, any_heap = 0;
  for (size_t i = 0; i < p->n; i++) {
    any_inline |= p->v[i].kind == HL_KIND_TRIVIAL && is_inline(&p->v[i]);
    any_heap |= p->v[i].kind == HL_KIND_TRIVIAL && !is_inline(&p->v[i]);
  }
  if (!any_inline) return refuse(p, why, "every target allocated: the wrapper has no inline buffer");
  if (!any_heap)
    return refuse(p, why,
                  "no target allocated, not even one larger than the wrapper: it keeps targets "
                  "somewhere other than the global heap");
  offsets o;
  if (gather_offsets(p, &o))
    return refuse(p, why, "targets of one alignment were found at different places in the wrapper");
  if (fit_layout(p, &o, fit))
    return refuse(p, why, "no buffer size, header and alignment limit predict these measurements");
  const char *reason;
  if (fit_traits(p, fit, &reason)) return refuse(p, why, reason);
  /* The layout was fitted to the trivially copyable targets and the traits
   * to their twins; the whole rule must predict every store. */
  for (size_t i = 0; i < p->n; i++)
    if (predicts_inline(fit, p->v[i].size, p->v[i].align, p->v[i].kind) != is_inline(&p->v[i]))
      return refuse(p, why, "no rule predicts the trait variants and the sizes together");
  return 0;
}

long hl_fit_sso(const long *allocs, size_t n) {
  for (size_t i = 0; i < n; i++)
    if (allocs[i] > 0) return i > 0 ? (long)i - 1 : -1;
  return -1;
}
