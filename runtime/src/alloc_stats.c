/* alloc_stats: the statistics of a size-class allocator (hl_class_stats,
 * hl_totals and their hl_allocator_ forms), summed over its heaps from the
 * counters each owner keeps and those in its thread's cache. */
#include <string.h>

#include "alloc_internal.h"

/* A count the thread owning a heap keeps for class ci in its hl_tcache
 * (counts: its freed, inline frees; or its recycled, frees into its bin,
 * each a free and an allocation as the block stays counted as handed out;
 * NULL: no thread cache) and has not folded in yet. The caller holds
 * s->lock, under which a thread unregisters. */
static uint64_t owner_count(const uint64_t *counts, uint32_t ci) {
  if (!counts || ci >= HL_TCACHE_BINS) return 0;
#if defined(__GNUC__)
  return __atomic_load_n(&counts[ci], __ATOMIC_ACQUIRE);
#else
  return counts[ci];
#endif
}

static void stats_add_class(const source *s, heap *h, uint32_t ci, hl_pool_stats *out) {
  cls *c = &h->cls[ci];
  /* The owner's inline frees first: read before live, they cannot exceed
   * what it has handed out. */
  uint64_t recycled = owner_count(h->tc ? h->tc->recycled : NULL, ci);
  uint64_t frees = owner_count(h->tc ? h->tc->freed : NULL, ci) + stat_get(&c->frees) +
                   atomic_load_explicit(&c->remote_frees, memory_order_relaxed) + stat_get(&c->given) + recycled;
  uint64_t allocs = stat_getz(&c->live) + stat_get(&c->frees) + stat_get(&c->drained) + recycled;
#if HL_TCACHE_STACK
  /* hl_malloc's stacks: a push is a free, a pop an allocation (the block
   * stays in live meanwhile). */
  frees += owner_count(h->ms ? h->ms->pushed : NULL, ci);
  allocs += owner_count(h->ms ? h->ms->popped : NULL, ci);
#endif
  out->allocations += allocs;
  out->frees += frees;
  out->failures += stat_get(&c->failures);
  out->high_water += stat_getz(&c->high_water);
  out->chunks += stat_getz(&c->chunks);
  out->capacity += stat_getz(&c->chunks) * s->geom[ci].capacity;
}

static void stats_large(source *s, hl_pool_stats *out) {
  out->allocations += atomic_load(&s->large_allocations);
  out->frees += atomic_load(&s->large_frees);
  out->failures += atomic_load(&s->large_failures);
  size_t in_use = atomic_load(&s->large_in_use);
  out->in_use += in_use;
  out->capacity += in_use;
  out->high_water += atomic_load(&s->large_high_water);
}

/* Sums class index (nclasses: large; nclasses + 1: everything) over the
 * heaps of s; the caller holds s->lock. */
hl_status hl_stats_collect(source *s, size_t index, hl_pool_stats *out) {
  if (index > s->nclasses + 1) return HL_EINVAL;
  memset(out, 0, sizeof *out);
  out->name = index < s->nclasses ? s->geom[index].name : s->name;
  out->block_size = index < s->nclasses ? s->geom[index].size : 0;
  if (index >= s->nclasses) stats_large(s, out);
  /* A block freed by another thread counts as a free of that thread's
   * heap (cls.given): the classes' blocks in use are their allocations
   * less their frees over all heaps. */
  uint64_t allocs = out->allocations, frees = out->frees;
  for (heap *h = s->heaps; h; h = h->next_heap) {
    for (uint32_t ci = 0; ci < s->nclasses; ci++)
      if (ci == index || index == s->nclasses + 1) stats_add_class(s, h, ci, out);
    if (index == s->nclasses + 1) out->chunks += stat_getz(&h->nempty);
  }
  allocs = out->allocations - allocs;
  frees = out->frees - frees;
  out->in_use += allocs > frees ? (size_t)(allocs - frees) : 0;
  return HL_OK;
}
