/* entry: one translation unit's result as the result cache keeps it, and
 * the file that holds it.
 *
 * The result — the findings (notes, ranges, fix edits with their file
 * hashes, the sites not decided), the library, target and profiles that
 * decided, and what the analysis said on stderr — goes to JSON (jansson)
 * and back exactly: a string that is not valid UTF-8 (a Latin-1 path) is
 * kept as its bytes in hex.
 *
 * The file is a first line "heaplint-cache <format> <FNV-1a-64 of the body,
 * 16 hex digits> <the body's length>", then the body, the JSON document
 * {"key": ..., "inputs": [...], "result": {...}}. The line is checked
 * before anything is parsed: a torn, truncated or bit-flipped file (a crash
 * before the data reached the disk, a CI cache copied in part) fails it
 * without reaching the JSON parser. It is no protection against a crafted
 * file, which can carry a right checksum: so everything in an entry is
 * untrusted input, and unpacking bounds every field later used as a
 * position (each within the file, of the right hash, that the unit read). */
#ifndef HEAPLINT_CACHE_ENTRY_H
#define HEAPLINT_CACHE_ENTRY_H

#include <jansson.h>
#include <stddef.h>

#include "engine/analyze.h"

/* The format of the entries this heaplint writes, the first line's second
 * word: it changes whenever the document's layout does, and an entry of
 * another format is not this heaplint's to read. */
#define HL_ENTRY_FORMAT 2

/* A string as JSON: itself when valid UTF-8, else {"hex": "..."}. */
json_t *hl_entry_text(const char *s);
/* The string hl_entry_text made (malloc'd), or NULL when j is neither. */
char *hl_entry_text_value(const json_t *j);

/* The result (an analyzed unit's) and its log (len bytes) as JSON: the
 * document's "result". */
json_t *hl_entry_pack(const hl_tu_result *res, const char *log, size_t len);

/* The fields of each of the document's "inputs", a file the unit read (the
 * main file first, the others ordered by path, each once): its path, the
 * size and FNV-1a-64 hash (16 hex digits) of the text libclang parsed,
 * and what the cache knew of it (modification and inode change times in
 * ns, inode number: integers, the cache's business). */
enum { HL_INPUT_PATH, HL_INPUT_SIZE, HL_INPUT_MTIME, HL_INPUT_CTIME, HL_INPUT_INO, HL_INPUT_HASH, HL_INPUT_FIELDS };

/* The entry file of doc (malloc'd, *len bytes), or NULL out of memory. */
char *hl_entry_frame(const json_t *doc, size_t *len);
/* The document of an entry file (text, len bytes) into *doc, its first
 * line, JSON and inputs checked. Returns 0; 1 when it is of another format
 * (not this heaplint's to read); -1 with *why (malloc'd) when it is not an
 * entry. */
int hl_entry_parse(const char *text, size_t len, json_t **doc, char **why);

/* Stable copies of the strings a restored finding points to without owning
 * them (its reason for not deciding): intern returns one for s. */
typedef const char *(*hl_entry_intern)(void *data, const char *s);

/* Fills res (result HL_ANALYZED, with its inputs) and *log (malloc'd) from
 * doc, which hl_entry_parse returned; a finding's rule is one of rules (the
 * run's, NULL-terminated). Returns 0, or -1 with *why (malloc'd) when its
 * result is malformed or out of bounds (res then holds nothing). */
int hl_entry_unpack(const json_t *doc, const struct hl_rule *const *rules, hl_entry_intern intern, void *data,
                    hl_tu_result *res, char **log, char **why);

#endif
