#include "input/linefilter.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "util/util.h"

static hl_line_file *file_of(hl_line_filter *lf, const char *name) {
  for (size_t i = 0; i < lf->n; i++)
    if (!strcmp(lf->v[i].name, name)) return &lf->v[i];
  hl_line_file f = {hl_xstrdup(name), 0, NULL, 0, 0};
  HL_PUSH(lf->v, lf->n, lf->cap, f);
  return &lf->v[lf->n - 1];
}

void hl_line_filter_add(hl_line_filter *lf, const char *name, unsigned from, unsigned to) {
  lf->active = 1;
  hl_line_file *f = file_of(lf, name);
  if (!from) f->whole = 1;
  else HL_PUSH(f->r, f->n, f->cap, ((hl_line_range){from, to}));
}

/* One {"name": ..., "lines": [[a, b], ...]}. */
static int parse_entry(hl_line_filter *lf, json_t *e, size_t i, char **err) {
  json_t *name = json_object_get(e, "name"), *lines = json_object_get(e, "lines");
  if (!json_is_object(e) || !json_is_string(name) || (lines && !json_is_array(lines))) {
    *err = hl_xasprintf("-line-filter: entry %zu is not {\"name\": \"<file>\", \"lines\": [[<from>, <to>], ...]}", i + 1);
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
      *err = hl_xasprintf("-line-filter: entry %zu (\"%s\"): range %zu is not [<from>, <to>] with 1 <= from <= to", i + 1,
                          json_string_value(name), k + 1);
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
  return rc;
}

int hl_line_filter_passes(const hl_line_filter *lf, const char *path, unsigned line) {
  if (!lf || !lf->active) return 1;
  for (size_t i = 0; i < lf->n; i++) {
    const hl_line_file *f = &lf->v[i];
    if (!hl_ends_with(path, f->name)) continue;
    if (f->whole) return 1;
    for (size_t k = 0; k < f->n; k++)
      if (f->r[k].from <= line && line <= f->r[k].to) return 1;
    return 0;
  }
  return 0;
}

void hl_line_filter_free(hl_line_filter *lf) {
  for (size_t i = 0; i < lf->n; i++) {
    free(lf->v[i].name);
    free(lf->v[i].r);
  }
  free(lf->v);
  memset(lf, 0, sizeof *lf);
}
