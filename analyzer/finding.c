#include "finding.h"

#include <stdlib.h>
#include <string.h>

#include "util.h"

hl_loc hl_loc_copy(const hl_loc *l) {
  hl_loc c = *l;
  c.file = hl_xstrdup(l->file ? l->file : "");
  return c;
}

void hl_loc_free(hl_loc *l) {
  free(l->file);
  l->file = NULL;
}

hl_finding *hl_finding_new(const char *rule, hl_severity sev, const hl_loc *loc, const char *message) {
  hl_finding *f = hl_xcalloc(1, sizeof *f);
  f->rule = rule;
  f->severity = sev;
  f->loc = hl_loc_copy(loc);
  f->message = hl_xstrdup(message);
  return f;
}

void hl_finding_note(hl_finding *f, const hl_loc *loc, const char *message) {
  hl_note n = {hl_loc_copy(loc), hl_xstrdup(message)};
  HL_PUSH(f->notes, f->nnotes, f->capnotes, n);
}

void hl_finding_free(hl_finding *f) {
  if (!f) return;
  for (size_t i = 0; i < f->nnotes; i++) {
    hl_loc_free(&f->notes[i].loc);
    free(f->notes[i].message);
  }
  free(f->notes);
  hl_loc_free(&f->loc);
  free(f->message);
  free(f);
}

void hl_findings_add(hl_findings *all, hl_finding *f) { HL_PUSH(all->v, all->n, all->cap, f); }

static int compare(const void *pa, const void *pb) {
  const hl_finding *a = *(hl_finding *const *)pa, *b = *(hl_finding *const *)pb;
  int c = strcmp(a->loc.file, b->loc.file);
  if (c) return c;
  if (a->loc.line != b->loc.line) return a->loc.line < b->loc.line ? -1 : 1;
  if (a->loc.col != b->loc.col) return a->loc.col < b->loc.col ? -1 : 1;
  if ((c = strcmp(a->rule, b->rule))) return c;
  if ((c = strcmp(a->message, b->message))) return c;
  if (a->nnotes != b->nnotes) return a->nnotes < b->nnotes ? -1 : 1;
  for (size_t i = 0; i < a->nnotes; i++)
    if ((c = strcmp(a->notes[i].message, b->notes[i].message))) return c;
  return 0;
}

void hl_findings_finish(hl_findings *all) {
  if (all->n < 2) return;
  qsort(all->v, all->n, sizeof *all->v, compare);
  size_t out = 1;
  for (size_t i = 1; i < all->n; i++) {
    if (compare(&all->v[out - 1], &all->v[i]) == 0)
      hl_finding_free(all->v[i]);
    else
      all->v[out++] = all->v[i];
  }
  all->n = out;
}

void hl_findings_free(hl_findings *all) {
  for (size_t i = 0; i < all->n; i++) hl_finding_free(all->v[i]);
  free(all->v);
  memset(all, 0, sizeof *all);
}
