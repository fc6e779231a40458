/* block: what the pool and the size-class allocator both do to a block —
 * read and write the free-list link kept in a free block's first word, and
 * the power-of-two arithmetic of their layouts. Inline, as these sit on the
 * fast paths. The link goes through memcpy: the block's memory may be a
 * caller's static array whose declared type is not void *. */
#ifndef HEAPLINT_SRC_BLOCK_H
#define HEAPLINT_SRC_BLOCK_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

static inline void *link_get(const void *b) {
  void *next;
  memcpy(&next, b, sizeof next);
  return next;
}

static inline void link_set(void *b, const void *next) { memcpy(b, &next, sizeof next); }

static inline int is_pow2(size_t n) { return n && (n & (n - 1)) == 0; }

/* a rounded up to a multiple of m (a power of two), or 0 on overflow. */
static inline size_t align_up(size_t a, size_t m) {
  if (a > SIZE_MAX - (m - 1)) return 0;
  return (a + m - 1) & ~(m - 1);
}

#endif
