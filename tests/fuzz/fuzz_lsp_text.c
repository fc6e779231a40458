/* The language server's text model (lsp/text.h) under any sequence of
 * edits, at any positions, in either encoding: after each, the line index
 * is the text's ("\r\n", "\n" or a lone "\r" end a line), every offset a
 * position gives is inside the text and on its line, and positions and
 * offsets convert back and forth (from a character's boundary).
 *
 * Input: one byte for the encoding, then operations, each a byte (its low
 * two bits: 0 set the text, 1 replace a range given as two positions, 2
 * replace a range given as two offsets, 3 check the conversions only)
 * followed by its operands: positions as (line, character) bytes, offsets
 * as two bytes each, a text as a length byte and that many bytes. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lsp/text.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

typedef struct input {
  const uint8_t *p;
  size_t n;
} input;

static unsigned byte(input *in) {
  if (!in->n) return 0;
  in->n--;
  return *in->p++;
}

/* A text operand: at most 255 bytes, those that are left. */
static const char *bytes(input *in, size_t *len) {
  size_t want = byte(in);
  *len = want < in->n ? want : in->n;
  const char *s = (const char *)in->p;
  in->p += *len;
  in->n -= *len;
  return s;
}

static int is_break_end(const lsp_text *t, size_t i) {
  return t->s[i - 1] == '\n' || (t->s[i - 1] == '\r' && (i == t->len || t->s[i] != '\n'));
}

static void check_lines(const lsp_text *t) {
  if (t->s[t->len] != '\0' || t->nlines < 1 || t->lines[0] != 0) abort();
  size_t k = 1;
  for (size_t i = 1; i <= t->len; i++)
    if (is_break_end(t, i) && (k >= t->nlines || t->lines[k++] != i)) abort();
  if (k != t->nlines) abort();
  for (size_t l = 0; l < t->nlines; l++) {
    size_t start = t->lines[l], n = lsp_line_length(t->s + start, t->len - start), end = start + n;
    if (end > t->len) abort();
    if (l + 1 == t->nlines ? end != t->len : t->lines[l + 1] != end + 1 + (t->s[end] == '\r' && t->s[end + 1] == '\n'))
      abort();
  }
}

static void check_positions(const lsp_text *t, lsp_encoding enc) {
  for (size_t l = 0; l < t->nlines; l++) {
    size_t start = t->lines[l], n = lsp_line_length(t->s + start, t->len - start);
    long units = lsp_units(t->s + start, n, enc);
    if (lsp_bytes(t->s + start, n, units, enc) != n) abort();
    if (lsp_text_offset(t, (long)l, units + 7, enc) != start + n) abort();
  }
  if (lsp_text_offset(t, (long)t->nlines + 3, 0, enc) != t->len) abort();
  size_t step = t->len / 256 + 1;
  for (size_t off = 0; off <= t->len + 1; off += step) {
    long line, ch;
    lsp_text_position(t, off, enc, &line, &ch);
    if (line < 0 || (size_t)line >= t->nlines) abort();
    size_t back = lsp_text_offset(t, line, ch, enc), start = t->lines[line];
    if (back < start || back > start + lsp_line_length(t->s + start, t->len - start)) abort();
    /* An offset inside a character comes back at one of its ends; from
     * there, the conversions agree. */
    long line2, ch2;
    lsp_text_position(t, back, enc, &line2, &ch2);
    if (line2 != line || lsp_text_offset(t, line2, ch2, enc) != back) abort();
  }
}

/* A range as the document layer gives it: two positions in order. */
static void replace_positions(lsp_text *t, input *in, lsp_encoding enc) {
  long l0 = (signed char)byte(in), c0 = (signed char)byte(in), l1 = (signed char)byte(in), c1 = (signed char)byte(in);
  size_t n;
  const char *s = bytes(in, &n);
  if (l1 < l0 || (l1 == l0 && c1 < c0)) return;
  lsp_text_replace(t, lsp_text_offset(t, l0, c0, enc), lsp_text_offset(t, l1, c1, enc), s, n);
}

static void replace_offsets(lsp_text *t, input *in) {
  size_t from = byte(in) << 8 | byte(in), to = byte(in) << 8 | byte(in);
  size_t n;
  const char *s = bytes(in, &n);
  lsp_text_replace(t, from, to, s, n);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  input in = {data, size};
  lsp_encoding enc = byte(&in) & 1 ? LSP_UTF8 : LSP_UTF16;
  lsp_text t;
  memset(&t, 0, sizeof t);
  lsp_text_set(&t, "", 0);
  while (in.n) {
    unsigned op = byte(&in) & 3;
    size_t n;
    const char *s;
    if (op == 0) {
      s = bytes(&in, &n);
      lsp_text_set(&t, s, n);
    } else if (op == 1) {
      replace_positions(&t, &in, enc);
    } else if (op == 2) {
      replace_offsets(&t, &in);
    }
    check_lines(&t);
    check_positions(&t, enc);
  }
  lsp_text_free(&t);
  return 0;
}
