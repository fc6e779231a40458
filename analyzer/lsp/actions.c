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

/* The most of an edit's text a title shows. */
#define TITLE_TEXT 60

/* One edit as a title says it: "replace with 'X'", "insert 'X'" (its line
 * breaks left out, a long text cut). */
static void say_edit(hl_sb *b, const hl_edit *e) {
  hl_sb_printf(b, "%s '", e->length ? "replace with" : "insert");
  size_t shown = 0;
  for (const char *p = e->text ? e->text : ""; *p; p++) {
    if (*p == '\n' || *p == '\r') continue;
    if (shown++ == TITLE_TEXT) {
      hl_sb_puts(b, "...");
      break;
    }
    hl_sb_putc(b, *p);
  }
  hl_sb_putc(b, '\'');
}

/* "heaplint: replace with 'hl::inplace_function<void(), 24>' and insert
 * '#include <heaplint/inplace_function.hpp>'": what the fix does, as the
 * CLI's fix notes say it; more than two edits are counted. */
static char *fix_title(const hl_finding *f) {
  hl_sb b = {0};
  hl_sb_puts(&b, "heaplint: ");
  for (size_t i = 0; i < f->nedits && i < 2; i++) {
    if (i) hl_sb_puts(&b, " and ");
    say_edit(&b, &f->edits[i]);
  }
  if (f->nedits > 2) hl_sb_printf(&b, ", and %zu more edit%s", f->nedits - 2, f->nedits == 3 ? "" : "s");
  return hl_sb_take(&b);
}

void lsp_code_actions_plan(lsp_item *it, const hl_finding *f, lsp_conv *c) {
  /* As --fix: nothing from a unit with compile errors (what libclang
   * recovered of it may not be what the code means). */
  if (f->nedits && !f->unit_has_errors) {
    it->fix = fix_edit(f, c);
    it->title_fix = fix_title(f);
  }
  /* The "nolint" rule's own errors (an unmatched NOLINTBEGIN) and compile
   * errors cannot be suppressed. */
  if (strcmp(f->rule, "nolint") && !hl_finding_is_compile_error(f)) {
    it->suppress = nolint_edit(f, c);
    it->title_suppress = hl_xasprintf("heaplint: suppress with // NOLINT(%s)", f->rule);
  }
}
