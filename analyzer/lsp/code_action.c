/* code_action: textDocument/codeAction — for each diagnostic in the range
 * asked about, the quick fix that makes the same edits as --fix (the
 * retype and the #include, applied together; preferred), and a second
 * that suppresses it with clang-tidy's spelling, "// NOLINT(<rule>)" at
 * the end of its line (docs/ci.md). The edits were planned by the worker
 * when it converted the findings, on the text it analyzed (actions.h). */
#include "lsp/handlers.h"
#include "util/util.h"

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
