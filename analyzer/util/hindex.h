/* hindex: a hash index from string keys to positions, for the readers'
 * checks that must stay linear in their input (a key given twice, a
 * command listed twice, a baseline entry matched, a rule found by id).
 *
 * The caller keeps the items; the index maps a key's hash to the positions
 * of the items added under it, and the caller compares the keys of the
 * candidates it returns: add each distinct key once (a count per key, in
 * the caller's items, stands for repeats), so that no run of equal hashes
 * grows. The hash is seeded per process, so an input cannot be made of
 * keys that all collide. */
#ifndef HEAPLINT_UTIL_HINDEX_H
#define HEAPLINT_UTIL_HINDEX_H

#include <stddef.h>

typedef struct hl_hindex {
  unsigned long long *hashes; /* per slot; 0: empty */
  size_t *positions;
  size_t n, cap;
} hl_hindex;

/* The hash of the n bytes at key; parts joins several strings into one
 * key (each counted with its terminating NUL). Never 0. */
unsigned long long hl_hindex_hash(const void *key, size_t n);
unsigned long long hl_hindex_hash_parts(const char *const *parts, size_t nparts);

/* Adds position under hash. */
void hl_hindex_add(hl_hindex *ix, unsigned long long hash, size_t position);
/* The positions added under hash, one per call: *cursor starts at 0.
 * Returns 1 with *position, or 0 when there are no more. */
int hl_hindex_next(const hl_hindex *ix, unsigned long long hash, size_t *cursor, size_t *position);
void hl_hindex_free(hl_hindex *ix);

#endif
