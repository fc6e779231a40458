#include "util/strv.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

static void push(hl_strv *s, char *x) {
  hl_grow((void **)&s->v, &s->cap, s->n + 2, sizeof *s->v);
  s->v[s->n++] = x;
  s->v[s->n] = NULL;
}

void hl_strv_add(hl_strv *s, const char *x) { push(s, hl_xstrdup(x)); }

void hl_strv_addf(hl_strv *s, const char *fmt, ...) {
  hl_sb b = {0};
  va_list ap;
  va_start(ap, fmt);
  hl_sb_vprintf(&b, fmt, ap);
  va_end(ap);
  push(s, hl_sb_take(&b));
}

int hl_strv_add_unique(hl_strv *s, const char *x) {
  if (hl_str_in(x, (const char *const *)s->v, s->n)) return 0;
  hl_strv_add(s, x);
  return 1;
}

char **hl_strv_argv(hl_strv *s) {
  if (!s->v) hl_grow((void **)&s->v, &s->cap, 1, sizeof *s->v);
  s->v[s->n] = NULL;
  return s->v;
}

void hl_strv_free(hl_strv *s) {
  for (size_t i = 0; i < s->n; i++) free(s->v[i]);
  free(s->v);
  memset(s, 0, sizeof *s);
}

size_t hl_str_index(const char *s, const char *const *v, size_t n) {
  size_t i = 0;
  while (i < n && strcmp(s, v[i])) i++;
  return i;
}

int hl_str_in(const char *s, const char *const *v, size_t n) { return hl_str_index(s, v, n) < n; }

size_t *hl_strcount_at(hl_strcount *m, const char *key) {
  size_t lo = 0, hi = m->n;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    int c = strcmp(m->keys[mid], key);
    if (c == 0) return &m->counts[mid];
    if (c < 0)
      lo = mid + 1;
    else
      hi = mid;
  }
  if (m->n == m->cap) {
    m->cap = m->cap ? 2 * m->cap : 16;
    m->keys = hl_xrealloc(m->keys, m->cap * sizeof *m->keys);
    m->counts = hl_xrealloc(m->counts, m->cap * sizeof *m->counts);
  }
  memmove(&m->keys[lo + 1], &m->keys[lo], (m->n - lo) * sizeof *m->keys);
  memmove(&m->counts[lo + 1], &m->counts[lo], (m->n - lo) * sizeof *m->counts);
  m->keys[lo] = hl_xstrdup(key);
  m->counts[lo] = 0;
  m->n++;
  return &m->counts[lo];
}

void hl_strcount_free(hl_strcount *m) {
  for (size_t i = 0; i < m->n; i++) free(m->keys[i]);
  free(m->keys);
  free(m->counts);
  memset(m, 0, sizeof *m);
}
