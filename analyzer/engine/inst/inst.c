#include "engine/inst/inst.h"

#include <stdlib.h>

#include "engine/inst/inst_impl.h"
#include "engine/inst/sites.h"
#include "util/util.h"

int hl_inst_ask_layout(hl_inst *P, CXCursor e, const char **why) {
  hl_question p;
  if (hl_site_layout(&P->u, e, &p, why)) return -1;
  HL_PUSH(P->v, P->n, P->cap, p);
  return (int)(P->n - 1);
}

int hl_inst_ask_conversion(hl_inst *P, CXCursor wrapped, CXCursor arg, const char *as_type, const char **why) {
  hl_question p;
  if (hl_site_conversion(&P->u, wrapped, arg, as_type, &p, why)) return -1;
  for (size_t i = 0; i < P->n; i++)
    if (P->v[i].conversion && clang_File_isEqual(P->v[i].cxfile, p.cxfile) && P->v[i].begin == p.begin &&
        P->v[i].arg_begin == p.arg_begin) {
      free(p.file);
      free(p.as_type);
      return (int)i;
    }
  int same_call = -1; /* the call's other questions: their copies go where its first one's does */
  for (size_t i = 0; i < P->n && same_call < 0; i++)
    if (P->v[i].conversion && clang_File_isEqual(P->v[i].cxfile, p.cxfile) && P->v[i].begin == p.begin)
      same_call = (int)i;
  if (same_call >= 0) {
    p.copy_at = P->v[same_call].copy_at;
    p.statement = P->v[same_call].statement;
  } else if (!as_type) {
    hl_site_statement(&P->u, &p);
  }
  HL_PUSH(P->v, P->n, P->cap, p);
  return (int)(P->n - 1);
}

const hl_inst_answer *hl_inst_answers(const hl_inst *P, int id, size_t *n) {
  size_t first = P->nhits, count = 0;
  for (size_t i = 0; i < P->nhits; i++)
    if (P->hits[i].question == id) {
      if (first == P->nhits) first = i;
      count++;
    }
  *n = count;
  return count ? &P->hits[first] : NULL;
}
