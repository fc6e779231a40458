/* source: the text of source files as the emitters, suppressions and
 * fingerprints read it after the analysis — each file read once (or given:
 * the text an editor has), lines found by number. Not thread-safe: one
 * thread uses a set. */
#ifndef HEAPLINT_SOURCE_H
#define HEAPLINT_SOURCE_H

#include <stddef.h>

typedef struct hl_sources hl_sources;

hl_sources *hl_sources_new(void);
void hl_sources_free(hl_sources *S);

/* The text path has (an editor's unsaved text), read in its place; a file
 * already read keeps what was read. data is copied. */
void hl_sources_put(hl_sources *S, const char *path, const char *data, size_t len);

/* Line number line (1-based) of path, without its line ending: *len bytes
 * at the returned pointer. NULL when the file or the line cannot be read. */
const char *hl_source_line(hl_sources *S, const char *path, unsigned line, size_t *len);

/* Byte column col (1-based) of line as a UTF-16 column, SARIF's: 1 plus
 * the UTF-16 code units of the bytes before it. col itself when the line
 * cannot be read; bytes past the line's end count one each. */
unsigned hl_source_utf16_col(hl_sources *S, const char *path, unsigned line, unsigned col);

/* The whole file (NULL when unreadable); *nlines lines. */
const char *hl_source_text(hl_sources *S, const char *path, size_t *len, unsigned *nlines);

#endif
