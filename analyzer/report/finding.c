#include "report/finding.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "report/source.h"
#include "util/util.h"

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

char *hl_finding_key(const hl_finding *f) {
  hl_sb b = {0};
  hl_sb_printf(&b, "%s%c%u%c%u%c%s%c%s%c%zu", f->loc.file, 0x1f, f->loc.line, 0x1f, f->loc.col, 0x1f, f->rule, 0x1f,
               f->message, 0x1f, f->nnotes);
  for (size_t i = 0; i < f->nnotes; i++) hl_sb_printf(&b, "%c%s", 0x1f, f->notes[i].message);
  return hl_sb_take(&b);
}

void hl_findings_finish(hl_findings *all) {
  if (all->n < 2) return;
  qsort(all->v, all->n, sizeof *all->v, compare);
  size_t out = 1;
  for (size_t i = 1; i < all->n; i++) {
    if (compare(&all->v[out - 1], &all->v[i]) == 0) {
      /* A header's fix seen from a unit that compiled is as good as any. */
      all->v[out - 1]->unit_has_errors &= all->v[i]->unit_has_errors;
      hl_finding_free(all->v[i]);
    } else {
      all->v[out++] = all->v[i];
    }
  }
  all->n = out;
}

const char *hl_relative_to(const char *path, const char *root) {
  size_t n = strlen(root);
  while (n > 1 && root[n - 1] == '/') n--;
  if (n > 1 && !strncmp(path, root, n) && path[n] == '/') return path + n + 1;
  if (n == 1 && root[0] == '/') return path + (path[0] == '/');
  return path;
}

static char *folded_line(hl_sources *S, const hl_loc *loc) {
  size_t len = 0;
  const char *p = hl_source_line(S, loc->file, loc->line, &len);
  hl_sb b = {0};
  int space = 0;
  for (size_t i = 0; p && i < len; i++) {
    if (isspace((unsigned char)p[i])) {
      space = b.len > 0;
      continue;
    }
    if (space) hl_sb_putc(&b, ' ');
    space = 0;
    hl_sb_putc(&b, p[i]);
  }
  return hl_sb_take(&b);
}

void hl_findings_fingerprint(hl_findings *all, hl_sources *S, const char *root, hl_strcount *counts) {
  hl_strcount local = {0};
  if (!counts) counts = &local;
  for (size_t i = 0; i < all->n; i++) {
    hl_finding *f = all->v[i];
    char *text = folded_line(S, &f->loc);
    char *key = hl_xasprintf("%s%c%s%c%s", f->rule, 0x1f, hl_relative_to(f->loc.file, root), 0x1f, text);
    size_t nth = (*hl_strcount_at(counts, key))++;
    char *full = hl_xasprintf("%s%c%zu", key, 0x1f, nth);
    unsigned long long h = hl_fnv1a(full, strlen(full));
    free(full);
    free(key);
    free(text);
    free(f->fingerprint);
    f->fingerprint = hl_xasprintf("%016llx", h);
  }
  hl_strcount_free(&local);
}
