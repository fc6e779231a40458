/* strv: the analyzer's one vector of strings — each an owned copy, the
 * array kept NULL-terminated so that v passes as an argv — the test
 * whether a string is in an array (and where), and a count per string
 * (kept sorted, found by binary search: what was seen, and how often). */
#ifndef HEAPLINT_UTIL_STRV_H
#define HEAPLINT_UTIL_STRV_H

#include <stddef.h>

#include "util/util.h"

typedef struct hl_strv {
  char **v; /* n strings, then NULL (v itself is NULL while empty) */
  size_t n, cap;
} hl_strv;

/* Adds a copy of x. */
void hl_strv_add(hl_strv *s, const char *x);
/* Adds a formatted string (messages: errors found while building the job
 * list, ...). */
void hl_strv_addf(hl_strv *s, const char *fmt, ...) HL_PRINTF(2, 3);
/* Adds a copy of x unless it is there already. Returns 1 when added. */
int hl_strv_add_unique(hl_strv *s, const char *x);
/* s->v as an argv: NULL-terminated, never NULL itself. */
char **hl_strv_argv(hl_strv *s);
/* Frees the strings and the array; s is empty again. */
void hl_strv_free(hl_strv *s);

/* Whether s equals one of the n strings of v. */
int hl_str_in(const char *s, const char *const *v, size_t n);
/* The index of the first of the n strings of v that equals s, or n. */
size_t hl_str_index(const char *s, const char *const *v, size_t n);

typedef struct hl_strcount {
  char **keys; /* n owned copies, in strcmp order */
  size_t *counts;
  size_t n, cap;
} hl_strcount;

/* The count of key, which starts at 0 when key is new. */
size_t *hl_strcount_at(hl_strcount *m, const char *key);
void hl_strcount_free(hl_strcount *m);

#endif
