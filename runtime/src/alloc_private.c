/* alloc_private: a private size-class allocator's life and reports —
 * hl_allocator_create (chunks from the system), hl_allocator_create_static
 * (within a caller's buffer), hl_allocator_destroy, its trim and
 * statistics. Its allocations and frees are in alloc.c, beside the heap
 * code they inline. */
#include <string.h>

#include "alloc_internal.h"
#include "sys.h"

static hl_status finish_create(hl_allocator *a, const hl_allocator_config *cfg) {
  a->locked = cfg && (cfg->flags & HL_ALLOC_LOCKED);
  if (pthread_mutex_init(&a->src.lock, NULL) != 0) return HL_ENOMEM;
  if (a->locked && pthread_mutex_init(&a->lock, NULL) != 0) {
    pthread_mutex_destroy(&a->src.lock);
    return HL_ENOMEM;
  }
  a->heap = hl_heap_new(&a->src, 0);
  if (!a->heap) {
    pthread_mutex_destroy(&a->src.lock);
    if (a->locked) pthread_mutex_destroy(&a->lock);
    return a->is_static ? HL_ENOSPC : HL_ENOMEM;
  }
  return HL_OK;
}

hl_status hl_allocator_create(hl_allocator **out, const hl_allocator_config *cfg) {
  if (cfg && cfg->arena) return HL_EINVAL;
  hl_allocator *a = hl_sys_alloc(sizeof *a, _Alignof(hl_allocator));
  if (!a) return HL_ENOMEM;
  memset(a, 0, sizeof *a);
  hl_status st = hl_source_setup(&a->src, cfg, 0, "hl_allocator");
  if (st == HL_OK) st = finish_create(a, cfg);
  if (st != HL_OK) {
    hl_sys_free(a);
    return st;
  }
  *out = a;
  return HL_OK;
}

hl_status hl_allocator_create_static(hl_allocator **out, void *mem, size_t mem_size, const hl_allocator_config *cfg) {
  if (!mem) return HL_EINVAL;
  uintptr_t lo = (uintptr_t)mem, hi = lo + mem_size;
  if (hi < lo || mem_size < sizeof(hl_allocator) + 64) return HL_ENOSPC;
  uintptr_t at = (hi - sizeof(hl_allocator)) & ~(uintptr_t)63;
  if (at < lo) return HL_ENOSPC;
  hl_allocator *a = (hl_allocator *)at;
  memset(a, 0, sizeof *a);
  hl_status st = hl_source_setup(&a->src, cfg, 1, "hl_allocator");
  if (st != HL_OK) return st;
  a->is_static = 1;
  source *s = &a->src;
  s->arena_lo = s->arena_top = (lo + s->chunk_size - 1) & s->mask;
  s->meta = at;
  if (s->arena_lo < lo || s->arena_lo > at) return HL_ENOSPC;
  if ((st = finish_create(a, cfg)) != HL_OK) return st;
  if (s->meta - s->arena_top < s->chunk_size) {
    hl_allocator_destroy(a);
    return HL_ENOSPC;
  }
  *out = a;
  return HL_OK;
}

void hl_allocator_destroy(hl_allocator *a) {
  if (!a) return;
  source *s = &a->src;
  hl_large_cache_release(s);
  if (!a->is_static) {
    for (chunk *k = a->heap->all, *next; k; k = next) {
      next = k->anext;
      if (k->kind == KIND_LARGE)
        s->fallback.free(s->fallback.ctx, k, k->large_total);
      else
        hl_sys_free(k);
    }
    hl_sys_free(a->heap);
    hl_sys_free(s->reg);
  } else {
    for (chunk *k = a->heap->all; k; k = k->anext)
      if (k->kind == KIND_LARGE) s->fallback.free(s->fallback.ctx, k, k->large_total);
  }
  pthread_mutex_destroy(&s->lock);
  if (a->locked) pthread_mutex_destroy(&a->lock);
  if (!a->is_static) hl_sys_free(a);
}

size_t hl_allocator_usable_size(hl_allocator *a, const void *p) {
  if (!p) return 0;
  lock_a(a);
  if (HL_CHECKED) hl_checked_chunk(&a->src, p);
  size_t n = hl_block_size(&a->src, p);
  unlock_a(a);
  return n;
}

size_t hl_allocator_trim(hl_allocator *a) {
  lock_a(a);
  size_t n = hl_heap_trim(a->heap) + hl_large_cache_release(&a->src);
  unlock_a(a);
  return n;
}

size_t hl_allocator_class_count(hl_allocator *a) { return a->src.nclasses; }

hl_status hl_allocator_class_stats(hl_allocator *a, size_t index, hl_pool_stats *out) {
  if (index > a->src.nclasses) return HL_EINVAL;
  lock_a(a);
  pthread_mutex_lock(&a->src.lock);
  hl_status st = hl_stats_collect(&a->src, index, out);
  pthread_mutex_unlock(&a->src.lock);
  unlock_a(a);
  return st;
}

void hl_allocator_totals(hl_allocator *a, hl_pool_stats *out) {
  lock_a(a);
  pthread_mutex_lock(&a->src.lock);
  hl_stats_collect(&a->src, a->src.nclasses + 1, out);
  pthread_mutex_unlock(&a->src.lock);
  unlock_a(a);
}
