#include <stdlib.h>
#include <string.h>

#include "report/emit.h"
#include "report/source.h"
#include "util/util.h"

/* Like clang, no snippet for a line longer than this: a generated file with
 * everything on one line would otherwise repeat it under every finding. */
#define MAX_LINE_SHOWN 4096

/* The source line (tabs expanded to 8-column stops, as clang shows them) and
 * the caret under col. */
static void context(FILE *out, hl_sources *S, const hl_loc *loc) {
  size_t len;
  const char *p = hl_source_line(S, loc->file, loc->line, &len);
  if (!p || len > MAX_LINE_SHOWN) return;
  hl_sb line = {0}, caret = {0};
  unsigned byte = 1;
  for (const char *q = p; q < p + len; q++, byte++) {
    if (*q == '\t') {
      do {
        hl_sb_putc(&line, ' ');
        if (byte < loc->col) hl_sb_putc(&caret, ' ');
      } while (line.len % 8);
    } else {
      hl_sb_putc(&line, *q);
      /* UTF-8 continuation bytes take no column of their own. */
      if (byte < loc->col && ((unsigned char)*q & 0xC0) != 0x80) hl_sb_putc(&caret, ' ');
    }
  }
  fprintf(out, "%5u | %s\n      | %s^\n", loc->line, hl_sb_str(&line), hl_sb_str(&caret));
  hl_sb_free(&line);
  hl_sb_free(&caret);
}

/* An edit the way clang shows a fix-it: the line, the replaced range
 * underlined, the new text under it. */
static void edit(FILE *out, hl_sources *S, const hl_edit *e) {
  size_t len;
  const char *line = hl_source_line(S, e->file, e->line, &len);
  if (e->length == 0) {
    hl_sb text = {0};
    for (const char *p = e->text; *p; p++)
      if (*p != '\n') hl_sb_putc(&text, *p);
    fprintf(out, "%s:%u:%u: note: fix: insert '%s'\n", hl_display_path(e->file), e->line, e->col, hl_sb_str(&text));
    hl_sb_free(&text);
    return;
  }
  fprintf(out, "%s:%u:%u: note: fix: replace with '%s'\n", hl_display_path(e->file), e->line, e->col, e->text);
  /* Underlined only when the range lies within its one line. */
  if (!line || len > MAX_LINE_SHOWN || e->col == 0 || (size_t)e->col - 1 > len || e->length > len - ((size_t)e->col - 1)) return;
  hl_sb pad = {0}, under = {0};
  for (unsigned i = 1; i < e->col; i++) hl_sb_putc(&pad, line[i - 1] == '\t' ? '\t' : ' ');
  hl_sb_putc(&under, '^');
  for (unsigned i = 1; i < e->length; i++) hl_sb_putc(&under, '~');
  fprintf(out, "%5u | %.*s\n      | %s%s\n      | %s%s\n", e->line, (int)len, line, hl_sb_str(&pad), hl_sb_str(&under),
          hl_sb_str(&pad), e->text);
  hl_sb_free(&pad);
  hl_sb_free(&under);
}

static const char *severity_name(hl_severity s) {
  switch (s) {
  case HL_SEV_ERROR: return "error";
  case HL_SEV_NOTE: return "note";
  default: return "warning";
  }
}

static int same_place(const hl_loc *a, const hl_loc *b) {
  return a->line == b->line && a->col == b->col && !strcmp(a->file, b->file);
}

void hl_emit_text(FILE *out, const hl_findings *all, hl_sources *S) {
  for (size_t i = 0; i < all->n; i++) {
    const hl_finding *f = all->v[i];
    fprintf(out, "%s:%u:%u: %s: %s [%s]\n", hl_display_path(f->loc.file), f->loc.line, f->loc.col,
            severity_name(f->severity), f->message, f->rule);
    context(out, S, &f->loc);
    for (size_t j = 0; j < f->nnotes; j++) {
      const hl_note *n = &f->notes[j];
      fprintf(out, "%s:%u:%u: note: %s\n", hl_display_path(n->loc.file), n->loc.line, n->loc.col, n->message);
      if (!same_place(&n->loc, &f->loc)) context(out, S, &n->loc);
    }
    for (size_t j = 0; j < f->nedits; j++) edit(out, S, &f->edits[j]);
  }
}
