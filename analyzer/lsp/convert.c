#include "lsp/convert.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "lsp/uri.h"
#include "report/jsontext.h"
#include "util/util.h"

typedef struct indexed {
  char *path;
  int readable;
  lsp_text text;
} indexed;

struct lsp_conv {
  hl_sources *src;
  lsp_encoding enc;
  char **paths, **uris; /* the open documents */
  size_t ndocs;
  indexed *files; /* the texts read so far */
  size_t nfiles, capfiles;
};

lsp_conv *lsp_conv_new(hl_sources *src, lsp_encoding enc, char *const *paths, char *const *uris, size_t n) {
  lsp_conv *c = hl_xcalloc(1, sizeof *c);
  c->src = src;
  c->enc = enc;
  c->paths = hl_xcalloc(n ? n : 1, sizeof *c->paths);
  c->uris = hl_xcalloc(n ? n : 1, sizeof *c->uris);
  for (size_t i = 0; i < n; i++) {
    c->paths[i] = hl_xstrdup(paths[i]);
    c->uris[i] = hl_xstrdup(uris[i]);
  }
  c->ndocs = n;
  return c;
}

void lsp_conv_free(lsp_conv *c) {
  if (!c) return;
  for (size_t i = 0; i < c->ndocs; i++) {
    free(c->paths[i]);
    free(c->uris[i]);
  }
  free(c->paths);
  free(c->uris);
  for (size_t i = 0; i < c->nfiles; i++) {
    free(c->files[i].path);
    lsp_text_free(&c->files[i].text);
  }
  free(c->files);
  free(c);
}

char *lsp_conv_uri(lsp_conv *c, const char *path) {
  for (size_t i = 0; i < c->ndocs; i++)
    if (!strcmp(c->paths[i], path)) return hl_xstrdup(c->uris[i]);
  return lsp_path_uri(path);
}

/* path's text with its lines, or NULL when it cannot be read. */
static const lsp_text *text_of(lsp_conv *c, const char *path) {
  for (size_t i = 0; i < c->nfiles; i++)
    if (!strcmp(c->files[i].path, path)) return c->files[i].readable ? &c->files[i].text : NULL;
  size_t len;
  unsigned nlines;
  const char *all = hl_source_text(c->src, path, &len, &nlines);
  indexed f = {hl_xstrdup(path), all != NULL, {0}};
  if (all) lsp_text_set(&f.text, all, len);
  HL_PUSH(c->files, c->nfiles, c->capfiles, f);
  return all ? &c->files[c->nfiles - 1].text : NULL;
}

const char *lsp_conv_line(lsp_conv *c, const char *path, unsigned line, size_t *n) {
  const lsp_text *t = text_of(c, path);
  if (!t || line == 0 || line > t->nlines) return NULL;
  size_t start = t->lines[line - 1];
  *n = lsp_line_length(t->s + start, t->len - start);
  return t->s + start;
}

lsp_pos lsp_pos_of(lsp_conv *c, const char *path, unsigned line, unsigned col) {
  lsp_pos p = {line ? (long)line - 1 : 0, col ? (long)col - 1 : 0};
  size_t n;
  const char *text = lsp_conv_line(c, path, line, &n);
  if (text) p.character = lsp_units(text, (size_t)p.character < n ? (size_t)p.character : n, c->enc);
  return p;
}

lsp_pos lsp_pos_at(lsp_conv *c, const char *path, size_t offset) {
  const lsp_text *t = text_of(c, path);
  if (!t) return (lsp_pos){0, (long)offset};
  lsp_pos p;
  lsp_text_position(t, offset, c->enc, &p.line, &p.character);
  return p;
}

json_t *lsp_range_json(lsp_pos from, lsp_pos to) {
  return json_pack("{s:{s:I, s:I}, s:{s:I, s:I}}", "start", "line", (json_int_t)from.line, "character",
                   (json_int_t)from.character, "end", "line", (json_int_t)to.line, "character",
                   (json_int_t)to.character);
}

json_t *lsp_location_json(lsp_conv *c, const char *path, lsp_pos from, lsp_pos to) {
  char *uri = lsp_conv_uri(c, path);
  json_t *l = json_pack("{s:o, s:o}", "uri", hl_json_text(uri), "range", lsp_range_json(from, to));
  free(uri);
  return l;
}

static int word_byte(char ch) { return isalnum((unsigned char)ch) || ch == '_' || ((unsigned char)ch & 0x80); }

void lsp_range_of(lsp_conv *c, const hl_loc *loc, unsigned end_line, unsigned end_col, lsp_pos *from, lsp_pos *to) {
  *from = lsp_pos_of(c, loc->file, loc->line, loc->col);
  if (end_line) {
    *to = lsp_pos_of(c, loc->file, end_line, end_col);
    return;
  }
  size_t n;
  const char *text = lsp_conv_line(c, loc->file, loc->line, &n);
  size_t at = loc->col ? loc->col - 1 : 0, end = at;
  if (text && at < n) {
    while (end < n && word_byte(text[end])) end++;
    if (end == at) end = at + lsp_bytes(text + at, n - at, 1, LSP_UTF8);
  }
  *to = lsp_pos_of(c, loc->file, loc->line, (unsigned)end + 1);
}

json_t *lsp_text_edit(lsp_conv *c, const hl_edit *e) {
  lsp_pos from = lsp_pos_at(c, e->file, e->offset);
  lsp_pos to = lsp_pos_at(c, e->file, (size_t)e->offset + e->length);
  return json_pack("{s:o, s:o}", "range", lsp_range_json(from, to), "newText", hl_json_text(e->text));
}
