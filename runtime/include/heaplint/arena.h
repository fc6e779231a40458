/* heaplint/arena.h: a monotonic arena. Allocation bumps a pointer inside the
 * current region; there is no per-object free; hl_arena_reset gives back
 * everything at once and keeps memory for the next round (a frame, a
 * request, a parse). The first region is the caller's buffer (static mode)
 * or a block from the upstream; when a region is full the arena takes a new
 * block from the upstream, twice the size of the last. With no upstream it
 * never grows and hl_arena_alloc returns NULL when full: no heap, ever.
 *
 * Single-threaded: one arena per thread or per task. */
#ifndef HEAPLINT_ARENA_H
#define HEAPLINT_ARENA_H

#include <stddef.h>

#include "alloc.h"
#include "status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Blocks are asked of the upstream with this alignment, and given back with
 * their size (hl_fallback.free's size); requests for more alignment are
 * served by skipping bytes inside a block. */
#define HL_ARENA_BLOCK_ALIGN 16

typedef struct hl_arena hl_arena;

typedef struct hl_arena_config {
  const char *name;            /* shown in statistics (copied, 31 chars) */
  size_t block_size;           /* the first block taken from the upstream; default 4 KiB */
  const hl_fallback *upstream; /* where blocks come from. NULL: the system allocator for
                                  hl_arena_create, nothing (never grow) for
                                  hl_arena_create_static; &hl_fallback_none: never grow */
} hl_arena_config;

typedef struct hl_arena_stats {
  const char *name;
  size_t used;       /* bytes handed out since the last reset, alignment padding included */
  size_t high_water; /* the largest used seen */
  size_t capacity;   /* bytes of the regions the arena holds now */
  size_t blocks;     /* blocks held from the upstream */
  size_t resets;
  size_t failures; /* requests answered with NULL */
} hl_arena_stats;

/* Growing arena: its control block and every region come from the upstream
 * (or the system allocator). HL_ENOMEM when the first block cannot be had. */
hl_status hl_arena_create(hl_arena **out, const hl_arena_config *cfg);
/* Static mode: the control block and the first region live in
 * [mem, mem + size), which must stay untouched until destroy. HL_ENOSPC when
 * it cannot hold the control block. Grows only when cfg->upstream is given. */
hl_status hl_arena_create_static(hl_arena **out, void *mem, size_t size, const hl_arena_config *cfg);
/* Gives every block back to the upstream; all allocations become invalid. */
void hl_arena_destroy(hl_arena *a);

/* size bytes aligned to align (a power of two; 0 means alignof(max_align_t)),
 * or NULL when the arena is full and cannot grow. size 0 returns a unique
 * pointer, like malloc(1). */
void *hl_arena_alloc(hl_arena *a, size_t size, size_t align);
/* Every allocation becomes invalid; the arena starts over in its first
 * region and keeps its largest block for reuse, giving the others back. */
void hl_arena_reset(hl_arena *a);

void hl_arena_stats_get(const hl_arena *a, hl_arena_stats *out);

#ifdef __cplusplus
}
#endif

#endif
