#include "engine/inst/from_ast.h"

#include <stdlib.h>
#include <string.h>

#include "engine/inst/answer.h"
#include "util/util.h"

/* An entry of an instance's chain (engine/inst/instances) as a location of the
 * unit. */
int hl_from_ast_loc(const hl_inst *P, const char *name, unsigned offset, hl_loc *out) {
  CXFile f = clang_getFile(P->u.tu, name);
  if (!f) return -1;
  return hl_unit_loc(&P->u, clang_getLocationForOffset(P->u.tu, f, offset), out);
}

/* What engine/inst/instances answers for probe i (instances.h). */
long hl_from_ast(const hl_inst *P, size_t i, hl_instance **a, const char **why) {
  const hl_question *p = &P->v[i];
  if (p->relay || clang_Cursor_isNull(p->expr)) {
    *a = NULL;
    *why = "a relay";
    return -1;
  }
  return p->conversion ? hl_instances_of_conversion(P->ast, p->call, p->expr, p->as_type,
                                                    (const char *const *)P->targets.v, P->targets.n, a, why)
                       : hl_instances_of_expr(P->ast, p->expr, a, why);
}

static int instance_hit(hl_inst *P, int id, const hl_instance *a, hl_inst_answer *h) {
  memset(h, 0, sizeof *h);
  if (!a->nchain || a->trivially_copyable < 0 || a->nothrow_copy < 0 || a->nothrow_move < 0) return -1;
  h->question = id;
  h->size = a->size;
  h->align = a->align;
  h->trivially_copyable = a->trivially_copyable;
  h->nothrow_copy = a->nothrow_copy;
  h->nothrow_move = a->nothrow_move;
  h->chain = hl_xcalloc(a->nchain, sizeof *h->chain);
  h->in_system = hl_xcalloc(a->nchain, 1);
  h->carries = hl_xcalloc(a->nchain, 1);
  for (size_t k = 0; k < a->nchain; k++) {
    if (hl_from_ast_loc(P, a->chain_file[k], a->chain_offset[k], &h->chain[h->nchain])) {
      hl_answer_free(h);
      return -1;
    }
    h->in_system[k] = a->in_system[k];
    h->carries[k] = a->carries[k];
    if (!a->in_system[k]) h->user = h->outer = k;
    h->nchain++;
  }
  h->type = hl_xstrdup(a->type);
  h->to = a->to ? hl_xstrdup(a->to) : NULL;
  return 0;
}

/* Probe i's answers from engine/inst/instances into *v (*nv of them, maybe
 * none: nothing instantiates the store). Returns -1 when the AST cannot
 * answer all of them. */
static int instance_hits(hl_inst *P, size_t i, hl_inst_answer **v, size_t *nv) {
  *v = NULL;
  *nv = 0;
  hl_instance *a;
  const char *untold;
  long na = hl_from_ast(P, i, &a, &untold);
  if (na < 0) return -1;
  *v = hl_xcalloc(na ? (size_t)na : 1, sizeof **v);
  for (long k = 0; k < na; k++) {
    hl_inst_answer h;
    /* A conversion to a class that may convert the value further inside
     * (not followed) leaves the probe to the parse. */
    int unfollowed = a[k].to && !hl_answer_wanted(P, a[k].to) && a[k].inside;
    if (a[k].to && !hl_answer_wanted(P, a[k].to) && !unfollowed) continue;
    if (unfollowed || a[k].uncertain || instance_hit(P, (int)i, &a[k], &h)) {
      for (size_t j = 0; j < *nv; j++) hl_answer_free(&(*v)[j]);
      free(*v);
      *v = NULL;
      *nv = 0;
      hl_instances_free(a, na);
      return -1;
    }
    /* The probe parse answers once per stored type: a type two
     * specializations store alike (not a lambda, which is each its own)
     * is instantiated once, by the first. */
    int dup = 0;
    for (size_t j = 0; j < *nv && !dup; j++)
      dup = !strstr(h.type, "(lambda at ") && hl_answer_same_numbers(&(*v)[j], &h) && (!h.to) == (!(*v)[j].to) &&
            (!h.to || !strcmp(h.to, (*v)[j].to));
    if (dup)
      hl_answer_free(&h);
    else
      (*v)[(*nv)++] = h;
  }
  hl_instances_free(a, na);
  return 0;
}

size_t hl_from_ast_fill(hl_inst *P) {
  if (!hl_instances_usable()) return 0;
  char *answered = hl_xcalloc(P->n ? P->n : 1, 1);
  for (size_t i = 0; i < P->nhits; i++) answered[P->hits[i].question] = 1;
  size_t added = 0;
  for (size_t i = 0; i < P->n; i++) {
    hl_inst_answer *v;
    size_t nv;
    if (answered[i] || P->v[i].conversion || instance_hits(P, i, &v, &nv)) continue;
    for (size_t j = 0; j < nv; j++) HL_PUSH(P->hits, P->nhits, P->caphits, v[j]);
    added += nv;
    free(v);
  }
  free(answered);
  hl_answers_sort(P);
  return added;
}

/* Every probe of the unit answered from clang's AST, when it can answer
 * them all (layout probes, and conversion probes whose calls it follows
 * to the conversions; engine/inst/instances.h): then the probe parse is not
 * needed. Returns 1 with the hits in P, else 0 with P as it was. */
int hl_from_ast_all(hl_inst *P) {
  if (!hl_instances_usable()) return 0;
  for (size_t i = 0; i < P->n; i++)
    if (P->v[i].relay) return 0;
  hl_inst_answer *all = NULL;
  size_t nall = 0, capall = 0;
  for (size_t i = 0; i < P->n; i++) {
    hl_inst_answer *v;
    size_t nv;
    if (instance_hits(P, i, &v, &nv)) {
      for (size_t j = 0; j < nall; j++) hl_answer_free(&all[j]);
      free(all);
      return 0;
    }
    for (size_t j = 0; j < nv; j++) HL_PUSH(all, nall, capall, v[j]);
    free(v);
  }
  for (size_t j = 0; j < nall; j++) HL_PUSH(P->hits, P->nhits, P->caphits, all[j]);
  free(all);
  hl_answers_sort(P);
  return 1;
}
