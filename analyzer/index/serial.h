/* index/serial: a unit's summary (engine/summary.h) as JSON text and back,
 * for the result cache's entries and the index's rows. Text read back is
 * untrusted (a cache or an index another run wrote): every field's type is
 * checked, and text that is not a summary is refused with the reason. */
#ifndef HEAPLINT_INDEX_SERIAL_H
#define HEAPLINT_INDEX_SERIAL_H

#include <stddef.h>

#include "engine/summary.h"

/* The summary as compact JSON (to free). */
char *hl_summary_json(const hl_summary *s);
/* The summary len bytes of text hold, or NULL with *err (to free). */
hl_summary *hl_summary_parse(const char *text, size_t len, char **err);

/* One function's part, as the index keeps it per function. */
char *hl_sfn_json(const hl_sfn *f);
int hl_sfn_parse(const char *text, size_t len, hl_sfn *out, char **err);

/* One wrapper alias, as the index keeps it per alias and unit. */
char *hl_salias_json(const hl_salias *a);
int hl_salias_parse(const char *text, size_t len, hl_salias *out, char **err);

/* Edits (with their text), as the index keeps a value's fixes. */
char *hl_sedits_json(const hl_edit *e, size_t n);
int hl_sedits_parse(const char *text, size_t len, hl_edit **out, size_t *n, char **err);

/* A unit's zones, as the index keeps them per unit; read back as a
 * summary with zones only. */
char *hl_szones_json(const hl_szone *z, size_t n);
hl_summary *hl_szones_parse(const char *text, size_t len, char **err);

#endif
