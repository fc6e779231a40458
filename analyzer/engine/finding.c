#include "engine/finding.h"

#include <stdlib.h>
#include <string.h>

#include "util/util.h"

hl_loc hl_loc_copy(const hl_loc *l) {
  hl_loc c = *l;
  c.file = hl_xstrdup(l->file ? l->file : "");
  return c;
}

void hl_loc_free(hl_loc *l) {
  free(l->file);
  l->file = NULL;
}

char *hl_loc_where(const hl_loc *l) { return hl_xasprintf("%s:%u", hl_display_path(l->file), l->line); }

hl_finding *hl_finding_new(const char *rule, hl_severity sev, const hl_loc *loc, const char *message) {
  hl_finding *f = hl_xcalloc(1, sizeof *f);
  f->rule = rule;
  f->severity = sev;
  f->loc = hl_loc_copy(loc);
  f->message = hl_xstrdup(message);
  return f;
}

int hl_finding_is_compile_error(const hl_finding *f) { return !strcmp(f->rule, HL_COMPILE_ERROR_RULE); }

void hl_finding_note(hl_finding *f, const hl_loc *loc, const char *message) {
  hl_note n = {hl_loc_copy(loc), hl_xstrdup(message)};
  HL_PUSH(f->notes, f->nnotes, f->capnotes, n);
}

void hl_finding_edit(hl_finding *f, const hl_edit *e) {
  hl_edit c = *e;
  c.file = hl_xstrdup(e->file);
  c.text = hl_xstrdup(e->text);
  HL_PUSH(f->edits, f->nedits, f->capedits, c);
}

void hl_edit_free(hl_edit *e) {
  free(e->file);
  free(e->text);
  memset(e, 0, sizeof *e);
}

void hl_finding_free(hl_finding *f) {
  if (!f) return;
  for (size_t i = 0; i < f->nedits; i++) hl_edit_free(&f->edits[i]);
  free(f->edits);
  for (size_t i = 0; i < f->nnotes; i++) {
    hl_loc_free(&f->notes[i].loc);
    free(f->notes[i].message);
  }
  free(f->notes);
  hl_loc_free(&f->loc);
  free(f->message);
  free(f->fingerprint);
  free(f->together);
  free(f);
}

void hl_findings_add(hl_findings *all, hl_finding *f) { HL_PUSH(all->v, all->n, all->cap, f); }

void hl_findings_free(hl_findings *all) {
  for (size_t i = 0; i < all->n; i++) hl_finding_free(all->v[i]);
  free(all->v);
  memset(all, 0, sizeof *all);
}

void hl_findings_take(hl_findings *all, hl_findings *from) {
  for (size_t i = 0; i < from->n; i++) hl_findings_add(all, from->v[i]);
  free(from->v);
  memset(from, 0, sizeof *from);
}

void hl_api_figures_free(hl_api_figure *v, size_t n) {
  for (size_t i = 0; i < n; i++) {
    free(v[i].api);
    free(v[i].type);
    free(v[i].wrapper);
    free(v[i].replacement);
    for (size_t k = 0; k < v[i].nat; k++) hl_loc_free(&v[i].at[k]);
    free(v[i].at);
    for (size_t k = 0; k < v[i].ndecls; k++) hl_loc_free(&v[i].decls[k]);
    free(v[i].decls);
  }
  free(v);
}
