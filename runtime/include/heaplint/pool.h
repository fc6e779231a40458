/* heaplint/pool.h: the fixed-block pool. Every block has the same size and
 * alignment; allocate and free are O(1) because the free blocks form a list
 * threaded through the blocks themselves (no per-block header).
 *
 * Two modes:
 *   static  hl_pool_create_static: the pool and its blocks live in memory the
 *           caller provides (a static array, a linker section). It never
 *           touches the heap; when the blocks run out, allocation returns
 *           NULL after calling the optional exhaustion handler.
 *   chunk   hl_pool_create: the pool grows by chunks taken from the system
 *           allocator, keeps freed blocks for reuse, and gives chunks back
 *           only in hl_pool_trim and hl_pool_destroy.
 *
 * A pool is single-threaded unless created with HL_POOL_LOCKED, which puts a
 * mutex around every operation (see docs/runtime.md, "Thread safety").
 *
 * HL_POOL_STACK keeps the last HL_POOL_STACK_SLOTS freed blocks' addresses in
 * a stack beside the list: a free pushes the address without writing the
 * block, an allocation pops it without reading the block (the list's link
 * is what makes its latency uneven); a free that finds it full moves only
 * the oldest block to the list. The stack costs HL_POOL_STACK_BYTES
 * (1 KiB) per pool; the checked build ignores the flag. */
#ifndef HEAPLINT_POOL_H
#define HEAPLINT_POOL_H

#include <stddef.h>
#include <stdint.h>

#include "status.h"

#ifdef __cplusplus
extern "C" {
#endif

#ifdef __cplusplus
#define HL_MAX_ALIGN alignof(max_align_t)
#else
#define HL_MAX_ALIGN _Alignof(max_align_t)
#endif

/* Option flags of hl_pool_config.flags. */
#define HL_POOL_LOCKED 1u /* safe to share between threads (one mutex) */
#define HL_POOL_STACK 2u  /* a stack of recently freed blocks (release build) */

typedef struct hl_pool hl_pool;

/* Called when an allocation is about to fail: the pool (or size class) has
 * no free block and cannot grow. request is the size that was asked for. */
typedef void (*hl_exhausted_fn)(void *ctx, const char *pool_name, size_t request);

typedef struct hl_pool_config {
  const char *name;    /* shown in statistics and debug reports (copied, 31 chars) */
  size_t block_size;   /* bytes per block, >= 1 */
  size_t align;        /* power of two; 0 means alignof(max_align_t) */
  size_t chunk_blocks; /* chunk mode: blocks per chunk; 0 fills 64 KiB */
  size_t max_chunks;   /* chunk mode: growth limit; 0 means none */
  unsigned flags;      /* HL_POOL_* */
  hl_exhausted_fn on_exhausted;
  void *on_exhausted_ctx;
} hl_pool_config;

typedef struct hl_pool_stats {
  const char *name;
  size_t block_size; /* usable bytes per block */
  size_t in_use;     /* blocks handed out and not freed */
  size_t high_water; /* the largest in_use seen */
  size_t capacity;   /* blocks the pool holds now, free or in use */
  size_t chunks;     /* chunks held (static mode: 0) */
  uint64_t allocations;
  uint64_t frees;
  uint64_t failures; /* allocations that returned NULL */
} hl_pool_stats;

/* Chunk mode. On success *out is the new pool and HL_OK is returned. */
hl_status hl_pool_create(hl_pool **out, const hl_pool_config *cfg);

/* Static mode: the control block and the blocks are carved from mem, which
 * the caller keeps alive (and does not touch) until hl_pool_destroy. Returns
 * HL_ENOSPC when not even one block fits. HL_POOL_STATIC_BYTES(size, count)
 * is enough memory for count blocks; hl_pool_static_size gives the exact
 * figure for a given address alignment. With HL_POOL_STACK the stack is
 * carved from mem after the control block: HL_POOL_STATIC_BYTES_STACK(size,
 * count), or HL_POOL_STACK_BYTES more than the figures above. */
hl_status hl_pool_create_static(hl_pool **out, void *mem, size_t mem_size, const hl_pool_config *cfg);

/* Releases the chunks (chunk mode); the static memory may be reused after. */
void hl_pool_destroy(hl_pool *pool);

void *hl_pool_alloc(hl_pool *pool);
/* block must come from this pool (the checked build aborts otherwise); NULL
 * is ignored. */
void hl_pool_free(hl_pool *pool, void *block);

/* Chunk mode: returns to the system every chunk whose blocks are all free,
 * and the number of chunks released. */
size_t hl_pool_trim(hl_pool *pool);

/* Whether block is the start of one of this pool's blocks. */
int hl_pool_owns(hl_pool *pool, const void *block);

void hl_pool_stats_get(hl_pool *pool, hl_pool_stats *out);
size_t hl_pool_block_size(const hl_pool *pool);

/* Exact bytes hl_pool_create_static needs for count blocks when mem is
 * aligned to both align and alignof(max_align_t) (0 when the sizes overflow). */
size_t hl_pool_static_size(size_t block_size, size_t align, size_t count);

/* Compile-time upper bound for static pool memory, usable as an array size.
 * The checked build (HL_RUNTIME_DEBUG, set by the heaplint::runtime_debug
 * target) adds guard bytes to every block and a bitmap of live blocks. */
#define HL_POOL_CONTROL_BYTES 384
#define HL_POOL_STACK_SLOTS 128
#if defined(HL_RUNTIME_DEBUG) && HL_RUNTIME_DEBUG
#define HL_POOL_GUARD_BYTES 16
#define HL_POOL_BITMAP_BYTES(count) (((count) + 7) / 8)
#define HL_POOL_STACK_BYTES 0 /* the checked build ignores HL_POOL_STACK */
#else
#define HL_POOL_GUARD_BYTES 0
#define HL_POOL_BITMAP_BYTES(count) 0
#define HL_POOL_STACK_BYTES (HL_POOL_STACK_SLOTS * sizeof(void *))
#endif
#define HL_ALIGN_UP(n, a) (((n) + (a) - 1) / (a) * (a))
#define HL_POOL_STRIDE(block_size, align) \
  HL_ALIGN_UP(((block_size) < sizeof(void *) ? sizeof(void *) : (block_size)) + HL_POOL_GUARD_BYTES, (align))
#define HL_POOL_STATIC_BYTES_ALIGNED(block_size, align, count) \
  (HL_POOL_CONTROL_BYTES + HL_POOL_BITMAP_BYTES(count) + (align) + (count) * HL_POOL_STRIDE(block_size, align))
#define HL_POOL_STATIC_BYTES(block_size, count) HL_POOL_STATIC_BYTES_ALIGNED(block_size, HL_MAX_ALIGN, count)
/* For a pool created with HL_POOL_STACK: the same count of blocks. */
#define HL_POOL_STATIC_BYTES_STACK(block_size, count) (HL_POOL_STATIC_BYTES(block_size, count) + HL_POOL_STACK_BYTES)

#ifdef __cplusplus
}
#endif

#endif
