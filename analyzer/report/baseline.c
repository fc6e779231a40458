#include "report/baseline.h"

#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "report/jsontext.h"
#include "util/hindex.h"
#include "util/util.h"

#define BASELINE_FORMAT 1

int hl_baseline_write(const char *path, const hl_findings *all, const char *root, char **err) {
  json_t *entries = json_array();
  for (size_t i = 0; i < all->n; i++) {
    const hl_finding *f = all->v[i];
    /* A compile error is to be fixed, not accepted as the baseline. */
    if (hl_finding_is_compile_error(f)) continue;
    json_array_append_new(
        entries,
        json_pack("{s:s, s:o, s:s, s:o}", "rule", f->rule, "file", hl_json_text(hl_relative_to(f->loc.file, root)),
                  "fingerprint", f->fingerprint ? f->fingerprint : "", "message", hl_json_text(f->message)));
  }
  json_t *doc = json_pack("{s:i, s:s, s:o}", "heaplint-baseline", BASELINE_FORMAT, "note",
                          "findings recorded by heaplint --write-baseline; heaplint --baseline reports only others",
                          "findings", entries);
  char *text = json_dumps(doc, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
  json_decref(doc);
  if (!text) {
    *err = hl_xasprintf("%s: cannot write the baseline: out of memory", path);
    return -1;
  }
  hl_sb b = {0};
  hl_sb_puts(&b, text);
  hl_sb_putc(&b, '\n');
  free(text);
  int rc = hl_write_file_atomic(path, b.s, b.len, err);
  hl_sb_free(&b);
  return rc;
}

/* The baseline document, or NULL with *err. */
static json_t *load(const char *path, char **err) {
  char *text = NULL;
  size_t len = 0;
  int rerr = hl_read_file_max(path, HL_BASELINE_MAX, &text, &len);
  if (rerr) {
    char *why = hl_read_failure(rerr, len, HL_BASELINE_MAX, "a baseline");
    *err = hl_xasprintf("%s: cannot read the baseline: %s", path, why);
    free(why);
    return NULL;
  }
  json_error_t e;
  json_t *doc = json_loadb(text, len, 0, &e);
  free(text);
  if (!doc) {
    *err = e.line > 0 ? hl_xasprintf("%s:%d:%d: malformed baseline: %s", path, e.line, e.column, e.text)
                      : hl_xasprintf("%s: cannot read the baseline: %s", path, e.text);
    return NULL;
  }
  json_t *entries = json_object_get(doc, "findings");
  if (json_integer_value(json_object_get(doc, "heaplint-baseline")) != BASELINE_FORMAT || !json_is_array(entries)) {
    *err = hl_xasprintf("%s: not a heaplint baseline (format %d)", path, BASELINE_FORMAT);
    json_decref(doc);
    return NULL;
  }
  return doc;
}

int hl_baseline_check(const char *path, char **err) {
  json_t *doc = load(path, err);
  json_decref(doc);
  return doc ? 0 : -1;
}

/* The entries that are the same (rule, file, fingerprint) form one group,
 * found by hash, with a count of those no finding has matched yet: a run
 * matches n findings against m entries in n + m steps, not n * m. */
typedef struct group {
  const char *rule, *file, *fingerprint; /* in doc */
  size_t left;
} group;

struct hl_baseline {
  json_t *doc;
  group *groups;
  size_t ngroups, capgroups;
  hl_hindex ix;
};

static group *find_group(hl_baseline *b, const char *rule, const char *file, const char *fp, int add) {
  const char *parts[] = {rule, file, fp};
  unsigned long long h = hl_hindex_hash_parts(parts, 3);
  size_t cursor = 0, i;
  while (hl_hindex_next(&b->ix, h, &cursor, &i)) {
    group *g = &b->groups[i];
    if (!strcmp(g->rule, rule) && !strcmp(g->file, file) && !strcmp(g->fingerprint, fp)) return g;
  }
  if (!add) return NULL;
  hl_hindex_add(&b->ix, h, b->ngroups);
  HL_PUSH(b->groups, b->ngroups, b->capgroups, ((group){rule, file, fp, 0}));
  return &b->groups[b->ngroups - 1];
}

hl_baseline *hl_baseline_load(const char *path, char **err) {
  json_t *doc = load(path, err);
  if (!doc) return NULL;
  hl_baseline *b = hl_xcalloc(1, sizeof *b);
  b->doc = doc;
  size_t k;
  json_t *x;
  json_array_foreach(json_object_get(doc, "findings"), k, x) {
    const char *rule = json_string_value(json_object_get(x, "rule"));
    const char *file = json_string_value(json_object_get(x, "file"));
    const char *fp = json_string_value(json_object_get(x, "fingerprint"));
    if (rule && file && fp) find_group(b, rule, file, fp, 1)->left++;
  }
  return b;
}

/* Whether an entry not matched yet records f; it is then matched. */
static int recorded(hl_baseline *b, const hl_finding *f, const char *rel) {
  group *g = f->fingerprint ? find_group(b, f->rule, rel, f->fingerprint, 0) : NULL;
  if (!g || !g->left) return 0;
  g->left--;
  return 1;
}

size_t hl_baseline_filter(hl_baseline *b, hl_findings *all, const char *root, hl_findings *held) {
  size_t dropped = 0, out = 0;
  for (size_t i = 0; i < all->n; i++) {
    hl_finding *f = all->v[i];
    /* As written: bytes that are not UTF-8 became U+FFFD. */
    char *rel = hl_utf8_sanitize(hl_relative_to(f->loc.file, root));
    /* An API rewrite is a proposal about the project, not a finding a
     * baseline accepts: it is never held back. */
    int match = !hl_finding_is_compile_error(f) && !f->whole_project && recorded(b, f, rel);
    free(rel);
    if (!match) {
      all->v[out++] = f;
      continue;
    }
    dropped++;
    if (held)
      hl_findings_add(held, f);
    else
      hl_finding_free(f);
  }
  all->n = out;
  return dropped;
}

void hl_baseline_free(hl_baseline *b) {
  if (!b) return;
  json_decref(b->doc);
  free(b->groups);
  hl_hindex_free(&b->ix);
  free(b);
}
