#include "lsp/text.h"

#include <stdlib.h>
#include <string.h>

#include "util/util.h"

/* A line ends with "\r\n", "\n" or a lone "\r", as the LSP says and as
 * clang counts the lines of a finding. */
static void index_lines(lsp_text *t) {
  t->nlines = 0;
  HL_PUSH(t->lines, t->nlines, t->caplines, 0);
  for (size_t i = 0; i < t->len; i++)
    if (t->s[i] == '\n' || (t->s[i] == '\r' && (i + 1 == t->len || t->s[i + 1] != '\n')))
      HL_PUSH(t->lines, t->nlines, t->caplines, i + 1);
}

void lsp_text_set(lsp_text *t, const char *s, size_t len) {
  char *copy = hl_xmalloc(len + 1);
  memcpy(copy, s, len);
  copy[len] = '\0';
  free(t->s);
  t->s = copy;
  t->len = len;
  index_lines(t);
}

void lsp_text_free(lsp_text *t) {
  free(t->s);
  free(t->lines);
  memset(t, 0, sizeof *t);
}

/* The length of the UTF-8 sequence starting with byte c, 1 for a byte that
 * starts none. */
static size_t seq_len(unsigned char c) {
  if (c >= 0xF0 && c <= 0xF4) return 4;
  if (c >= 0xE0) return c <= 0xEF ? 3 : 1;
  if (c >= 0xC2) return 2;
  return 1;
}

/* One character at p (at most n bytes): its bytes, and its units. */
static size_t one(const char *p, size_t n, lsp_encoding enc, long *units) {
  size_t k = seq_len((unsigned char)p[0]);
  for (size_t i = 1; i < k; i++)
    if (i >= n || ((unsigned char)p[i] & 0xC0) != 0x80) k = 1;
  /* Outside the BMP, UTF-16 takes a surrogate pair. */
  *units = enc == LSP_UTF8 ? (long)k : k == 4 ? 2 : 1;
  return k;
}

long lsp_units(const char *p, size_t n, lsp_encoding enc) {
  long total = 0, u;
  for (size_t i = 0; i < n;) {
    i += one(p + i, n - i, enc, &u);
    total += u;
  }
  return total;
}

size_t lsp_bytes(const char *p, size_t n, long character, lsp_encoding enc) {
  long done = 0, u;
  size_t i = 0;
  while (i < n && done < character) {
    size_t k = one(p + i, n - i, enc, &u);
    if (done + u > character) break; /* inside a surrogate pair: its start */
    i += k;
    done += u;
  }
  return i;
}

size_t lsp_line_length(const char *p, size_t n) {
  size_t k = 0;
  while (k < n && p[k] != '\n' && p[k] != '\r') k++;
  return k;
}

size_t lsp_text_offset(const lsp_text *t, long line, long character, lsp_encoding enc) {
  if (line < 0) return 0;
  if ((size_t)line >= t->nlines) return t->len;
  size_t start = t->lines[line];
  size_t n = lsp_line_length(t->s + start, t->len - start);
  return start + lsp_bytes(t->s + start, n, character < 0 ? 0 : character, enc);
}

void lsp_text_position(const lsp_text *t, size_t offset, lsp_encoding enc, long *line, long *character) {
  if (offset > t->len) offset = t->len;
  /* The last line that starts at or before offset. */
  size_t lo = 0, hi = t->nlines - 1;
  while (lo < hi) {
    size_t mid = lo + (hi - lo + 1) / 2;
    if (t->lines[mid] <= offset)
      lo = mid;
    else
      hi = mid - 1;
  }
  size_t start = t->lines[lo], n = lsp_line_length(t->s + start, t->len - start);
  *line = (long)lo;
  *character = lsp_units(t->s + start, offset - start < n ? offset - start : n, enc);
}

void lsp_text_replace(lsp_text *t, size_t from, size_t to, const char *s, size_t n) {
  if (to > t->len) to = t->len;
  if (from > to) from = to;
  size_t len = t->len - (to - from) + n;
  char *out = hl_xmalloc(len + 1);
  memcpy(out, t->s, from);
  memcpy(out + from, s, n);
  memcpy(out + from + n, t->s + to, t->len - to);
  out[len] = '\0';
  free(t->s);
  t->s = out;
  t->len = len;
  index_lines(t);
}
