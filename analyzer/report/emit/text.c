#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/emit.h"
#include "report/source.h"
#include "util/util.h"

/* Like clang, no snippet for a line longer than this: a generated file with
 * everything on one line would otherwise repeat it under every finding. */
#define MAX_LINE_SHOWN 4096

/* clang's colours (its TextDiagnostic): a bold location, the severity in
 * bold magenta, red or cyan, a warning's or error's message in bold, the
 * caret in bold green, a fix's text in green. */
#define C_BOLD "\033[1m"
#define C_RESET "\033[0m"
#define C_WARNING "\033[0;1;35m"
#define C_ERROR "\033[0;1;31m"
#define C_NOTE "\033[0;1;36m"
#define C_CARET "\033[0;1;32m"
#define C_FIXIT "\033[0;32m"

/* The colour codes of a report, all "" without colour. */
typedef struct paint {
  const char *bold, *reset, *warning, *error, *note, *caret, *fixit;
} paint;

static const paint colours = {C_BOLD, C_RESET, C_WARNING, C_ERROR, C_NOTE, C_CARET, C_FIXIT};
static const paint plain = {"", "", "", "", "", "", ""};

/* The width of the line-number gutter: 5 as clang's, more for line 100000
 * on, so that the caret row lines up with the source row. */
static int gutter(unsigned line) {
  int w = snprintf(NULL, 0, "%u", line);
  return w < 5 ? 5 : w;
}

/* Appends source byte c to line, and to pad (when given) what stands under
 * it: a NUL shows as clang shows it, "<U+0000>", and does not end the line. */
static void put_source_byte(hl_sb *line, hl_sb *pad, char c, char pad_char) {
  if (c == '\0') {
    hl_sb_puts(line, "<U+0000>");
    if (pad) hl_sb_puts(pad, "        ");
    return;
  }
  hl_sb_putc(line, c);
  if (pad) hl_sb_putc(pad, pad_char);
}

/* The source line (tabs expanded to 8-column stops, as clang shows them) and
 * the caret under col. */
static void context(FILE *out, hl_sources *S, const hl_loc *loc, const paint *c) {
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
      /* UTF-8 continuation bytes take no column of their own. */
      int column = byte < loc->col && ((unsigned char)*q & 0xC0) != 0x80;
      put_source_byte(&line, column ? &caret : NULL, *q, ' ');
    }
  }
  int w = gutter(loc->line);
  fprintf(out, "%*u | %s\n%*s | %s%s^%s\n", w, loc->line, hl_sb_str(&line), w, "", c->caret, hl_sb_str(&caret),
          c->reset);
  hl_sb_free(&line);
  hl_sb_free(&caret);
}

/* An edit's text on the note's one line: the line breaks it inserts (LF or a
 * CRLF file's CR LF) left out. */
static char *one_line(const char *text) {
  hl_sb b = {0};
  for (const char *p = text; *p; p++)
    if (*p != '\n' && *p != '\r') hl_sb_putc(&b, *p);
  return hl_sb_take(&b);
}

/* An edit the way clang shows a fix-it: the line, the replaced range
 * underlined, the new text under it. */
static void edit(FILE *out, hl_sources *S, const hl_edit *e, const paint *c) {
  size_t len;
  const char *line = hl_source_line(S, e->file, e->line, &len);
  char *text = one_line(e->text);
  fprintf(out, "%s%s:%u:%u: %s%snote: %sfix: %s '%s'%s\n", c->bold, hl_display_path(e->file), e->line, e->col, c->reset,
          c->note, c->reset, e->length ? "replace with" : "insert", text, c->reset);
  free(text);
  /* Underlined only when the range lies within its one line. */
  if (e->length == 0 || !line || len > MAX_LINE_SHOWN || e->col == 0 || (size_t)e->col - 1 > len ||
      e->length > len - ((size_t)e->col - 1))
    return;
  hl_sb shown = {0}, pad = {0}, under = {0};
  for (size_t i = 0; i < len; i++)
    put_source_byte(&shown, i + 1 < e->col ? &pad : NULL, line[i], line[i] == '\t' ? '\t' : ' ');
  hl_sb_putc(&under, '^');
  for (unsigned i = 1; i < e->length; i++) hl_sb_putc(&under, '~');
  int w = gutter(e->line);
  fprintf(out, "%*u | %s\n%*s | %s%s%s%s\n%*s | %s%s%s%s\n", w, e->line, hl_sb_str(&shown), w, "", c->caret,
          hl_sb_str(&pad), hl_sb_str(&under), c->reset, w, "", c->fixit, hl_sb_str(&pad), e->text, c->reset);
  hl_sb_free(&shown);
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

/* "path:line:col: severity: message" as clang colours it: a warning's or
 * an error's message in bold, a note's not. */
static void headline(FILE *out, const hl_loc *l, hl_severity sev, const char *message, const char *rule,
                     const paint *c) {
  const char *colour = sev == HL_SEV_ERROR ? c->error : sev == HL_SEV_NOTE ? c->note : c->warning;
  fprintf(out, "%s%s:%u:%u: %s%s%s: %s%s%s%s%s%s%s\n", c->bold, hl_display_path(l->file), l->line, l->col, c->reset,
          colour, severity_name(sev), c->reset, sev == HL_SEV_NOTE ? "" : c->bold, message, rule ? " [" : "",
          rule ? rule : "", rule ? "]" : "", c->reset);
}

void hl_emit_text(FILE *out, const hl_findings *all, hl_sources *S, int colour) {
  const paint *c = colour ? &colours : &plain;
  for (size_t i = 0; i < all->n; i++) {
    const hl_finding *f = all->v[i];
    headline(out, &f->loc, f->severity, f->message, f->rule, c);
    context(out, S, &f->loc, c);
    for (size_t j = 0; j < f->nnotes; j++) {
      const hl_note *n = &f->notes[j];
      headline(out, &n->loc, HL_SEV_NOTE, n->message, NULL, c);
      if (!same_place(&n->loc, &f->loc)) context(out, S, &n->loc, c);
    }
    for (size_t j = 0; j < f->nedits; j++) edit(out, S, &f->edits[j], c);
  }
}
