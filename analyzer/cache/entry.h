/* entry: one translation unit's result as the result cache keeps it — the
 * findings (notes, ranges, fix edits with their file hashes, the sites not
 * decided), the library, target and profiles that decided, and what the
 * analysis said on stderr — as JSON (jansson) and back, exactly: a string
 * that is not valid UTF-8 (a Latin-1 path) is kept as its bytes in hex. */
#ifndef HEAPLINT_CACHE_ENTRY_H
#define HEAPLINT_CACHE_ENTRY_H

#include <jansson.h>
#include <stddef.h>

#include "engine/analyze.h"

/* A string as JSON: itself when valid UTF-8, else {"hex": "..."}. */
json_t *hl_entry_text(const char *s);
/* The string hl_entry_text made (malloc'd), or NULL when j is neither. */
char *hl_entry_text_value(const json_t *j);

/* The result (an analyzed unit's) and its log (len bytes) as JSON. */
json_t *hl_entry_pack(const hl_tu_result *res, const char *log, size_t len);

/* Stable copies of the strings a restored finding points to without owning
 * them (its reason for not deciding): intern returns one for s. */
typedef const char *(*hl_entry_intern)(void *data, const char *s);

/* Fills res (result HL_ANALYZED, no inputs) and *log (malloc'd) from j.
 * Returns 0, or -1 with *why (malloc'd) when j is not such an entry (res
 * then holds nothing). */
int hl_entry_unpack(const json_t *j, hl_entry_intern intern, void *data, hl_tu_result *res, char **log, char **why);

#endif
