#include "util/globs.h"

#include <ctype.h>
#include <stdlib.h>

#include "util/util.h"

int hl_glob_match(const char *pat, const char *s) {
  for (; *pat && *pat != '*'; pat++, s++)
    if (*pat != *s) return 0;
  if (!*pat) return !*s;
  while (*pat == '*') pat++;
  if (!*pat) return 1;
  for (; *s; s++)
    if (hl_glob_match(pat, s)) return 1;
  return 0;
}

int hl_globs_each(const char *list, int (*each)(const char *glob, int negative, void *data), void *data) {
  const char *p = list ? list : "";
  int rc = 0;
  while (*p && !rc) {
    while (*p == ',' || isspace((unsigned char)*p)) p++;
    int negative = *p == '-';
    if (negative) p++;
    while (isspace((unsigned char)*p)) p++;
    const char *start = p;
    while (*p && *p != ',') p++;
    const char *end = p;
    while (end > start && isspace((unsigned char)end[-1])) end--;
    if (end == start) continue;
    char *one = hl_xstrndup(start, (size_t)(end - start));
    rc = each(one, negative, data);
    free(one);
  }
  return rc;
}

typedef struct verdict {
  const char *id;
  int result;
} verdict;

static int judge(const char *glob, int negative, void *data) {
  verdict *v = data;
  if (hl_glob_match(glob, v->id)) v->result = negative ? -1 : 1;
  return 0;
}

int hl_globs_verdict(const char *list, const char *id) {
  verdict v = {id, 0};
  hl_globs_each(list, judge, &v);
  return v.result;
}
