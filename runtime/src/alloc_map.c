/* alloc_map: the class map of the process-wide allocator — for every chunk
 * of a size class, that class, one byte per chunk, in a two-level table
 * indexed by the chunk's address. hl_free looks a block's class up here
 * instead of reading its chunk's header: the headers of some hundreds of
 * chunks are as many cache lines scattered over the heap (a free read one
 * from memory 9% of the time, bench/README.md), while the map's bytes for
 * 64 chunks share one line. Leaves are taken from the system when a chunk
 * first lands in their range and kept for the life of the process. Not
 * for an arena (hl_configure's static mode: no system memory to take) nor
 * when the system gives none: the lookup then says "unknown" and the free
 * reads the header as before. Only on 64-bit targets with a system heap
 * (HL_CMAP, alloc_internal.h). */
#include <string.h>

#include "alloc_internal.h"
#include "sys.h"

#if HL_CMAP

_Atomic(hl_cmap_leaf *) hl_cmap_top[HL_CMAP_TOP];
unsigned hl_cmap_shift;
static int cmap_on;

void hl_cmap_setup(const source *s) {
  hl_cmap_shift = floor_log2(s->chunk_size);
  cmap_on = !s->is_arena;
}

/* Under s->lock: the leaf for top-level index top, made if missing. */
static hl_cmap_leaf *leaf_make(source *s, uintptr_t top) {
  pthread_mutex_lock(&s->lock);
  hl_cmap_leaf *leaf = atomic_load_explicit(&hl_cmap_top[top], memory_order_relaxed);
  if (!leaf) {
    size_t n = (size_t)(((uint64_t)1 << 32) >> hl_cmap_shift);
    leaf = hl_sys_alloc(n, 64);
    if (leaf) memset((void *)leaf, 0, n);
    atomic_store_explicit(&hl_cmap_top[top], leaf, memory_order_release);
  }
  pthread_mutex_unlock(&s->lock);
  return leaf;
}

void hl_cmap_set(source *s, const chunk *k, uint32_t v) {
  if (!cmap_on) return;
  uintptr_t top = (uintptr_t)k >> 32;
  if (top >= HL_CMAP_TOP) return;
  hl_cmap_leaf *leaf = atomic_load_explicit(&hl_cmap_top[top], memory_order_acquire);
  if (!leaf && (!v || !(leaf = leaf_make(s, top)))) return;
  atomic_store_explicit(&leaf[(uint32_t)(uintptr_t)k >> hl_cmap_shift], (uint8_t)v, memory_order_relaxed);
}
#endif
