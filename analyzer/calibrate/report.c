#include "calibrate/report.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "calibrate/build.h"
#include "util/proc.h"
#include "util/util.h"

typedef struct row {
  const char *what;
  const hl_cal_prog_probe *probe; /* NULL for std::string */
  long allocations;
} row;

typedef struct rows {
  hl_timing *t; /* what the timing programs fill in */
  row *r;       /* what the table says besides */
  size_t n, capt, capr;
} rows;

static void add_row(rows *v, int w, const hl_cal_prog_probe *p, const char *what, long size, long allocations) {
  hl_grow((void **)&v->t, &v->capt, v->n + 1, sizeof *v->t);
  hl_grow((void **)&v->r, &v->capr, v->n + 1, sizeof *v->r);
  v->t[v->n] = (hl_timing){w, p ? p->size : size, p ? p->align : 1, p ? p->kind : HL_KIND_TRIVIAL, {-1, -1}, -1};
  v->r[v->n++] = (row){what, p, allocations};
}

static int by_size_and_kind(const void *a, const void *b) {
  const hl_cal_prog_probe *x = *(const hl_cal_prog_probe *const *)a, *y = *(const hl_cal_prog_probe *const *)b;
  if (x->size != y->size) return (x->size > y->size) - (x->size < y->size);
  return (x->kind > y->kind) - (x->kind < y->kind);
}

/* The probes a reader wants to see: per alignment the largest target kept
 * inline and the smallest allocated, and the trait variants. */
static void choose_rows(const hl_cal *c, rows *v) {
  static const long aligns[] = {1, 2, 4, 8, 16, 32, 64};
  for (size_t i = 0; i < c->n; i++) {
    if (!c->targets[i].fitted) continue;
    const hl_cal_prog_probed *p = &c->m.w[i];
    for (size_t a = 0; a < sizeof aligns / sizeof *aligns; a++) {
      const hl_cal_prog_probe *in = NULL, *out = NULL;
      for (size_t k = 0; k < p->n; k++) {
        const hl_cal_prog_probe *t = &p->v[k];
        if (t->kind != HL_KIND_TRIVIAL || t->align != aligns[a]) continue;
        if (t->allocations == 0 && (!in || t->size > in->size)) in = t;
        if (t->allocations > 0 && (!out || t->size < out->size)) out = t;
      }
      if (in) add_row(v, (int)i, in, "largest inline", 0, in->allocations);
      if (out) add_row(v, (int)i, out, "smallest allocating", 0, out->allocations);
    }
    /* The parts of the program print them in no useful order. */
    const hl_cal_prog_probe **traits = hl_xcalloc(p->n ? p->n : 1, sizeof *traits);
    size_t nt = 0;
    for (size_t k = 0; k < p->n; k++)
      if (p->v[k].kind != HL_KIND_TRIVIAL) traits[nt++] = &p->v[k];
    qsort(traits, nt, sizeof *traits, by_size_and_kind);
    for (size_t k = 0; k < nt; k++) add_row(v, (int)i, traits[k], "trait variant", 0, traits[k]->allocations);
    free(traits);
  }
  long sso = c->sso[HL_SSO_CHAR];
  if (!c->custom && sso >= 0) {
    for (long s = sso; s <= sso + 1 && (size_t)s < c->m.nstring[HL_SSO_CHAR]; s++)
      add_row(v, -1, NULL, s == sso ? "longest inline" : "shortest allocating", s, c->m.string_allocs[HL_SSO_CHAR][s]);
  }
}

static char *ns(double v) { return v < 0 ? hl_xstrdup("-") : hl_xasprintf("%.1f", v); }

/* "inline when ..." for a fitted wrapper. */
static char *rule_words(const hl_rule_fit *f) {
  hl_sb b = {0};
  hl_sb_printf(&b, "buffer %ld bytes (align %ld)", f->buffer_size, f->buffer_align);
  if (f->header_size)
    hl_sb_printf(&b, " holding %ld bytes (align %ld) in front of the target", f->header_size, f->header_align);
  if (f->max_align) hl_sb_printf(&b, ", targets aligned up to %ld", f->max_align);
  if (f->requires & HL_REQ_TRIVIALLY_COPYABLE) hl_sb_puts(&b, ", trivially copyable");
  if (f->requires & HL_REQ_NOTHROW_COPY) hl_sb_puts(&b, ", nothrow copy constructible");
  if (f->requires & HL_REQ_NOTHROW_MOVE) hl_sb_puts(&b, ", nothrow move constructible");
  if (!f->requires) hl_sb_puts(&b, ", any traits");
  return hl_sb_take(&b);
}

/* "std::string: 15 chars inline; basic_string<wchar_t>: 3, ..." */
static void string_line(const hl_cal *c, FILE *out) {
  static const char *const types[] = HL_SSO_CHAR_TYPES;
  fprintf(out, "std::string: %ld chars inline", c->sso[HL_SSO_CHAR]);
  for (size_t t = HL_SSO_CHAR + 1; t < HL_SSO_KINDS; t++)
    if (c->sso[t] >= 0) fprintf(out, "; basic_string<%s>: %ld", types[t], c->sso[t]);
  fputc('\n', out);
}

/* "shared states (operator new calls): std::promise 2, ..." */
static void shared_line(const hl_cal *c, FILE *out) {
  static const char *const names[] = HL_SHARED_NAMES;
  fputs("shared states (operator new calls):", out);
  for (size_t t = 0; t < HL_SHARED_KINDS; t++)
    if (c->m.shared[t] >= 0) fprintf(out, "%s %s %ld", t ? "," : "", names[t], c->m.shared[t]);
  fputc('\n', out);
}

#define NCOLS 10

static void cell_out(FILE *out, const char *s, size_t width, int right) {
  fprintf(out, right ? "| %*s " : "| %-*s ", (int)width, s);
}

/* The table's columns: heading, and whether numbers align right. */
static const char *const head[NCOLS] = {"wrapper",
                                        "probe",
                                        "size",
                                        "align",
                                        "traits",
                                        "allocations per construction",
                                        "stored",
                                        "construct ns -O0",
                                        "construct ns -O2",
                                        "call ns -O2"};
static const int right[NCOLS] = {0, 0, 1, 1, 0, 1, 0, 1, 1, 1};

int hl_cal_report(hl_cal *c, FILE *out) {
  rows v = {0};
  choose_rows(c, &v);
  hl_timing *t = v.t;
  row *r = v.r;
  size_t n = v.n;
  int status = hl_cal_time_rows(c, t, n);
  if (status) {
    free(t);
    free(r);
    return status;
  }
  char *cmd = hl_proc_command(c->command.v), *what = hl_cal_subject(c);
  fprintf(out, "%s with %s, %d-bit targets; probes built with: %s\n\n", what, c->m.compiler ? c->m.compiler : "?",
          c->m.pointer_width, cmd);
  free(what);
  free(cmd);
  for (size_t i = 0; i < c->n; i++)
    if (c->targets[i].fitted) {
      char *w = rule_words(&c->targets[i].fit);
      fprintf(out, "%s: %s\n", c->targets[i].name, w);
      free(w);
    }
  if (!c->custom) {
    string_line(c, out);
    shared_line(c, out);
  }
  fputc('\n', out);

  char **cell = hl_xcalloc((n + 1) * NCOLS, sizeof *cell);
  size_t width[NCOLS];
  for (int k = 0; k < NCOLS; k++) {
    cell[k] = hl_xstrdup(head[k]);
    width[k] = strlen(head[k]);
  }
  for (size_t i = 0; i < n; i++) {
    char **cl = cell + (i + 1) * NCOLS;
    const hl_cal_prog_probe *p = r[i].probe;
    cl[0] = hl_xstrdup(t[i].wrapper < 0 ? "std::string" : c->targets[t[i].wrapper].name);
    cl[1] = hl_xstrdup(r[i].what);
    cl[2] = p ? hl_xasprintf("%ld", p->size) : hl_xasprintf("%ld chars", t[i].size);
    cl[3] = p ? hl_xasprintf("%ld", p->align) : hl_xstrdup("-");
    cl[4] = hl_xstrdup(p ? hl_kind_name(p->kind) : "-");
    cl[5] = hl_xasprintf("%ld", r[i].allocations);
    cl[6] = r[i].allocations      ? hl_xstrdup("heap")
            : p && p->offset >= 0 ? hl_xasprintf("inline, +%ld", p->offset)
                                  : hl_xstrdup("inline");
    cl[7] = ns(t[i].construct_ns[0]);
    cl[8] = ns(t[i].construct_ns[1]);
    cl[9] = ns(t[i].call_ns);
    for (int k = 0; k < NCOLS; k++)
      if (strlen(cl[k]) > width[k]) width[k] = strlen(cl[k]);
  }
  for (size_t i = 0; i <= n; i++) {
    for (int k = 0; k < NCOLS; k++) cell_out(out, cell[i * NCOLS + k], width[k], right[k]);
    fputs("|\n", out);
    if (i == 0) {
      for (int k = 0; k < NCOLS; k++) {
        fputs("|", out);
        for (size_t d = 0; d < width[k] + 2; d++) fputc(right[k] && d == width[k] + 1 ? ':' : '-', out);
      }
      fputs("|\n", out);
    }
  }
  for (size_t i = 0; i < (n + 1) * NCOLS; i++) free(cell[i]);
  free(cell);
  free(t);
  free(r);
  fflush(out);
  return CAL_OK;
}
