#include "lsp/convert.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "lsp/uri.h"
#include "report/jsontext.h"
#include "util/util.h"

lsp_pos lsp_pos_of(hl_sources *src, const char *path, unsigned line, unsigned col, lsp_encoding enc) {
  lsp_pos p = {line ? (long)line - 1 : 0, col ? (long)col - 1 : 0};
  size_t n;
  const char *text = hl_source_line(src, path, line, &n);
  if (text) p.character = lsp_units(text, (size_t)p.character < n ? (size_t)p.character : n, enc);
  return p;
}

lsp_pos lsp_pos_at(hl_sources *src, const char *path, size_t offset, lsp_encoding enc) {
  size_t len, n;
  unsigned nlines;
  const char *all = hl_source_text(src, path, &len, &nlines);
  if (!all || nlines == 0) return (lsp_pos){0, (long)offset};
  /* The last line that starts at or before offset. */
  unsigned lo = 1, hi = nlines;
  while (lo < hi) {
    unsigned mid = lo + (hi - lo + 1) / 2;
    if ((size_t)(hl_source_line(src, path, mid, &n) - all) <= offset) lo = mid;
    else hi = mid - 1;
  }
  const char *start = hl_source_line(src, path, lo, &n);
  size_t in_line = offset - (size_t)(start - all);
  /* Past the last line's break: the empty line after it. */
  if (offset >= len && len && all[len - 1] == '\n' && in_line > n) return (lsp_pos){(long)lo, 0};
  return (lsp_pos){(long)lo - 1, lsp_units(start, in_line < n ? in_line : n, enc)};
}

json_t *lsp_range_json(lsp_pos from, lsp_pos to) {
  return json_pack("{s:{s:I, s:I}, s:{s:I, s:I}}", "start", "line", (json_int_t)from.line, "character",
                   (json_int_t)from.character, "end", "line", (json_int_t)to.line, "character",
                   (json_int_t)to.character);
}

json_t *lsp_location_json(const char *path, lsp_pos from, lsp_pos to) {
  char *uri = lsp_path_uri(path);
  json_t *l = json_pack("{s:o, s:o}", "uri", hl_json_text(uri), "range", lsp_range_json(from, to));
  free(uri);
  return l;
}

static int word_byte(char c) { return isalnum((unsigned char)c) || c == '_' || ((unsigned char)c & 0x80); }

void lsp_range_of(hl_sources *src, const hl_loc *loc, unsigned end_line, unsigned end_col, lsp_encoding enc,
                  lsp_pos *from, lsp_pos *to) {
  *from = lsp_pos_of(src, loc->file, loc->line, loc->col, enc);
  if (end_line) {
    *to = lsp_pos_of(src, loc->file, end_line, end_col, enc);
    return;
  }
  size_t n;
  const char *text = hl_source_line(src, loc->file, loc->line, &n);
  size_t at = loc->col ? loc->col - 1 : 0, end = at;
  if (text && at < n) {
    while (end < n && word_byte(text[end])) end++;
    if (end == at) end = at + lsp_bytes(text + at, n - at, 1, LSP_UTF8);
  }
  *to = lsp_pos_of(src, loc->file, loc->line, (unsigned)end + 1, enc);
}

json_t *lsp_text_edit(hl_sources *src, const hl_edit *e, lsp_encoding enc) {
  lsp_pos from = lsp_pos_at(src, e->file, e->offset, enc);
  lsp_pos to = lsp_pos_at(src, e->file, (size_t)e->offset + e->length, enc);
  return json_pack("{s:o, s:o}", "range", lsp_range_json(from, to), "newText", hl_json_text(e->text));
}
