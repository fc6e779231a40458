#include "lsp/diagnostics.h"

#include <stdlib.h>
#include <string.h>

#include "engine/rule.h"
#include "input/options.h"
#include "lsp/actions.h"
#include "lsp/convert.h"
#include "report/jsontext.h"
#include "util/util.h"

/* The protocol's DiagnosticSeverity. */
static int severity(hl_severity s) { return s == HL_SEV_ERROR ? 1 : s == HL_SEV_NOTE ? 3 : 2; }

static json_t *related(const hl_finding *f, lsp_conv *c) {
  json_t *a = json_array();
  for (size_t i = 0; i < f->nnotes; i++) {
    const hl_note *n = &f->notes[i];
    lsp_pos at = lsp_pos_of(c, n->loc.file, n->loc.line, n->loc.col);
    json_array_append_new(a, json_pack("{s:o, s:o}", "location", lsp_location_json(c, n->loc.file, at, at), "message",
                                       hl_json_text(n->message)));
  }
  return a;
}

void lsp_result_add_finding(lsp_result *r, const hl_finding *f, lsp_conv *c, const lsp_options *o) {
  lsp_pos from, to;
  lsp_range_of(c, &f->loc, f->end_line, f->end_col, &from, &to);
  json_t *d =
      json_pack("{s:o, s:i, s:s, s:s, s:o}", "range", lsp_range_json(from, to), "severity", severity(f->severity),
                "source", "heaplint", "code", f->rule, "message", hl_json_text(f->message));
  if (hl_rule_in(o->rules, f->rule) && o->docs_url) {
    char *href = hl_rule_page_url(o->docs_url, f->rule);
    json_object_set_new(d, "codeDescription", json_pack("{s:o}", "href", hl_json_text(href)));
    free(href);
  }
  if (f->nnotes) json_object_set_new(d, "relatedInformation", related(f, c));
  lsp_item it;
  memset(&it, 0, sizeof it);
  it.line0 = from.line;
  it.char0 = from.character;
  it.line1 = to.line;
  it.char1 = to.character;
  it.diagnostic = d;
  lsp_code_actions_plan(&it, f, c);
  HL_PUSH(r->items, r->nitems, r->capitems, it);
}

void lsp_result_add_failure(lsp_result *r, const char *text) {
  hl_sb m = {0};
  hl_sb_puts(&m, text);
  while (m.len && (m.s[m.len - 1] == '\n' || m.s[m.len - 1] == ' ')) m.s[--m.len] = '\0';
  if (!m.len) hl_sb_puts(&m, "heaplint: not analyzed");
  lsp_pos top = {0, 0};
  lsp_item it;
  memset(&it, 0, sizeof it);
  it.diagnostic = json_pack("{s:o, s:i, s:s, s:o}", "range", lsp_range_json(top, top), "severity", 1, "source",
                            "heaplint", "message", hl_json_text(hl_sb_str(&m)));
  hl_sb_free(&m);
  HL_PUSH(r->items, r->nitems, r->capitems, it);
}
