/* text: an open document's text as the language server keeps it — UTF-8
 * bytes (NUL bytes too: the length counts) and where each line starts —
 * its incremental edits, and the one conversion every position goes
 * through: the LSP counts a line's characters in UTF-16 code units, or in
 * UTF-8 bytes when the client chose that; heaplint's findings count bytes
 * (clang's columns). Bytes that are not UTF-8 count one unit each. A line
 * ends with "\r\n", "\n" or a lone "\r" (the LSP's line ends, and the
 * lines clang numbers). */
#ifndef HEAPLINT_LSP_TEXT_H
#define HEAPLINT_LSP_TEXT_H

#include <stddef.h>

typedef enum lsp_encoding { LSP_UTF16, LSP_UTF8 } lsp_encoding;

typedef struct lsp_text {
  char *s; /* NUL-terminated, len bytes */
  size_t len;
  size_t *lines; /* offset of each line's start; nlines >= 1 */
  size_t nlines, caplines;
} lsp_text;

void lsp_text_set(lsp_text *t, const char *s, size_t len);
void lsp_text_free(lsp_text *t);

/* The byte offset of the LSP position (0-based line, character); a
 * character past the line's end means its end, a line past the text's its
 * end (as the protocol says). */
size_t lsp_text_offset(const lsp_text *t, long line, long character, lsp_encoding enc);

/* The LSP position of a byte offset (past the end: the end): its 0-based
 * line, and the characters before it on that line (an offset inside a
 * line break is the line's end). */
void lsp_text_position(const lsp_text *t, size_t offset, lsp_encoding enc, long *line, long *character);

/* Replaces the bytes [from, to) with n bytes of s. */
void lsp_text_replace(lsp_text *t, size_t from, size_t to, const char *s, size_t n);

/* The LSP character count of the n bytes at p. */
long lsp_units(const char *p, size_t n, lsp_encoding enc);
/* How many of the n bytes at p make up character characters (all n when
 * the line is shorter); never splits a UTF-8 sequence. */
size_t lsp_bytes(const char *p, size_t n, long character, lsp_encoding enc);

/* The length of a line's content at p (n bytes to the text's end): up to
 * its line break, "\r\n", "\n" or "\r". */
size_t lsp_line_length(const char *p, size_t n);

#endif
