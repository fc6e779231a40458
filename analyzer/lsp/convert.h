/* convert: heaplint's places (1-based line, byte column, byte offset, as
 * clang counts) as LSP positions and ranges (0-based line, characters in
 * the negotiated encoding), reading each file's text through the report
 * stage's source set — the text the analysis saw: the editor's for open
 * files, else the file on disk. */
#ifndef HEAPLINT_LSP_CONVERT_H
#define HEAPLINT_LSP_CONVERT_H

#include <jansson.h>

#include "engine/finding.h"
#include "lsp/text.h"
#include "report/source.h"

typedef struct lsp_pos {
  long line, character;
} lsp_pos;

/* The position of (line, col) in path; a file that cannot be read keeps
 * the byte column. */
lsp_pos lsp_pos_of(hl_sources *src, const char *path, unsigned line, unsigned col, lsp_encoding enc);
/* The position of a byte offset of path. */
lsp_pos lsp_pos_at(hl_sources *src, const char *path, size_t offset, lsp_encoding enc);

/* A Range, a Location. */
json_t *lsp_range_json(lsp_pos from, lsp_pos to);
json_t *lsp_location_json(const char *path, lsp_pos from, lsp_pos to);

/* The range a finding (or a layout) at loc shows: to (end_line, end_col),
 * or, for a point, to the end of the word at loc (one character when none
 * starts there). */
void lsp_range_of(hl_sources *src, const hl_loc *loc, unsigned end_line, unsigned end_col, lsp_encoding enc,
                  lsp_pos *from, lsp_pos *to);

/* A TextEdit replacing e's bytes with its text. */
json_t *lsp_text_edit(hl_sources *src, const hl_edit *e, lsp_encoding enc);

#endif
