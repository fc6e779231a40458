#include "report/suppress.h"

#include <stdlib.h>
#include <string.h>

#include "util/globs.h"
#include "util/util.h"

#define NOLINT_RULE "nolint"

typedef enum kind { SAME_LINE, NEXT_LINE, BEGIN, END } kind;

typedef struct marker {
  kind k;
  unsigned line, col;
  char *checks; /* the text between the parentheses; NULL: every rule */
} marker;

typedef struct region {
  unsigned from, to;
  const char *checks;
} region;

typedef struct file_marks {
  char *path;
  marker *m;
  size_t nm, capm;
  region *r;
  size_t nr, capr;
} file_marks;

/* NOLINT(a,b*) names rule when a glob matches it; as in clang-tidy, a
 * negative glob there would only undo the suppression, and is ignored. */
static int names_one(const char *glob, int negative, void *rule) { return !negative && hl_glob_match(glob, rule); }

static int names(const char *checks, const char *rule) {
  return !checks || hl_globs_each(checks, names_one, (void *)rule);
}

static void scan_line(file_marks *F, const char *p, size_t len, unsigned line) {
  for (size_t i = 0; i + 6 <= len; i++) {
    if (memcmp(p + i, "NOLINT", 6)) continue;
    size_t j = i + 6;
    kind k = SAME_LINE;
    if (j + 8 <= len && !memcmp(p + j, "NEXTLINE", 8))
      k = NEXT_LINE, j += 8;
    else if (j + 5 <= len && !memcmp(p + j, "BEGIN", 5))
      k = BEGIN, j += 5;
    else if (j + 3 <= len && !memcmp(p + j, "END", 3))
      k = END, j += 3;
    char *checks = NULL;
    if (j < len && p[j] == '(') {
      const char *close = memchr(p + j, ')', len - j);
      if (close) checks = hl_xstrndup(p + j + 1, (size_t)(close - (p + j + 1)));
    }
    marker m = {k, line, (unsigned)i + 1, checks};
    HL_PUSH(F->m, F->nm, F->capm, m);
    i = j - 1;
  }
}

static int same_checks(const char *a, const char *b) { return (!a && !b) || (a && b && !strcmp(a, b)); }

static void error_at(hl_findings *all, const char *path, const marker *m, const char *msg) {
  hl_loc loc = {(char *)path, m->line, m->col, 0};
  hl_findings_add(all, hl_finding_new(NOLINT_RULE, HL_SEV_ERROR, &loc, msg));
}

static void scan_file(file_marks *F, hl_sources *S, hl_findings *all) {
  size_t len;
  unsigned nlines;
  if (!hl_source_text(S, F->path, &len, &nlines)) return;
  for (unsigned l = 1; l <= nlines; l++) {
    size_t n;
    const char *p = hl_source_line(S, F->path, l, &n);
    if (p && n >= 6) scan_line(F, p, n, l);
  }
  /* An END closes the latest open BEGIN with the same check list. */
  marker **open = hl_xcalloc(F->nm ? F->nm : 1, sizeof *open);
  size_t nopen = 0;
  for (size_t i = 0; i < F->nm; i++) {
    marker *m = &F->m[i];
    if (m->k == BEGIN) open[nopen++] = m;
    if (m->k != END) continue;
    size_t k = nopen;
    while (k > 0 && !same_checks(open[k - 1]->checks, m->checks)) k--;
    if (k == 0) {
      error_at(all, F->path, m, "unmatched 'NOLINTEND' comment without a previous 'NOLINTBEGIN' comment");
      continue;
    }
    region r = {open[k - 1]->line, m->line, open[k - 1]->checks};
    HL_PUSH(F->r, F->nr, F->capr, r);
    memmove(&open[k - 1], &open[k], (nopen - k) * sizeof *open);
    nopen--;
  }
  for (size_t k = 0; k < nopen; k++)
    error_at(all, F->path, open[k], "unmatched 'NOLINTBEGIN' comment without a subsequent 'NOLINTEND' comment");
  free(open);
}

static int suppressed(const file_marks *F, const hl_finding *f) {
  /* As clang-tidy, NOLINT never hides a compile error. */
  if (!strcmp(f->rule, NOLINT_RULE) || hl_finding_is_compile_error(f)) return 0;
  for (size_t i = 0; i < F->nm; i++) {
    const marker *m = &F->m[i];
    if (((m->k == SAME_LINE && m->line == f->loc.line) || (m->k == NEXT_LINE && m->line + 1 == f->loc.line)) &&
        names(m->checks, f->rule))
      return 1;
  }
  for (size_t i = 0; i < F->nr; i++)
    if (F->r[i].from <= f->loc.line && f->loc.line <= F->r[i].to && names(F->r[i].checks, f->rule)) return 1;
  return 0;
}

static file_marks *marks_for(file_marks **v, size_t *n, size_t *cap, const char *path) {
  for (size_t i = 0; i < *n; i++)
    if (!strcmp((*v)[i].path, path)) return &(*v)[i];
  file_marks F;
  memset(&F, 0, sizeof F);
  F.path = hl_xstrdup(path);
  HL_PUSH(*v, *n, *cap, F);
  return &(*v)[*n - 1];
}

size_t hl_suppress(hl_findings *all, hl_sources *S, char *const *files, size_t nfiles, hl_findings *errors) {
  file_marks *v = NULL;
  size_t n = 0, cap = 0;
  for (size_t i = 0; i < all->n; i++) marks_for(&v, &n, &cap, all->v[i]->loc.file);
  for (size_t i = 0; i < nfiles; i++) marks_for(&v, &n, &cap, files[i]);
  for (size_t i = 0; i < n; i++) scan_file(&v[i], S, errors);
  size_t out = 0, dropped = 0;
  for (size_t i = 0; i < all->n; i++) {
    hl_finding *f = all->v[i];
    if (suppressed(marks_for(&v, &n, &cap, f->loc.file), f)) {
      hl_finding_free(f);
      dropped++;
    } else {
      all->v[out++] = f;
    }
  }
  all->n = out;
  for (size_t i = 0; i < n; i++) {
    for (size_t k = 0; k < v[i].nm; k++) free(v[i].m[k].checks);
    free(v[i].m);
    free(v[i].r);
    free(v[i].path);
  }
  free(v);
  return dropped;
}
