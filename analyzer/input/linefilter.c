#include "input/linefilter.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "util/hindex.h"
#include "util/util.h"

static hl_line_file *file_of(hl_line_filter *lf, const char *name) {
  unsigned long long h = hl_hindex_hash(name, strlen(name));
  size_t cursor = 0, i;
  while (hl_hindex_next(&lf->names, h, &cursor, &i))
    if (!strcmp(lf->v[i].name, name)) return &lf->v[i];
  hl_line_file f = {hl_xstrdup(name), 0, NULL, 0, 0};
  hl_hindex_add(&lf->names, h, lf->n);
  const char *base = strrchr(name, '/');
  if (base)
    hl_hindex_add(&lf->bases, hl_hindex_hash(base + 1, strlen(base + 1)), lf->n);
  else
    HL_PUSH(lf->plain, lf->nplain, lf->capplain, lf->n);
  HL_PUSH(lf->v, lf->n, lf->cap, f);
  return &lf->v[lf->n - 1];
}

/* The first entry whose name path ends with (as clang-tidy matches), or
 * NULL. */
static const hl_line_file *entry_of(const hl_line_filter *lf, const char *path) {
  const char *slash = strrchr(path, '/'), *base = slash ? slash + 1 : path;
  size_t best = lf->n, cursor = 0, i;
  unsigned long long h = hl_hindex_hash(base, strlen(base));
  while (hl_hindex_next(&lf->bases, h, &cursor, &i))
    if (i < best && hl_ends_with(path, lf->v[i].name)) best = i;
  for (size_t k = 0; k < lf->nplain && lf->plain[k] < best; k++)
    if (hl_ends_with(path, lf->v[lf->plain[k]].name)) best = lf->plain[k];
  return best < lf->n ? &lf->v[best] : NULL;
}

void hl_line_filter_add(hl_line_filter *lf, const char *name, unsigned from, unsigned to) {
  lf->active = 1;
  hl_line_file *f = file_of(lf, name);
  if (!from)
    f->whole = 1;
  else
    HL_PUSH(f->r, f->n, f->cap, ((hl_line_range){from, to}));
}

/* One {"name": ..., "lines": [[a, b], ...]}. */
static int parse_entry(hl_line_filter *lf, json_t *e, size_t i, char **err) {
  json_t *name = json_object_get(e, "name"), *lines = json_object_get(e, "lines");
  if (!json_is_object(e) || !json_is_string(name) || (lines && !json_is_array(lines))) {
    *err =
        hl_xasprintf("-line-filter: entry %zu is not {\"name\": \"<file>\", \"lines\": [[<from>, <to>], ...]}", i + 1);
    return -1;
  }
  if (!lines) {
    hl_line_filter_add(lf, json_string_value(name), 0, 0);
    return 0;
  }
  /* "lines": [] names the file and passes none of it. */
  file_of(lf, json_string_value(name));
  size_t k;
  json_t *r;
  json_array_foreach(lines, k, r) {
    json_int_t a = json_integer_value(json_array_get(r, 0)), b = json_integer_value(json_array_get(r, 1));
    if (!json_is_array(r) || json_array_size(r) != 2 || !json_is_integer(json_array_get(r, 0)) ||
        !json_is_integer(json_array_get(r, 1)) || a < 1 || b < a || b > 0xffffffffLL) {
      *err = hl_xasprintf("-line-filter: entry %zu (\"%s\"): range %zu is not [<from>, <to>] with 1 <= from <= to",
                          i + 1, json_string_value(name), k + 1);
      return -1;
    }
    hl_line_filter_add(lf, json_string_value(name), (unsigned)a, (unsigned)b);
  }
  return 0;
}

int hl_line_filter_parse(hl_line_filter *lf, const char *json, char **err) {
  json_error_t e;
  json_t *root = json_loads(json, 0, &e);
  lf->active = 1;
  if (!root || !json_is_array(root)) {
    *err = root ? hl_xstrdup("-line-filter: not a JSON list of {\"name\": ..., \"lines\": ...}")
                : hl_xasprintf("-line-filter: malformed JSON at column %d: %s", e.column, e.text);
    json_decref(root);
    return -1;
  }
  /* [] is no filter at all, as in clang-tidy (its LineFilter is empty). */
  if (!json_array_size(root)) lf->active = 0;
  size_t i;
  json_t *entry;
  int rc = 0;
  json_array_foreach(root, i, entry) if (!rc) rc = parse_entry(lf, entry, i, err);
  json_decref(root);
  hl_line_filter_finish(lf);
  return rc;
}

static int by_start(const void *a, const void *b) {
  const hl_line_range *x = a, *y = b;
  return x->from < y->from ? -1 : x->from > y->from;
}

void hl_line_filter_finish(hl_line_filter *lf) {
  for (size_t i = 0; i < lf->n; i++) {
    hl_line_file *f = &lf->v[i];
    if (!f->n) continue;
    qsort(f->r, f->n, sizeof *f->r, by_start);
    size_t out = 0;
    for (size_t k = 1; k < f->n; k++) {
      if (f->r[k].from <= f->r[out].to) {
        if (f->r[k].to > f->r[out].to) f->r[out].to = f->r[k].to;
      } else {
        f->r[++out] = f->r[k];
      }
    }
    f->n = out + 1;
  }
}

int hl_line_filter_passes(const hl_line_filter *lf, const char *path, unsigned line) {
  if (!lf || !lf->active) return 1;
  const hl_line_file *f = entry_of(lf, path);
  if (!f) return 0;
  if (f->whole) return 1;
  /* The last range starting at or before line. */
  size_t lo = 0, hi = f->n;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (f->r[mid].from <= line)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo > 0 && line <= f->r[lo - 1].to;
}

void hl_line_filter_free(hl_line_filter *lf) {
  for (size_t i = 0; i < lf->n; i++) {
    free(lf->v[i].name);
    free(lf->v[i].r);
  }
  free(lf->v);
  hl_hindex_free(&lf->names);
  hl_hindex_free(&lf->bases);
  free(lf->plain);
  memset(lf, 0, sizeof *lf);
}
