#include "report/source.h"

#include <stdlib.h>
#include <string.h>

#include "util/util.h"

typedef struct file {
  char *path;
  char *data; /* NULL when unreadable */
  size_t len;
  size_t *lines; /* offset of each line's start */
  unsigned nlines;
} file;

struct hl_sources {
  file *v;
  size_t n, cap;
};

hl_sources *hl_sources_new(void) { return hl_xcalloc(1, sizeof(hl_sources)); }

void hl_sources_free(hl_sources *S) {
  if (!S) return;
  for (size_t i = 0; i < S->n; i++) {
    free(S->v[i].path);
    free(S->v[i].data);
    free(S->v[i].lines);
  }
  free(S->v);
  free(S);
}

static void index_lines(file *f) {
  size_t cap = 0, n = 0;
  HL_PUSH(f->lines, n, cap, 0);
  for (size_t i = hl_line_end(f->data, f->len, 0, NULL); i < f->len; i = hl_line_end(f->data, f->len, i, NULL))
    HL_PUSH(f->lines, n, cap, i);
  f->nlines = f->len ? (unsigned)n : 0;
}

static file *find(hl_sources *S, const char *path) {
  for (size_t i = 0; i < S->n; i++)
    if (!strcmp(S->v[i].path, path)) return &S->v[i];
  return NULL;
}

static file *get(hl_sources *S, const char *path) {
  file *known = find(S, path);
  if (known) return known;
  file f = {hl_xstrdup(path), NULL, 0, NULL, 0};
  if (hl_read_file(path, &f.data, &f.len) == 0)
    index_lines(&f);
  else
    f.data = NULL;
  HL_PUSH(S->v, S->n, S->cap, f);
  return &S->v[S->n - 1];
}

void hl_sources_put(hl_sources *S, const char *path, const char *data, size_t len) {
  if (find(S, path)) return;
  file f = {hl_xstrdup(path), hl_xmalloc(len + 1), len, NULL, 0};
  memcpy(f.data, data, len);
  f.data[len] = '\0';
  index_lines(&f);
  HL_PUSH(S->v, S->n, S->cap, f);
}

const char *hl_source_line(hl_sources *S, const char *path, unsigned line, size_t *len) {
  file *f = get(S, path);
  if (!f->data || line == 0 || line > f->nlines) return NULL;
  size_t start = f->lines[line - 1];
  hl_line_end(f->data, f->len, start, len);
  return f->data + start;
}

const char *hl_source_text(hl_sources *S, const char *path, size_t *len, unsigned *nlines) {
  file *f = get(S, path);
  *len = f->len;
  *nlines = f->nlines;
  return f->data;
}

unsigned hl_source_utf16_col(hl_sources *S, const char *path, unsigned line, unsigned col) {
  size_t len;
  const char *p = hl_source_line(S, path, line, &len);
  if (!p || col == 0) return col;
  size_t before = col - 1, in_line = before < len ? before : len;
  return (unsigned)(1 + hl_utf16_units(p, in_line) + (before - in_line));
}
