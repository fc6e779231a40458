/* alloc_large: requests no size class serves (too big, or aligned beyond
 * a class's alignment), each in its own block from the fallback with a
 * chunk header in front, and the cache of freed ones kept for reuse. */
#include <string.h>

#include "alloc_internal.h"

static size_t large_offset(size_t align) {
  return align_up(sizeof(chunk), align > HEADER_ALIGN ? align : HEADER_ALIGN);
}

/* Freed large blocks are kept, up to retain_chunks * chunk_size bytes, and
 * handed out again to requests that fit them without wasting more than
 * half: giving a block back to the system allocator and asking again at
 * once (a string or a buffer that grows and dies, over and over) costs a
 * trim-and-grow of its heap and fresh pages every time. */
static chunk *large_cache_take(source *s, size_t need) {
  pthread_mutex_lock(&s->lock);
  chunk **best = NULL;
  for (chunk **l = &s->large_cache; *l; l = &(*l)->next) {
    size_t have = (*l)->large_total;
    if (have >= need && have / 2 <= need && (!best || have < (*best)->large_total)) best = l;
  }
  chunk *k = NULL;
  if (best) {
    k = *best;
    *best = k->next;
    s->large_cached -= k->large_total;
  }
  pthread_mutex_unlock(&s->lock);
  return k;
}

static int large_cache_put(source *s, chunk *k) {
  int kept = 0;
  pthread_mutex_lock(&s->lock);
  if (k->large_total <= s->large_limit - s->large_cached) {
    k->kind = KIND_CACHED;
    k->next = s->large_cache;
    s->large_cache = k;
    s->large_cached += k->large_total;
    kept = 1;
  }
  pthread_mutex_unlock(&s->lock);
  return kept;
}

static void large_release(source *s, chunk *k) {
  if (HL_CHECKED && !in_arena(s, (uintptr_t)k)) hl_reg_remove(s, (uintptr_t)k);
  s->fallback.free(s->fallback.ctx, k, k->large_total);
}

/* Returns the kept large blocks to the fallback; how many. */
size_t hl_large_cache_release(source *s) {
  pthread_mutex_lock(&s->lock);
  chunk *list = s->large_cache;
  s->large_cache = NULL;
  s->large_cached = 0;
  pthread_mutex_unlock(&s->lock);
  size_t n = 0;
  for (chunk *next; list; list = next, n++) {
    next = list->next;
    large_release(s, list);
  }
  return n;
}

HL_NOINLINE void *hl_large_alloc(source *s, heap *h, size_t size, size_t align) {
  size_t off = large_offset(align);
  size_t need = off + size + HL_GUARD_BYTES;
  chunk *k = NULL;
  if (align < s->chunk_size && size <= SIZE_MAX - off - HL_GUARD_BYTES) {
    if ((k = large_cache_take(s, need)) != NULL) {
      need = k->large_total;
    } else if ((k = s->fallback.alloc(s->fallback.ctx, need, s->chunk_size)) != NULL && HL_CHECKED &&
               !in_arena(s, (uintptr_t)k) && !hl_reg_add(s, (uintptr_t)k)) {
      s->fallback.free(s->fallback.ctx, k, need);
      k = NULL;
    }
  }
  if (!k) {
    atomic_fetch_add(&s->large_failures, 1);
    exhausted(s, s->name, size);
    return NULL;
  }
  memset(k, 0, sizeof *k);
  k->owner = h;
  k->kind = KIND_LARGE;
  k->cls = (uint16_t)s->nclasses;
  k->large_size = size;
  k->large_total = need;
  k->bump = (unsigned char *)k + off;
  all_link(h, k);
  atomic_fetch_add(&s->large_allocations, 1);
  size_t in_use = atomic_fetch_add(&s->large_in_use, 1) + 1;
  size_t hw = atomic_load(&s->large_high_water);
  while (in_use > hw && !atomic_compare_exchange_weak(&s->large_high_water, &hw, in_use)) {
  }
  if (HL_CHECKED) hl_dbg_on_alloc(s->name, k->bump, size, size + HL_GUARD_BYTES, size, 1);
  return k->bump;
}

HL_NOINLINE void hl_large_free(source *s, chunk *k) {
  if (HL_CHECKED) hl_dbg_on_free(s->name, k->bump, k->large_size, k->large_size + HL_GUARD_BYTES);
  if (!k->owner->shared) all_unlink(k->owner, k);
  atomic_fetch_add(&s->large_frees, 1);
  atomic_fetch_sub(&s->large_in_use, 1);
  if (!large_cache_put(s, k)) large_release(s, k);
}
