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

int hl_str_in(const char *s, const char *const *v, size_t n) {
  for (size_t i = 0; i < n; i++)
    if (!strcmp(s, v[i])) return 1;
  return 0;
}
