/* heaplint/alloc.h: the size-class allocator, malloc's interface over
 * fixed-block pools. Requests up to a configurable limit are rounded up to
 * one of the size classes (8, 16, 24, ... bytes) and served from chunks that
 * hold blocks of one class; larger ones go to a fallback (the system
 * allocator, or nothing in a no-heap build).
 *
 * Chunks are aligned to their size and begin with a header naming their
 * class and owner, so hl_free finds the class of a block from its address:
 * there is no header in front of each block.
 *
 * Two ways to use it:
 *   hl_malloc, hl_free, ...       one process-wide allocator, safe from any
 *                                 thread (each thread allocates from its own
 *                                 heap; blocks freed by another thread are
 *                                 handed back to the owner without locks,
 *                                 in batches, and reused before it grows).
 *                                 hl_configure chooses its memory before the
 *                                 first use: a static arena makes it heap-free.
 *   hl_allocator_create[_static]  a private instance, single-threaded unless
 *                                 HL_ALLOC_LOCKED; e.g. one per container. */
#ifndef HEAPLINT_ALLOC_H
#define HEAPLINT_ALLOC_H

#include <stddef.h>

#include "pool.h"
#include "status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Where requests above max_class go. alloc must return memory aligned to
 * align (a power of two, at most the chunk size) or NULL. */
typedef struct hl_fallback {
  void *(*alloc)(void *ctx, size_t size, size_t align);
  void (*free)(void *ctx, void *p, size_t size);
  void *ctx;
} hl_fallback;

extern const hl_fallback hl_fallback_none;   /* every large request fails */
extern const hl_fallback hl_fallback_system; /* posix_memalign/free; absent with HL_NO_HEAP */

/* Option flags of hl_allocator_config.flags. */
#define HL_ALLOC_LOCKED 1u /* a private instance shared between threads (one mutex) */

typedef struct hl_allocator_config {
  const char *name;     /* shown in statistics and debug reports (copied, 31 chars) */
  size_t chunk_size;    /* power of two, 4 KiB .. 16 MiB */
  size_t max_class;     /* largest request served by a size class, <= chunk_size / 4 */
  size_t retain_chunks; /* empty chunks each heap keeps for reuse instead of releasing;
                            freed large blocks are kept up to retain_chunks * chunk_size bytes */
  void *arena;          /* static mode: all chunks come from [arena, arena + arena_size) */
  size_t arena_size;
  const hl_fallback *fallback; /* NULL: system in chunk mode, none in static mode */
  unsigned flags;              /* HL_ALLOC_* */
  hl_exhausted_fn on_exhausted;
  void *on_exhausted_ctx;
} hl_allocator_config;

/* Fills cfg with the defaults: 64 KiB chunks (16 KiB with an arena),
 * max_class = min(4096, chunk_size / 16), 16 retained chunks. A field left 0
 * also means its default, except retain_chunks. */
void hl_allocator_config_default(hl_allocator_config *cfg);

typedef struct hl_allocator hl_allocator;

/* Chunk mode: chunks come from the system allocator (malloc's heap). */
hl_status hl_allocator_create(hl_allocator **out, const hl_allocator_config *cfg);
/* Static mode: everything, the instance included, lives in
 * [mem, mem + mem_size), which must stay untouched until destroy. Requests
 * above max_class fail unless cfg->fallback says otherwise. */
hl_status hl_allocator_create_static(hl_allocator **out, void *mem, size_t mem_size, const hl_allocator_config *cfg);
/* Releases all chunks; blocks still in use become invalid. */
void hl_allocator_destroy(hl_allocator *a);

void *hl_allocator_malloc(hl_allocator *a, size_t size);
void *hl_allocator_calloc(hl_allocator *a, size_t n, size_t size);
void *hl_allocator_realloc(hl_allocator *a, void *p, size_t size);
/* align: a power of two; blocks of up to 64-byte alignment come from the
 * classes, larger ones from the fallback. */
void *hl_allocator_aligned_alloc(hl_allocator *a, size_t align, size_t size);
void hl_allocator_free(hl_allocator *a, void *p);
size_t hl_allocator_usable_size(hl_allocator *a, const void *p);
/* Releases the empty chunks and freed large blocks kept for reuse; returns
 * how many. */
size_t hl_allocator_trim(hl_allocator *a);

/* Statistics per size class: index 0 .. class_count - 1 are the classes in
 * increasing size, index class_count is the fallback ("large") requests,
 * counted in requests. totals sums the classes and the fallback. */
size_t hl_allocator_class_count(hl_allocator *a);
hl_status hl_allocator_class_stats(hl_allocator *a, size_t index, hl_pool_stats *out);
void hl_allocator_totals(hl_allocator *a, hl_pool_stats *out);

/* The process-wide allocator. hl_malloc returns memory aligned to
 * alignof(max_align_t) (8 for requests of at most 8 bytes); hl_realloc(p, 0)
 * frees p and returns NULL. */
void *hl_malloc(size_t size);
void *hl_calloc(size_t n, size_t size);
void *hl_realloc(void *p, size_t size);
void *hl_aligned_alloc(size_t align, size_t size);
void hl_free(void *p);
size_t hl_usable_size(const void *p);

/* Configures the process-wide allocator; only before its first use
 * (HL_EBUSY after). cfg->flags is ignored: it is always thread-safe. */
hl_status hl_configure(const hl_allocator_config *cfg);
/* Gives the blocks in the calling thread's bins (hl::pool_allocator's
 * batches) back to its heap, hands over the blocks of other threads it
 * freed and has not handed over yet (they go in batches), then releases its retained empty chunks and
 * the kept large blocks; returns how many chunks and large blocks. */
size_t hl_trim(void);
/* Statistics of the process-wide allocator, summed over all threads' heaps.
 * The high-water mark is the sum of the per-thread marks (an upper bound).
 * Blocks waiting in a thread's bins (taken in a batch by
 * hl::pool_allocator, not handed out yet) count as allocated and in use. */
size_t hl_class_count(void);
hl_status hl_class_stats(size_t index, hl_pool_stats *out);
void hl_totals(hl_pool_stats *out);

#ifdef __cplusplus
}
#endif

#endif
