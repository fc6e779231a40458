#include "engine/inst/compare.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/inst/answer.h"
#include "engine/inst/from_ast.h"
#include "util/util.h"

/* A type with each "(lambda at DIR/F:l:c)" as "(lambda at F:l:c)": the
 * probe parse names an edited header by the absolute path it handed to
 * libclang, the AST by the path the #include found. */
static char *lambda_basenames(const char *type) {
  hl_sb b = {0};
  const char *p = type, *at;
  while ((at = strstr(p, "(lambda at "))) {
    const char *path = at + strlen("(lambda at "), *close = strchr(path, ')'), *base = path;
    if (!close) break;
    for (const char *q = path; q < close; q++)
      if (*q == '/') base = q + 1;
    hl_sb_putn(&b, p, (size_t)(path - p));
    p = base;
  }
  hl_sb_puts(&b, p);
  return hl_sb_take(&b);
}

/* Whether the instance's chain is the hit's, entry by entry. */
static int same_chain(const hl_inst *P, const hl_instance *a, const hl_inst_answer *h) {
  if (a->nchain != h->nchain) return 0;
  for (size_t k = 0; k < a->nchain; k++) {
    hl_loc l;
    if (hl_from_ast_loc(P, a->chain_file[k], a->chain_offset[k], &l)) return 0;
    int same =
        hl_answer_same_place(&l, &h->chain[k]) && a->in_system[k] == h->in_system[k] && a->carries[k] == h->carries[k];
    hl_loc_free(&l);
    if (!same) return 0;
  }
  return 1;
}

static void print_chain(hl_sb *b, const hl_inst *P, const hl_instance *a, const hl_inst_answer *h) {
  for (size_t k = 0; a && k < a->nchain; k++) {
    hl_loc l;
    if (hl_from_ast_loc(P, a->chain_file[k], a->chain_offset[k], &l)) {
      hl_sb_printf(b, " ?");
      continue;
    }
    hl_sb_printf(b, " %s:%u:%u/%d%d", l.file, l.line, l.col, a->in_system[k], a->carries[k]);
    hl_loc_free(&l);
  }
  for (size_t k = 0; h && k < h->nchain; k++)
    hl_sb_printf(b, " %s:%u:%u/%d%d", h->chain[k].file, h->chain[k].line, h->chain[k].col, h->in_system[k],
                 h->carries[k]);
}

static int instance_matches(const hl_instance *a, const hl_inst_answer *h) {
  if (!h->type) return 0;
  char *x = lambda_basenames(a->type), *y = lambda_basenames(h->type);
  int same = !strcmp(x, y);
  free(x);
  free(y);
  return same && (!a->to) == (!h->to) && (!a->to || !strcmp(a->to, h->to)) && a->size == h->size &&
         a->align == h->align && a->trivially_copyable == h->trivially_copyable &&
         (a->nothrow_copy < 0 || a->nothrow_copy == h->nothrow_copy) &&
         (a->nothrow_move < 0 || a->nothrow_move == h->nothrow_move);
}

void hl_compare_backends(hl_inst *P, FILE *log, int conversions) {
  size_t agree = 0, differ = 0, untold = 0, chains = 0, unchained = 0;
  for (size_t i = 0; i < P->n; i++) {
    if (!P->v[i].conversion != !conversions || P->v[i].relay || clang_Cursor_isNull(P->v[i].expr)) continue;
    size_t nh;
    const hl_inst_answer *h = hl_inst_answers(P, (int)i, &nh);
    hl_instance *a;
    const char *untold_why;
    long na = hl_from_ast(P, i, &a, &untold_why);
    for (long k = 0; k < na; k++)
      if ((a[k].uncertain && hl_answer_wanted(P, a[k].to)) || (a[k].inside && !hl_answer_wanted(P, a[k].to))) {
        untold_why = a[k].inside && !hl_answer_wanted(P, a[k].to) ? "a library constructor that may convert it further"
                                                                  : "a conversion past a template of the code's own";
        hl_instances_free(a, na);
        na = -1;
        break;
      }
    if (na < 0) {
      untold++;
      fprintf(log, "heaplint: instances: %s:%u: not told: %s\n", P->v[i].file, P->v[i].begin, untold_why);
      continue;
    }
    /* What either side has that the other has not. */
    hl_sb b = {0};
    for (size_t j = 0; j < nh; j++) {
      int found = 0;
      for (long k = 0; k < na && !found; k++) found = instance_matches(&a[k], &h[j]);
      if (!found)
        hl_sb_printf(&b, " [the probe parse only: %s%s%s %ld %ld %d%d%d]", h[j].type ? h[j].type : "?",
                     h[j].to ? " to " : "", h[j].to ? h[j].to : "", h[j].size, h[j].align, h[j].trivially_copyable,
                     h[j].nothrow_copy, h[j].nothrow_move);
    }
    for (long k = 0; k < na; k++) {
      int found = a[k].to && !hl_answer_wanted(P, a[k].to); /* not asked about */
      for (size_t j = 0; j < nh && !found; j++) found = instance_matches(&a[k], &h[j]);
      if (!found)
        hl_sb_printf(&b, " [the AST only: %s%s%s %ld %ld %d%d%d, requested at %s:%u]", a[k].type, a[k].to ? " to " : "",
                     a[k].to ? a[k].to : "", a[k].size, a[k].align, a[k].trivially_copyable, a[k].nothrow_copy,
                     a[k].nothrow_move, a[k].poi_file ? a[k].poi_file : "?", a[k].poi_offset);
    }
    /* The chain too: each hit's is one of a matching instance's (two
     * specializations may store types spelled and laid out alike). */
    for (size_t j = 0; j < nh && b.len == 0; j++) {
      long first = -1, same = 0;
      for (long k = 0; k < na && !same; k++)
        if (instance_matches(&a[k], &h[j]) && a[k].nchain) {
          if (first < 0) first = k;
          same = same_chain(P, &a[k], &h[j]);
        }
      if (first >= 0 && !same) {
        hl_sb_printf(&b, " [chains: the AST's");
        print_chain(&b, P, &a[first], NULL);
        hl_sb_printf(&b, "; the probe parse's");
        print_chain(&b, P, NULL, &h[j]);
        hl_sb_printf(&b, "]");
        chains++;
      }
    }
    for (long k = 0; k < na; k++)
      if (!a[k].nchain && (!a[k].to || hl_answer_wanted(P, a[k].to))) {
        unchained++;
        fprintf(log, "heaplint: instances: %s:%u: no chain: %s\n", P->v[i].file, P->v[i].begin,
                a[k].no_chain ? a[k].no_chain : "?");
      }
    if (b.len == 0) {
      agree++;
    } else {
      differ++;
      fprintf(log, "heaplint: instances: %s:%u: differ:%s\n", P->v[i].file, P->v[i].begin, hl_sb_str(&b));
    }
    hl_sb_free(&b);
    hl_instances_free(a, na);
  }
  fprintf(
      log,
      "heaplint: instances: %s: %zu %s agree, %zu differ, %zu not told; %zu chains differ, %zu instances without one\n",
      hl_display_path(P->u.job->file), agree, conversions ? "conversions" : "probes", differ, untold, chains,
      unchained);
}
