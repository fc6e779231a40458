#include "lsp/hover.h"

#include <stdlib.h>
#include <string.h>

#include "lsp/convert.h"
#include "lsp/handlers.h"
#include "report/jsontext.h"
#include "util/util.h"

/* Markdown that shows text as it is (a type's '<', '*', '_'). */
static void code(hl_sb *b, const char *text) {
  size_t run = 0, longest = 0;
  for (const char *p = text; *p; p++) {
    run = *p == '`' ? run + 1 : 0;
    if (run > longest) longest = run;
  }
  for (size_t i = 0; i <= longest; i++) hl_sb_putc(b, '`');
  hl_sb_printf(b, "%s%s%s", text[0] == '`' ? " " : "", text, text[0] && text[strlen(text) - 1] == '`' ? " " : "");
  for (size_t i = 0; i <= longest; i++) hl_sb_putc(b, '`');
}

static char *markdown(const hl_layout *l) {
  hl_sb b = {0};
  code(&b, l->wrapper);
  hl_sb_printf(&b, " keeps this %s **%s**", l->stored, l->storage == HL_STORED_HEAP ? "on the heap" : "inline");
  hl_sb_printf(&b, " (%s)\n\n", l->rule);
  hl_sb_printf(&b, "%ld bytes, align %ld\n\n", l->size, l->align);
  if (l->nfields) {
    hl_sb_puts(&b, "| capture | offset | size |\n|---|---:|---:|\n");
    long end = 0;
    for (size_t i = 0; i < l->nfields; i++) {
      const hl_layout_field *f = &l->fields[i];
      if (f->offset > end) hl_sb_printf(&b, "| *(padding)* | %ld | %ld |\n", end, f->offset - end);
      hl_sb_puts(&b, "| ");
      code(&b, f->name);
      hl_sb_printf(&b, " | %ld | %ld |\n", f->offset, f->size);
      end = f->offset + f->size;
    }
    if (l->size > end) hl_sb_printf(&b, "| *(padding)* | %ld | %ld |\n", end, l->size - end);
    hl_sb_puts(&b, "\n");
  }
  hl_sb_printf(&b, "The rule: %s.", l->library_rule);
  if (l->why) hl_sb_printf(&b, "\n\nOn the heap: %s.", l->why);
  return hl_sb_take(&b);
}

void lsp_result_add_layout(lsp_result *r, const hl_layout *l, lsp_conv *c) {
  lsp_pos from, to;
  lsp_range_of(c, &l->loc, l->end_line, l->end_col, &from, &to);
  lsp_hover h = {from.line, from.character, to.line, to.character, markdown(l)};
  HL_PUSH(r->hovers, r->nhovers, r->caphovers, h);
}

static int before(long l0, long c0, long l1, long c1) { return l0 < l1 || (l0 == l1 && c0 <= c1); }

/* The innermost store at the position: a lambda stored inside another's
 * body has the smaller range. */
static void answer(lsp_server *S, json_t *id, json_t *params, const lsp_result *r) {
  json_t *pos = json_object_get(params, "position");
  long line = (long)json_integer_value(json_object_get(pos, "line"));
  long ch = (long)json_integer_value(json_object_get(pos, "character"));
  const lsp_hover *best = NULL;
  for (size_t i = 0; r && i < r->nhovers; i++) {
    const lsp_hover *h = &r->hovers[i];
    if (!before(h->line0, h->char0, line, ch) || !before(line, ch, h->line1, h->char1)) continue;
    if (!best ||
        (before(best->line0, best->char0, h->line0, h->char0) && before(h->line1, h->char1, best->line1, best->char1)))
      best = h;
  }
  if (!best) {
    lsp_reply(S, id, NULL);
    return;
  }
  lsp_pos from = {best->line0, best->char0}, to = {best->line1, best->char1};
  lsp_reply(S, id,
            json_pack("{s:{s:s, s:o}, s:o}", "contents", "kind", "markdown", "value", hl_json_text(best->markdown),
                      "range", lsp_range_json(from, to)));
}

void lsp_on_hover(lsp_server *S, json_t *id, json_t *params) { lsp_with_document(S, id, params, answer); }
