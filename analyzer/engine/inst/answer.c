#include "engine/inst/answer.h"

#include <stdlib.h>
#include <string.h>

#include "util/util.h"

void hl_answer_free(hl_inst_answer *h) {
  free(h->type);
  free(h->to);
  free(h->in_system);
  free(h->carries);
  for (size_t i = 0; i < h->nchain; i++) hl_loc_free(&h->chain[i]);
  free(h->chain);
}

int hl_answer_wanted(const hl_inst *P, const char *to) {
  if (!P->targets.v) return 1;
  if (hl_starts_with(to, "std::__1::")) to += strlen("std::__1::") - strlen("std::");
  size_t len = strcspn(to, "<");
  for (size_t i = 0; i < P->targets.n; i++)
    if (strlen(P->targets.v[i]) == len && !strncmp(P->targets.v[i], to, len)) return 1;
  return 0;
}

void hl_answers_sort(hl_inst *P) {
  for (size_t i = 1; i < P->nhits; i++)
    for (size_t j = i; j > 0 && P->hits[j - 1].question > P->hits[j].question; j--) {
      hl_inst_answer t = P->hits[j];
      P->hits[j] = P->hits[j - 1];
      P->hits[j - 1] = t;
    }
}

int hl_answer_same_place(const hl_loc *a, const hl_loc *b) {
  return a->offset == b->offset && !strcmp(a->file, b->file);
}

int hl_answer_same_numbers(const hl_inst_answer *a, const hl_inst_answer *b) {
  return a->type && b->type && !strcmp(a->type, b->type) && a->size == b->size && a->align == b->align &&
         a->trivially_copyable == b->trivially_copyable && a->nothrow_copy == b->nothrow_copy &&
         a->nothrow_move == b->nothrow_move;
}

int hl_answer_same(const hl_inst_answer *a, const hl_inst_answer *b) {
  if (a->question != b->question || a->nchain != b->nchain || !hl_answer_same_numbers(a, b) || (!a->to) != (!b->to) ||
      (a->to && strcmp(a->to, b->to)))
    return 0;
  for (size_t i = 0; i < a->nchain; i++)
    if (!hl_answer_same_place(&a->chain[i], &b->chain[i])) return 0;
  return 1;
}
