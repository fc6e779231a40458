#include <stdlib.h>
#include <string.h>

#include "emit.h"
#include "util.h"

typedef struct source {
  char *path;
  char *data; /* NULL when unreadable: the context lines are then left out */
  size_t len;
} source;

typedef struct sources {
  source *v;
  size_t n, cap;
} sources;

static const source *source_get(sources *S, const char *path) {
  for (size_t i = 0; i < S->n; i++)
    if (!strcmp(S->v[i].path, path)) return &S->v[i];
  source s = {hl_xstrdup(path), NULL, 0};
  if (hl_read_file(path, &s.data, &s.len)) s.data = NULL;
  HL_PUSH(S->v, S->n, S->cap, s);
  return &S->v[S->n - 1];
}

static void sources_free(sources *S) {
  for (size_t i = 0; i < S->n; i++) {
    free(S->v[i].path);
    free(S->v[i].data);
  }
  free(S->v);
}

/* The source line (tabs expanded to 8-column stops, as clang shows them) and
 * the caret under col. */
static void context(FILE *out, sources *S, const hl_loc *loc) {
  const source *s = source_get(S, loc->file);
  if (!s->data || loc->line == 0) return;
  const char *p = s->data, *end = s->data + s->len;
  for (unsigned l = 1; l < loc->line && p < end; l++) {
    const char *nl = memchr(p, '\n', (size_t)(end - p));
    if (!nl) return;
    p = nl + 1;
  }
  const char *eol = memchr(p, '\n', (size_t)(end - p));
  if (!eol) eol = end;
  if (eol > p && eol[-1] == '\r') eol--;
  hl_sb line = {0}, caret = {0};
  unsigned byte = 1;
  for (const char *q = p; q < eol; q++, byte++) {
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

void hl_emit_text(FILE *out, const hl_findings *all) {
  sources S = {0};
  for (size_t i = 0; i < all->n; i++) {
    const hl_finding *f = all->v[i];
    fprintf(out, "%s:%u:%u: %s: %s [%s]\n", hl_display_path(f->loc.file), f->loc.line, f->loc.col,
            severity_name(f->severity), f->message, f->rule);
    context(out, &S, &f->loc);
    for (size_t j = 0; j < f->nnotes; j++) {
      const hl_note *n = &f->notes[j];
      fprintf(out, "%s:%u:%u: note: %s\n", hl_display_path(n->loc.file), n->loc.line, n->loc.col, n->message);
      if (!same_place(&n->loc, &f->loc)) context(out, &S, &n->loc);
    }
  }
  sources_free(&S);
}
