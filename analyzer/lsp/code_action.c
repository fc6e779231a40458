#include "lsp/code_action.h"

#include <stdlib.h>
#include <string.h>

#include "lsp/convert.h"
#include "lsp/handlers.h"
#include "report/jsontext.h"
#include "util/util.h"

/* The finding's edits, grouped by file, as --fix makes them all or none. */
static json_t *fix_edit(const hl_finding *f, lsp_conv *c) {
  json_t *changes = json_object();
  for (size_t i = 0; i < f->nedits; i++) {
    char *uri = lsp_conv_uri(c, f->edits[i].file);
    json_t *list = json_object_get(changes, uri);
    if (!list) {
      list = json_array();
      json_object_set_new(changes, uri, list);
    }
    json_array_append_new(list, lsp_text_edit(c, &f->edits[i]));
    free(uri);
  }
  return json_pack("{s:o}", "changes", changes);
}

/* "// NOLINT(rule)" at the end of the finding's line; into the list of a
 * NOLINT(...) the line has already. */
static json_t *nolint_edit(const hl_finding *f, lsp_conv *c) {
  size_t n;
  const char *line = lsp_conv_line(c, f->loc.file, f->loc.line, &n);
  if (!line) return NULL;
  size_t at = n;
  char *text = NULL;
  const char *open = NULL;
  for (const char *p = line; p + 7 <= line + n && !open; p++)
    if (!memcmp(p, "NOLINT(", 7)) open = p;
  const char *close = open ? memchr(open, ')', (size_t)(line + n - open)) : NULL;
  if (close) {
    at = (size_t)(close - line);
    text = hl_xasprintf(", %s", f->rule);
  } else {
    text = hl_xasprintf("%s// NOLINT(%s)", n && line[n - 1] != ' ' && line[n - 1] != '\t' ? "  " : "", f->rule);
  }
  lsp_pos p = lsp_pos_of(c, f->loc.file, f->loc.line, (unsigned)at + 1);
  char *uri = lsp_conv_uri(c, f->loc.file);
  json_t *edit =
      json_pack("{s:{s:[{s:o, s:o}]}}", "changes", uri, "range", lsp_range_json(p, p), "newText", hl_json_text(text));
  free(uri);
  free(text);
  return edit;
}

void lsp_code_actions_plan(lsp_item *it, const hl_finding *f, lsp_conv *c) {
  /* As --fix: nothing from a unit with compile errors (what libclang
   * recovered of it may not be what the code means). */
  if (f->nedits && !f->unit_has_errors) {
    it->fix = fix_edit(f, c);
    it->title_fix = hl_xasprintf("heaplint: fix %s (as --fix does)", f->rule);
  }
  /* The "nolint" rule's own errors (an unmatched NOLINTBEGIN) and compile
   * errors cannot be suppressed. */
  if (strcmp(f->rule, "nolint") && !hl_finding_is_compile_error(f)) {
    it->suppress = nolint_edit(f, c);
    it->title_suppress = hl_xasprintf("heaplint: suppress with // NOLINT(%s)", f->rule);
  }
}

static int before(long l0, long c0, long l1, long c1) { return l0 < l1 || (l0 == l1 && c0 <= c1); }

static json_t *action(const char *title, const lsp_item *it, json_t *edit, int preferred) {
  json_t *a = json_pack("{s:s, s:s, s:[O], s:O}", "title", title, "kind", "quickfix", "diagnostics", it->diagnostic,
                        "edit", edit);
  if (preferred) json_object_set_new(a, "isPreferred", json_true());
  return a;
}

/* Whether the client asked only for kinds that are not quick fixes. */
static int quickfix_wanted(json_t *params) {
  json_t *only = json_object_get(json_object_get(params, "context"), "only");
  if (!json_is_array(only)) return 1;
  size_t i;
  json_t *k;
  json_array_foreach(only, i, k) if (json_is_string(k) && hl_starts_with("quickfix", json_string_value(k))) return 1;
  return 0;
}

static void answer(lsp_server *S, json_t *id, json_t *params, const lsp_result *r) {
  (void)S;
  json_t *out = json_array();
  json_t *range = json_object_get(params, "range");
  json_t *from = json_object_get(range, "start"), *to = json_object_get(range, "end");
  long l0 = (long)json_integer_value(json_object_get(from, "line"));
  long c0 = (long)json_integer_value(json_object_get(from, "character"));
  long l1 = (long)json_integer_value(json_object_get(to, "line"));
  long c1 = (long)json_integer_value(json_object_get(to, "character"));
  for (size_t i = 0; r && quickfix_wanted(params) && i < r->nitems; i++) {
    const lsp_item *it = &r->items[i];
    if (!before(it->line0, it->char0, l1, c1) || !before(l0, c0, it->line1, it->char1)) continue;
    if (it->fix) json_array_append_new(out, action(it->title_fix, it, it->fix, 1));
    if (it->suppress) json_array_append_new(out, action(it->title_suppress, it, it->suppress, 0));
  }
  lsp_reply(S, id, out);
}

void lsp_on_code_action(lsp_server *S, json_t *id, json_t *params) { lsp_with_document(S, id, params, answer); }
