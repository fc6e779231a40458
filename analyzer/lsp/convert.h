/* convert: heaplint's places (1-based line, byte column, byte offset, as
 * clang counts) as LSP positions and ranges (0-based line, characters in
 * the negotiated encoding), and its paths as the URIs the client knows.
 *
 * Texts are read through the report stage's source set — the text the
 * analysis saw: the editor's for open files, else the file on disk — and
 * their lines are the LSP's and clang's ("\r\n", "\n" or a lone "\r": the
 * source set splits on "\n" only). A path the client opened is sent back
 * under the URI the client opened it with (a symlinked directory, "..",
 * file://localhost/ name the same file another way): an edit keyed by
 * another URI would go to another, unopened document. */
#ifndef HEAPLINT_LSP_CONVERT_H
#define HEAPLINT_LSP_CONVERT_H

#include <jansson.h>

#include "engine/finding.h"
#include "lsp/text.h"
#include "report/source.h"

typedef struct lsp_pos {
  long line, character;
} lsp_pos;

/* One conversion's state: the texts read, indexed once. */
typedef struct lsp_conv lsp_conv;

/* src must outlive it. The open documents: n (path, URI) pairs, the paths
 * absolute and canonical; copied. Where two URIs name one path, the first
 * wins. */
lsp_conv *lsp_conv_new(hl_sources *src, lsp_encoding enc, char *const *paths, char *const *uris, size_t n);
void lsp_conv_free(lsp_conv *c);

/* The URI of path: the client's for an open document, else its file: URI.
 * Caller frees. */
char *lsp_conv_uri(lsp_conv *c, const char *path);

/* Line number line (1-based) of path without its line end: *n bytes at the
 * returned pointer (valid until c is freed); NULL when there is none. */
const char *lsp_conv_line(lsp_conv *c, const char *path, unsigned line, size_t *n);

/* The position of (line, col) in path; a file or line that cannot be read
 * keeps the byte column. */
lsp_pos lsp_pos_of(lsp_conv *c, const char *path, unsigned line, unsigned col);
/* The position of a byte offset of path. */
lsp_pos lsp_pos_at(lsp_conv *c, const char *path, size_t offset);

/* A Range, a Location. */
json_t *lsp_range_json(lsp_pos from, lsp_pos to);
json_t *lsp_location_json(lsp_conv *c, const char *path, lsp_pos from, lsp_pos to);

/* The range a finding (or a layout) at loc shows: to (end_line, end_col),
 * or, for a point, to the end of the word at loc (one character when none
 * starts there). */
void lsp_range_of(lsp_conv *c, const hl_loc *loc, unsigned end_line, unsigned end_col, lsp_pos *from, lsp_pos *to);

/* A TextEdit replacing e's bytes with its text. */
json_t *lsp_text_edit(lsp_conv *c, const hl_edit *e);

#endif
