#include "lsp/actions.h"

#include <stdlib.h>
#include <string.h>

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
