#include "engine/layout.h"

#include <stdlib.h>
#include <string.h>

#include "util/util.h"

hl_layout *hl_layout_new(const char *rule, const hl_loc *loc) {
  hl_layout *l = hl_xcalloc(1, sizeof *l);
  l->rule = rule;
  l->loc = hl_loc_copy(loc);
  return l;
}

void hl_layout_add_field(hl_layout *l, const char *name, long offset, long size) {
  hl_layout_field f = {hl_xstrdup(name), offset, size};
  HL_PUSH(l->fields, l->nfields, l->capfields, f);
}

void hl_layout_free(hl_layout *l) {
  if (!l) return;
  for (size_t i = 0; i < l->nfields; i++) free(l->fields[i].name);
  free(l->fields);
  hl_loc_free(&l->loc);
  free(l->wrapper);
  free(l->stored);
  free(l->library_rule);
  free(l->why);
  free(l);
}

void hl_layouts_add(hl_layouts *all, hl_layout *l) { HL_PUSH(all->v, all->n, all->cap, l); }

void hl_layouts_free(hl_layouts *all) {
  for (size_t i = 0; i < all->n; i++) hl_layout_free(all->v[i]);
  free(all->v);
  memset(all, 0, sizeof *all);
}
