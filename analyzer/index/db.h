/* index/db: the project index — every unit's summary (engine/summary.h) in
 * one embedded SQLite database, keyed by the unit's main file: the
 * functions other units can call (by USR, looked up through an SQL index),
 * the methods each overrides, each unit's zones, and the allocating values
 * passed to wrapper-typed parameters (the per-API figures). A unit is replaced
 * whole, and only when its summary changed; indexes built apart (CI shards,
 * build actions) merge by units, the later one's winning, as a link step
 * merges objects. The file is recognized by its application id and schema
 * version: any other SQLite file, or any other file, is refused, never
 * changed. */
#ifndef HEAPLINT_INDEX_DB_H
#define HEAPLINT_INDEX_DB_H

#include "engine/summary.h"
#include "util/strv.h"

typedef struct hl_index hl_index;

/* Opens (creating it when missing) the index at path, or one in memory
 * when path is NULL. Returns NULL with *err (naming the file). */
hl_index *hl_index_open(const char *path, char **err);
/* Opens the index at path only to read it (the language server: a run of
 * the check writes it), never making or changing a file. */
hl_index *hl_index_open_readonly(const char *path, char **err);
/* Writes are grouped: between begin and commit, all or nothing. */
int hl_index_begin(hl_index *X, char **err);
int hl_index_commit(hl_index *X, char **err);
/* Stores unit's summary, replacing what the index held of unit; nothing is
 * written when it holds this summary already. Returns 0, or -1 with *err. */
int hl_index_put(hl_index *X, const char *unit, const hl_summary *s, char **err);
/* Adds the units of the index at path (read only), replacing those of the
 * same names. Returns 0, or -1 with *err. */
int hl_index_merge(hl_index *X, const char *path, char **err);
/* unit's zones (a summary with zones only; NULL when the unit is not in
 * the index, or with *err when its row cannot be read). */
hl_summary *hl_index_zones(hl_index *X, const char *unit, char **err);
/* Every API (a function's wrapper-typed parameter) that receives
 * allocating values in the units named (the run's: its report is theirs,
 * whatever else the index holds; units NULL: every unit of the index),
 * the most sites first, with its sites and its declarations.
 * Returns 0 (*out: free with hl_api_figures_free), or -1 with *err. */
int hl_index_apis(hl_index *X, char *const *units, size_t nunits, hl_api_figure **out, size_t *n, char **err);
/* The lookups the rules' link step asks. */
hl_index_lookup hl_index_lookups(hl_index *X);
/* Closes X. Returns 0, or -1 with *err. */
int hl_index_close(hl_index *X, char **err);

#endif
