/* alloc: the size-class allocator of heaplint/alloc.h — heaps and their
 * class lists, the allocate, free and realloc paths, the private
 * allocators (hl_allocator_*), the process-wide one (hl_malloc and the
 * rest) and the thread cache that hl::pool_allocator's inline paths use.
 * The fast paths are all here so that they inline into each other; the
 * slower parts are in the other alloc_*.c files (alloc_internal.h). */
#include "heaplint/alloc.h"

#include <pthread.h>
#include <string.h>

#include "alloc_internal.h"

/* The calling thread's hl_malloc stacks (see hl_malloc). */
#if HL_TCACHE_STACK
static _Thread_local hl_mstack tl_ms TLS_MODEL;
#define MSTACK_COUNT(ci) tl_ms.count[ci]
#else
#define MSTACK_COUNT(ci) 0
#endif
#include "sys.h"

#if !defined(__GNUC__)
extern _Thread_local hl_tcache hl_tcache_tls;
#endif

/* The state of an empty current chunk: both the free list and the bump area
 * are empty, so the fast path falls through to refill without a NULL test. */
static chunk no_chunk;

/* The class of a request: small sizes look it up in the source's table,
 * others search (class_search); nclasses when no class serves it. */
static HL_INLINE uint32_t class_for(const source *s, size_t size, size_t align) {
  if (size <= LUT_MAX && align <= 16) return s->lut[align > 8][(size + 7) >> 3];
  return class_search(s, size, align);
}

/* ---- heaps -------------------------------------------------------------- */

heap *hl_heap_new(source *s, int shared) {
  heap *h = hl_meta_alloc(s, sizeof(heap) + s->nclasses * sizeof(cls));
  if (!h) return NULL;
  h->src = s;
  h->shared = shared;
  for (uint32_t i = 0; i < s->nclasses; i++) h->cls[i].cur = &no_chunk;
  pthread_mutex_lock(&s->lock);
  h->next_heap = s->heaps;
  s->heaps = h;
  pthread_mutex_unlock(&s->lock);
  return h;
}

static void partial_push(cls *c, chunk *k) {
  k->prev = NULL;
  k->next = c->partial;
  if (c->partial) c->partial->prev = k;
  c->partial = k;
  k->listed = LIST_PARTIAL;
}

static void partial_unlink(cls *c, chunk *k) {
  if (k->prev)
    k->prev->next = k->next;
  else
    c->partial = k->next;
  if (k->next) k->next->prev = k->prev;
  k->listed = LIST_NONE;
}

/* A chunk none of whose blocks is in use: kept for any class, or released. */
static HL_NOINLINE void chunk_retire(heap *h, chunk *k) {
  cls *c = &h->cls[k->cls];
  stat_set(&c->chunks, stat_getz(&c->chunks) - 1);
  k->kind = KIND_EMPTY;
  if (h->shared) hl_cmap_set(h->src, k, 0);
  if (stat_getz(&h->nempty) < h->src->retain) {
    k->next = h->empty;
    h->empty = k;
    stat_set(&h->nempty, stat_getz(&h->nempty) + 1);
    k->listed = LIST_EMPTY;
  } else {
    all_unlink(h, k);
    hl_chunk_put(h->src, k);
  }
}

static void chunk_format(heap *h, chunk *k, uint32_t ci) {
  const source *s = h->src;
  const geom *g = &s->geom[ci];
  k->owner = h;
  k->kind = KIND_CLASS;
  k->cls = (uint16_t)ci;
  k->listed = LIST_NONE;
  k->stride = g->stride;
  k->capacity = g->capacity;
  k->used = 0;
  k->carved = 0;
  k->free = NULL;
  k->bump = (unsigned char *)k + s->header;
  k->end = k->bump + (size_t)g->capacity * g->stride;
  if (HL_CHECKED) memset((void *)k->live, 0, (g->capacity + 7) / 8);
  cls *c = &h->cls[ci];
  stat_set(&c->chunks, stat_getz(&c->chunks) + 1);
  if (h->shared) hl_cmap_set(h->src, k, ci + 1);
}

/* A chunk other than the current one went from full to not full, or to
 * empty: it joins the partial list, or leaves it for retirement. */
HL_NOINLINE void hl_chunk_relist(heap *h, chunk *k, uint32_t was) {
  cls *c = &h->cls[k->cls];
  if (k->used == 0) {
    if (was != k->capacity) partial_unlink(c, k);
    chunk_retire(h, k);
  } else {
    partial_push(c, k);
  }
}

/* Out of chunks: an empty chunk still current in another class (kept there
 * because its class may want it again) is better used than failing. */
static chunk *steal_idle_chunk(heap *h) {
  for (uint32_t i = 0; i < h->src->nclasses; i++) {
    cls *c = &h->cls[i];
    chunk *k = c->cur;
    if (k != &no_chunk && k->used == 0) {
      c->cur = &no_chunk;
      stat_set(&c->chunks, stat_getz(&c->chunks) - 1);
      return k;
    }
  }
  return NULL;
}

/* Makes cls->cur a chunk with a block to hand out; 0 when out of memory. */
static int refill(heap *h, uint32_t ci) {
  cls *c = &h->cls[ci];
  for (;;) {
    chunk *k = c->cur;
    if (k->free || k->bump != k->end) return 1;
    if (c->partial) {
      k = c->partial;
      partial_unlink(c, k);
      c->cur = k;
    } else if (h->shared && atomic_load_explicit(&c->remote, memory_order_relaxed)) {
      hl_remote_drain(h, ci);
    } else {
      break;
    }
  }
  chunk *k = h->empty;
  if (k) {
    h->empty = k->next;
    stat_set(&h->nempty, stat_getz(&h->nempty) - 1);
  } else if ((k = hl_chunk_get(h->src)) != NULL) {
    all_link(h, k);
  } else if ((k = steal_idle_chunk(h)) == NULL) {
    return 0;
  }
  chunk_format(h, k, ci);
  c->cur = k;
  return 1;
}

static void check_alloc(heap *h, chunk *k, unsigned char *b, size_t req, int fresh) {
  const geom *g = &h->src->geom[k->cls];
  unsigned char *first = (unsigned char *)k + h->src->header;
  if (!fresh) {
    uintptr_t next = (uintptr_t)link_get(b);
    if (next && (next < (uintptr_t)first || next >= (uintptr_t)k->bump || (next - (uintptr_t)first) % g->stride))
      hl_dbg_fatal(g->name, g->size, b, "write after free to block");
  }
  if (hl_dbg_mark_live(k->live, (size_t)(b - first) / g->stride))
    hl_dbg_fatal(g->name, g->size, b, "free list corrupted: handed out twice: block");
  hl_dbg_on_alloc(g->name, b, g->size, g->stride, req, fresh);
}

/* Raises class ci's high-water mark to live blocks, less those the calling
 * thread (the owner of a shared heap) freed inline and has not folded in. */
static HL_INLINE void high_water(heap *h, uint32_t ci, size_t live) {
  if (h->shared && ci < HL_TCACHE_BINS) {
    /* The stack may hold other heaps' blocks, which live does not count. */
    size_t held = (size_t)hl_tcache_tls.freed[ci] + MSTACK_COUNT(ci);
    live = live > held ? live - held : 0;
  }
  if (live > stat_getz(&h->cls[ci].high_water)) stat_set(&h->cls[ci].high_water, live);
}

/* Takes the block b of chunk k for class ci and counts it. */
static HL_INLINE void *class_take(heap *h, chunk *k, uint32_t ci, unsigned char *b, size_t req, int fresh) {
  cls *c = &h->cls[ci];
  k->used++;
  size_t live = stat_getz(&c->live) + 1;
  stat_set(&c->live, live);
  high_water(h, ci, live);
  if (HL_CHECKED) check_alloc(h, k, b, req, fresh);
  return b;
}

/* Hands out a free or never-used block of chunk k, if it has one. */
static HL_INLINE void *chunk_take(heap *h, chunk *k, uint32_t ci, size_t req) {
  unsigned char *b = k->free;
  if (b) {
    k->free = link_get(b);
    /* The next allocation reads the next block's link: a cache miss when
     * that block was freed long ago (the p99 of bench/runtime/latency.cpp). */
#if defined(__GNUC__)
    if (k->free) __builtin_prefetch(k->free, 1);
#endif
    return class_take(h, k, ci, b, req, 0);
  }
  if (k->bump == k->end) return NULL;
  b = k->bump;
  k->bump += k->stride;
  k->carved++;
  return class_take(h, k, ci, b, req, 1);
}

/* Moves a batch of class ci's blocks from its current chunk onto the empty
 * list *bin: the chunk's whole free list, or up to a page's worth carved
 * from its never-used part, linked in address order. They count as handed
 * out. */
static void class_take_batch(heap *h, uint32_t ci, void **bin) {
  cls *c = &h->cls[ci];
  chunk *k = c->cur;
  size_t n;
  if (k->free) {
    /* No division by the stride: a refill is on a caller's time. */
    n = k->carved - k->used;
    *bin = k->free;
    k->free = NULL;
  } else {
    size_t left = (size_t)(k->end - k->bump) / k->stride, want = 4096 / k->stride;
    n = left < want ? left : want;
    unsigned char *p = k->bump;
    size_t stride = k->stride, i = 0;
    /* Four links a turn: this loop is most of what a refill costs. */
    for (; i + 4 < n; i += 4, p += 4 * stride) {
      link_set(p, p + stride);
      link_set(p + stride, p + 2 * stride);
      link_set(p + 2 * stride, p + 3 * stride);
      link_set(p + 3 * stride, p + 4 * stride);
    }
    for (; i + 1 < n; i++, p += stride) link_set(p, p + stride);
    if (n) {
      link_set(p, NULL);
      *bin = k->bump;
      k->bump += n * k->stride;
      k->carved += (uint32_t)n;
    }
  }
  k->used += (uint32_t)n;
  size_t live = stat_getz(&c->live) + n;
  stat_set(&c->live, live);
  high_water(h, ci, live);
}

/* The current chunk is used up. */
static HL_NOINLINE void *class_alloc_slow(heap *h, uint32_t ci, size_t req) {
  if (!refill(h, ci)) {
    stat_add(&h->cls[ci].failures, 1);
    exhausted(h->src, h->src->geom[ci].name, req);
    return NULL;
  }
  return chunk_take(h, h->cls[ci].cur, ci, req);
}

static HL_INLINE void *class_alloc(heap *h, uint32_t ci, size_t req) {
  void *b = chunk_take(h, h->cls[ci].cur, ci, req);
  return b ? b : class_alloc_slow(h, ci, req);
}

/* ---- allocate / free / realloc on one heap (callers do the locking) ----- */

static HL_INLINE void *heap_alloc(heap *h, size_t size, size_t align) {
  uint32_t ci = class_for(h->src, size, align);
  if (ci < h->src->nclasses) return class_alloc(h, ci, size);
  return hl_large_alloc(h->src, h, size, align);
}

/* malloc's alignment: alignof(max_align_t), or the size's for tiny sizes. */
static size_t malloc_align(size_t size) { return size >= HL_MAX_ALIGN ? HL_MAX_ALIGN : 8; }

/* Checked build: validates p before anything reads its chunk header. */
chunk *hl_checked_chunk(source *s, const void *p) {
  chunk *k = chunk_of(s, p);
  if (!hl_chunk_known(s, (uintptr_t)k) || k->kind == KIND_EMPTY || k->kind == KIND_CACHED)
    hl_dbg_fatal(s->name, 0, p, "free of a pointer that no pool of the allocator owns:");
  if (k->kind == KIND_LARGE) {
    if ((const unsigned char *)p != k->bump)
      hl_dbg_fatal(s->name, k->large_size, p, "free of a pointer into the middle of a block:");
    return k;
  }
  const geom *g = &s->geom[k->cls];
  uintptr_t first = (uintptr_t)k + s->header, a = (uintptr_t)p;
  if (a < first || (a - first) % g->stride || (a - first) / g->stride >= g->capacity)
    hl_dbg_fatal(g->name, g->size, p, "free of a pointer into the middle of a block:");
  return k;
}

static void check_free(source *s, chunk *k, unsigned char *b) {
  const geom *g = &s->geom[k->cls];
  size_t index = (size_t)(b - ((unsigned char *)k + s->header)) / g->stride;
  if (!hl_dbg_mark_free(k->live, index)) hl_dbg_fatal(g->name, g->size, b, "double free of block");
  hl_dbg_on_free(g->name, b, g->size, g->stride);
}

/* Frees p on behalf of h (NULL: a thread of the process-wide allocator that
 * has no heap yet). */
static void heap_free(source *s, heap *h, void *p) {
  chunk *k = HL_CHECKED ? hl_checked_chunk(s, p) : chunk_of(s, p);
  if (k->kind == KIND_LARGE) {
    hl_large_free(s, k);
    return;
  }
  if (HL_CHECKED) check_free(s, k, p);
  if (k->owner == h) {
    cls *c = &h->cls[k->cls];
    stat_add(&c->frees, 1);
    stat_set(&c->live, stat_getz(&c->live) - 1);
    chunk_take_back(h, k, p);
  } else if (k->owner->shared && (!h || h->shared)) {
    hl_remote_free(h, k, p);
  } else {
    hl_dbg_fatal(s->geom[k->cls].name, s->geom[k->cls].size, p, "free through the wrong allocator of block");
  }
}

size_t hl_block_size(source *s, const void *p) {
  chunk *k = chunk_of(s, p);
  if (k->kind == KIND_LARGE) return k->large_size;
  if (HL_CHECKED) return hl_dbg_requested(p, s->geom[k->cls].stride);
  return s->geom[k->cls].size;
}

static void *heap_realloc(source *s, heap *h, void *p, size_t size) {
  if (!p) return heap_alloc(h, size, malloc_align(size));
  if (size == 0) {
    heap_free(s, h, p);
    return NULL;
  }
  chunk *k = HL_CHECKED ? hl_checked_chunk(s, p) : chunk_of(s, p);
  size_t old = hl_block_size(s, p);
  int same;
  if (k->kind == KIND_LARGE) {
    same = size > s->max_class && size <= k->large_size;
  } else {
    same = class_for(s, size, malloc_align(size)) == k->cls;
  }
  if (same) {
    if (HL_CHECKED) {
      size_t stride = k->kind == KIND_LARGE ? k->large_size + HL_GUARD_BYTES : k->stride;
      hl_dbg_resize(p, stride, size);
    }
    return p;
  }
  void *q = heap_alloc(h, size, malloc_align(size));
  if (!q) return NULL;
  memcpy(q, p, old < size ? old : size);
  heap_free(s, h, p);
  return q;
}

static void *heap_calloc(heap *h, size_t n, size_t size) {
  if (size && n > SIZE_MAX / size) {
    atomic_fetch_add(&h->src->large_failures, 1);
    return NULL;
  }
  void *p = heap_alloc(h, n * size, malloc_align(n * size));
  if (p) memset(p, 0, n * size);
  return p;
}

size_t hl_heap_trim(heap *h) {
  size_t n = 0;
  while (h->empty) {
    chunk *k = h->empty;
    h->empty = k->next;
    all_unlink(h, k);
    hl_chunk_put(h->src, k);
    n++;
  }
  stat_set(&h->nempty, 0);
  return n;
}

/* ---- private allocators (the rest in alloc_private.c) ------------------- */

void *hl_allocator_malloc(hl_allocator *a, size_t size) {
  lock_a(a);
  void *p = heap_alloc(a->heap, size, malloc_align(size));
  unlock_a(a);
  return p;
}

void *hl_allocator_calloc(hl_allocator *a, size_t n, size_t size) {
  lock_a(a);
  void *p = heap_calloc(a->heap, n, size);
  unlock_a(a);
  return p;
}

void *hl_allocator_realloc(hl_allocator *a, void *p, size_t size) {
  lock_a(a);
  void *q = heap_realloc(&a->src, a->heap, p, size);
  unlock_a(a);
  return q;
}

void *hl_allocator_aligned_alloc(hl_allocator *a, size_t align, size_t size) {
  if (!is_pow2(align)) return NULL;
  lock_a(a);
  void *p = heap_alloc(a->heap, size, align < 8 ? 8 : align);
  unlock_a(a);
  return p;
}

void hl_allocator_free(hl_allocator *a, void *p) {
  if (!p) return;
  lock_a(a);
  heap_free(&a->src, a->heap, p);
  unlock_a(a);
}

/* ---- the process-wide allocator ----------------------------------------- */

static source g_src;
static atomic_int g_ready;
static pthread_mutex_t g_init_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_key_t g_key;

static _Thread_local heap *tl_heap TLS_MODEL;

/* ---- the thread cache (heaplint/detail/tcache.h) -------------------------
 * hl::pool_allocator pops a thread's bins and frees into its chunks inline;
 * what is here fills the bins, takes the frees the inline path cannot, and
 * keeps the statistics whole: a block in a bin counts as handed out, an
 * inline free is counted in the thread's hl_tcache.freed (a free into the
 * bin in hl_tcache.recycled, as a free and an allocation) until the thread
 * exits, when they move into the heap's own counters. */

_Thread_local hl_tcache hl_tcache_tls TLS_MODEL;
uintptr_t hl_tcache_chunk_mask;

enum { CACHE_NONE = 0, CACHE_ON = 1, CACHE_GONE = 2 /* the thread is exiting */ };
static _Thread_local unsigned char tl_cache TLS_MODEL;

/* The calling thread, whose heap is h, starts taking inline frees. Not in
 * the checked build: a NULL heap keeps every free on the checked path. */
static void cache_start(heap *h) {
  if (tl_cache != CACHE_NONE) return;
  pthread_mutex_lock(&g_src.lock);
  h->tc = &hl_tcache_tls;
#if HL_TCACHE_STACK
  h->ms = &tl_ms;
#endif
  pthread_mutex_unlock(&g_src.lock);
  hl_tcache_tls.heap = HL_CHECKED ? NULL : h;
  tl_cache = CACHE_ON;
}

/* Gives the blocks waiting in the calling thread's bins and stacks back
 * to heap h. A block on a stack was counted by its push (as a free and an
 * allocation in hl_tcache.recycled, as a free in hl_mstack.pushed); going
 * back to its chunk counts a free again, so the push's count is taken
 * back: the counts stay those of the calls made. */
static void cache_release(heap *h) {
  for (size_t c = 0; c < HL_TCACHE_BINS; c++) {
#if HL_TCACHE_STACK
    owner_add(&hl_tcache_tls.recycled[c], -(uint64_t)hl_tcache_tls.count[c]);
    while (hl_tcache_tls.count[c]) heap_free(&g_src, h, hl_tcache_tls.stack[c][--hl_tcache_tls.count[c]]);
    owner_add(&tl_ms.pushed[c], -(uint64_t)tl_ms.count[c]);
    while (tl_ms.count[c]) heap_free(&g_src, h, tl_ms.slot[c][--tl_ms.count[c]]);
#endif
    unsigned char *p = hl_tcache_tls.bin[c];
    hl_tcache_tls.bin[c] = NULL;
#if HL_TCACHE_LEAN
    hl_tcache_tls.bound[c] = 0; /* the next free rearms it */
#endif
    while (p) {
      unsigned char *next = link_get(p);
      heap_free(&g_src, h, p);
      p = next;
    }
  }
}

/* The thread's inline frees become frees of its heap h; under g_src.lock,
 * as the statistics read both. */
static void cache_fold(heap *h) {
  for (uint32_t c = 0; c < HL_TCACHE_BINS && c < g_src.nclasses; c++) {
    uint64_t n = hl_tcache_tls.freed[c], r = hl_tcache_tls.recycled[c];
    hl_tcache_tls.freed[c] = 0;
    hl_tcache_tls.recycled[c] = 0;
    stat_set(&h->cls[c].live, stat_getz(&h->cls[c].live) - (size_t)n);
    /* As frees: the allocations they stand for are frees + live. */
    stat_add(&h->cls[c].frees, n + r);
#if HL_TCACHE_STACK
    /* The stacks are empty (cache_release): every block pushed and not
     * given back was popped, so the pops are the pushes, now frees. */
    stat_add(&h->cls[c].frees, tl_ms.pushed[c]);
    tl_ms.pushed[c] = 0;
    tl_ms.popped[c] = 0;
#endif
  }
  h->tc = NULL;
#if HL_TCACHE_STACK
  h->ms = NULL;
#endif
}

/* A thread exits: its bins go back to its heap, and the heap waits for the
 * next new thread. Blocks still in use stay valid; freeing them from any
 * thread (this one included, from here on) goes to the remote lists. */
static void thread_exit(void *arg) {
  heap *h = arg;
  cache_release(h);
  hl_pending_flush_all();
  memset(hl_tcache_tls.cur, 0, sizeof hl_tcache_tls.cur);
#if HL_TCACHE_STACK
  memset(hl_tcache_tls.limit, 0, sizeof hl_tcache_tls.limit);
  memset(tl_ms.limit, 0, sizeof tl_ms.limit);
#endif
#if HL_TCACHE_LEAN
  memset(hl_tcache_tls.bound, 0, sizeof hl_tcache_tls.bound);
#endif
  hl_tcache_tls.heap = NULL;
  tl_cache = CACHE_GONE;
  tl_heap = NULL;
  hl_heap_trim(h);
  pthread_mutex_lock(&g_src.lock);
  cache_fold(h);
  h->next_abandoned = g_src.abandoned;
  g_src.abandoned = h;
  pthread_mutex_unlock(&g_src.lock);
}

static void fork_prepare(void) { pthread_mutex_lock(&g_src.lock); }
static void fork_parent(void) { pthread_mutex_unlock(&g_src.lock); }
static void fork_child(void) { pthread_mutex_unlock(&g_src.lock); }

/* Under g_init_lock: sets up g_src from cfg. */
static hl_status default_setup(const hl_allocator_config *cfg) {
  int arena = cfg && cfg->arena;
  hl_status st = hl_source_setup(&g_src, cfg, arena, "hl_malloc");
  if (st != HL_OK) return st;
  if (arena) {
    uintptr_t lo = (uintptr_t)cfg->arena, hi = lo + cfg->arena_size;
    g_src.arena_lo = g_src.arena_top = (lo + g_src.chunk_size - 1) & g_src.mask;
    g_src.meta = hi & ~(uintptr_t)63;
    if (hi < lo || g_src.arena_lo < lo || g_src.meta < g_src.arena_lo || g_src.meta - g_src.arena_lo < g_src.chunk_size)
      return HL_ENOSPC;
  }
  if (pthread_mutex_init(&g_src.lock, NULL) != 0 || pthread_key_create(&g_key, thread_exit) != 0) return HL_ENOMEM;
  hl_tcache_chunk_mask = g_src.mask;
  hl_cmap_setup(&g_src);
  pthread_atfork(fork_prepare, fork_parent, fork_child);
  atomic_store_explicit(&g_ready, 1, memory_order_release);
  return HL_OK;
}

hl_status hl_configure(const hl_allocator_config *cfg) {
  pthread_mutex_lock(&g_init_lock);
  hl_status st = atomic_load_explicit(&g_ready, memory_order_acquire) ? HL_EBUSY : default_setup(cfg);
  pthread_mutex_unlock(&g_init_lock);
  return st;
}

static int default_ready(void) {
  if (atomic_load_explicit(&g_ready, memory_order_acquire)) return 1;
  pthread_mutex_lock(&g_init_lock);
  int ok = atomic_load_explicit(&g_ready, memory_order_acquire) || default_setup(NULL) == HL_OK;
  pthread_mutex_unlock(&g_init_lock);
  return ok;
}

static heap *thread_heap_slow(void) {
  if (!default_ready()) return NULL;
  pthread_mutex_lock(&g_src.lock);
  heap *h = g_src.abandoned;
  if (h) g_src.abandoned = h->next_abandoned;
  pthread_mutex_unlock(&g_src.lock);
  if (!h && !(h = hl_heap_new(&g_src, 1))) return NULL;
  pthread_setspecific(g_key, h);
  tl_heap = h;
  return h;
}

static heap *thread_heap(void) {
  heap *h = tl_heap;
  return h ? h : thread_heap_slow();
}

/* The usual refill of a bin, on the caller's time: the class's current
 * chunk is used up and another of its chunks has free blocks. That chunk
 * becomes current and its whole free list goes into the bin, counted once
 * (class_alloc and class_take_batch would count its first block apart, and
 * look at the used-up chunk twice). NULL when it is not that case. */
#if HL_TCACHE_LEAN
/* Class c's bin is empty or just refilled: frees go into it until it holds
 * HL_TCACHE_LEAN_BYTES' worth of blocks more (each pop makes room for one:
 * node_allocate raises the bound). */
static void lean_rearm(uint32_t c) {
  hl_tcache_tls.bound[c] = hl_tcache_tls.recycled[c] + HL_TCACHE_LEAN_BYTES / class_size(c);
}
#endif

static void *tcache_refill_partial(heap *h, uint32_t ci) {
  cls *c = &h->cls[ci];
  chunk *cur = c->cur, *k = c->partial;
  if (!k || cur->free || cur->bump != cur->end) return NULL;
  partial_unlink(c, k);
  c->cur = k;
  unsigned char *b = k->free; /* not NULL: a chunk is listed when a block comes back */
  uint32_t n = k->carved - k->used;
  void *next = link_get(b);
  k->free = NULL;
  k->used += n;
  size_t live = stat_getz(&c->live) + n;
  stat_set(&c->live, live);
  high_water(h, ci, live);
  hl_tcache_tls.bin[ci] = next;
  hl_tcache_tls.cur[ci] = k;
  /* The bin's first pop reads this link (a chunk's old free list: cold). */
#if defined(__GNUC__)
  if (next) __builtin_prefetch(next, 1);
#endif
  return b;
}

void *hl_tcache_refill(size_t c) {
  heap *h = tl_heap;
  if (!HL_CHECKED && h && tl_cache == CACHE_ON && c < HL_TCACHE_BINS && c < g_src.nclasses) {
    void *b = tcache_refill_partial(h, (uint32_t)c);
    if (b) {
#if HL_TCACHE_STACK
      hl_tcache_tls.limit[c] = HL_TCACHE_STACK;
#endif
#if HL_TCACHE_LEAN
      lean_rearm((uint32_t)c);
#endif
      return b;
    }
  }
  h = thread_heap();
  if (!h || c >= HL_TCACHE_BINS) return NULL;
  cache_start(h);
  size_t size = class_size((uint32_t)c);
  if (c >= g_src.nclasses) return hl_large_alloc(&g_src, h, size, HL_MAX_ALIGN);
  void *first = class_alloc(h, (uint32_t)c, size);
  if (first && !HL_CHECKED && tl_cache == CACHE_ON) {
    class_take_batch(h, (uint32_t)c, &hl_tcache_tls.bin[c]);
    hl_tcache_tls.cur[c] = h->cls[c].cur;
#if HL_TCACHE_STACK
    hl_tcache_tls.limit[c] = HL_TCACHE_STACK;
#endif
#if HL_TCACHE_LEAN
    lean_rearm((uint32_t)c);
#endif
    /* The bin's first pop reads this link (a chunk's old free list: cold). */
#if defined(__GNUC__)
    if (hl_tcache_tls.bin[c]) __builtin_prefetch(hl_tcache_tls.bin[c], 1);
#endif
  }
  return first;
}

#if HL_TCACHE_STACK || HL_TCACHE_LEAN
/* A block a thread kept goes back to its chunk: one of the thread's heap h
 * straight onto its chunk (1: the caller counts these in one pass, with
 * given_back), another heap's as hl_free sends it (0). */
static HL_INLINE size_t give_back(heap *h, unsigned char *b) {
  chunk *k = chunk_of(&g_src, b);
  if (k->owner == h && k->kind == KIND_CLASS) {
    chunk_take_back(h, k, b);
    return 1;
  }
  heap_free(&g_src, h, b);
  return 0;
}

static void given_back(heap *h, uint32_t c, size_t back) {
  cls *cl = &h->cls[c];
  stat_add(&cl->frees, back);
  stat_set(&cl->live, stat_getz(&cl->live) - back);
}
#endif

#if HL_TCACHE_STACK
/* The n blocks of class c in slot go back to their chunks. */
static void stack_give_back(heap *h, uint32_t c, void **slot, uint32_t n) {
  size_t back = 0;
  for (uint32_t i = 0; i < n; i++) back += give_back(h, slot[i]);
  given_back(h, c, back);
}

/* Class c's stack is full: its blocks go back to their chunks, and the
 * stack takes no frees until the class next allocates from the bin: after
 * a container's clear() its chunks can be retired whole. */
static void cache_overflow(heap *h, uint32_t c) {
  uint32_t n = hl_tcache_tls.count[c];
  hl_tcache_tls.count[c] = 0;
  hl_tcache_tls.limit[c] = 0;
  owner_add(&hl_tcache_tls.recycled[c], -(uint64_t)n); /* as in cache_release */
  stack_give_back(h, c, hl_tcache_tls.stack[c], n);
}

/* The same for hl_malloc's stack of class c, which takes frees again at
 * the class's next allocation from its chunk. */
static HL_NOINLINE void mstack_overflow(heap *h, uint32_t c) {
  uint32_t n = tl_ms.count[c];
  tl_ms.count[c] = 0;
  tl_ms.limit[c] = 0;
  owner_add(&tl_ms.pushed[c], -(uint64_t)n);
  stack_give_back(h, c, tl_ms.slot[c], n);
}

void hl_tcache_free(size_t c, void *block) {
  if (block && tl_cache == CACHE_NONE && thread_heap()) cache_start(tl_heap);
  if (tl_heap && c < HL_TCACHE_BINS && c < g_src.nclasses && hl_tcache_tls.limit[c] &&
      hl_tcache_tls.count[c] >= hl_tcache_tls.limit[c])
    cache_overflow(tl_heap, (uint32_t)c);
  hl_free(block);
}
#elif HL_TCACHE_LEAN
/* The lean path: class c's bin holds its bound's worth of blocks beyond
 * its last refill. All of it goes back to the chunks (the heap's own in
 * one pass, counted once; other heaps' as hl_free sends them, to their
 * owners), so that a thread that frees more than it allocates (another
 * thread's nodes, a container's clear()) holds a bounded number of
 * blocks. */
static void lean_give_back(heap *h, uint32_t c) {
  unsigned char *b = hl_tcache_tls.bin[c];
  size_t back = 0;
  hl_tcache_tls.bin[c] = NULL;
  while (b) {
    unsigned char *next = link_get(b);
    back += give_back(h, b);
    b = next;
  }
  given_back(h, c, back);
}

/* The inline free's call: the bin is at its bound (give it back, then this
 * block starts it again), or not armed yet (a class's first free, or the
 * first after hl_trim), or the thread cannot cache (no heap, exiting, a
 * class served by large blocks): hl_free. */
void hl_tcache_free(size_t c, void *block) {
  if (block && tl_cache == CACHE_NONE && thread_heap()) cache_start(tl_heap);
  heap *h = tl_heap;
  if (!block || HL_CHECKED || !h || tl_cache != CACHE_ON || c >= HL_TCACHE_BINS || c >= g_src.nclasses) {
    hl_free(block);
    return;
  }
  lean_give_back(h, (uint32_t)c);
  lean_rearm((uint32_t)c);
  link_set(block, hl_tcache_tls.bin[c]);
  hl_tcache_tls.bin[c] = block;
  /* Read by the statistics from other threads (alloc_stats.c). */
  owner_add(&hl_tcache_tls.recycled[c], 1);
}
#else
void hl_tcache_free(size_t c, void *block) {
  (void)c;
  if (block && tl_cache == CACHE_NONE && thread_heap()) cache_start(tl_heap);
  hl_free(block);
}
#endif

#if HL_TCACHE_STACK
/* An allocation's way when class ci's stack is empty and takes no frees
 * (the thread's first block of the class, or the first after the emptying
 * of a full stack): the stack takes frees again, as after
 * hl::pool_allocator's refill, and the block comes from the class's chunk. */
static HL_NOINLINE void *alloc_restack(heap *h, uint32_t ci, size_t size, size_t align) {
  if (ci >= h->src->nclasses) return hl_large_alloc(h->src, h, size, align);
  if (tl_cache == CACHE_NONE) cache_start(h);
  if (tl_cache == CACHE_ON) tl_ms.limit[ci] = HL_TCACHE_STACK;
  return class_alloc(h, ci, size);
}

/* A request of at most HL_TCACHE_MAX_SIZE bytes aligned to at most
 * BLOCK_ALIGN_MAX, whose class (if any) has a stack: the block the thread
 * freed last of that class (hl_free pushed its address), not read; else
 * one from the class's chunk. Every block of a class has the class's
 * alignment, which class_for chose to be at least align. */
static HL_INLINE void *stack_alloc(heap *h, size_t size, size_t align) {
  uint32_t ci = class_for(h->src, size, align);
  uint32_t n = tl_ms.count[ci];
  if (n) {
    tl_ms.count[ci] = n - 1;
    owner_add(&tl_ms.popped[ci], 1);
    return tl_ms.slot[ci][n - 1];
  }
  if (tl_ms.limit[ci]) return class_alloc(h, ci, size);
  return alloc_restack(h, ci, size, align);
}

/* hl_free of a block of class c - 1 (the class map's answer; 0: unknown)
 * onto the class's stack while it has room, counted as hl::pool_allocator's
 * frees onto it are; 0 when it does not go there. The chunk's header is
 * not read. */
static HL_INLINE int free_small(void *p, uint32_t c) {
  if (c - 1 >= HL_TCACHE_BINS) return 0;
  c--;
  uint32_t n = tl_ms.count[c], limit = tl_ms.limit[c];
  if (n < limit) {
    tl_ms.slot[c][n] = p;
    tl_ms.count[c] = n + 1;
    owner_add(&tl_ms.pushed[c], 1);
    return 1;
  }
  /* A limit is set only while the thread's cache is on: it has a heap. */
  if (limit) mstack_overflow(tl_heap, c);
  return 0;
}
#endif

void *hl_malloc(size_t size) {
#if HL_TCACHE_STACK
  heap *h = tl_heap;
  if (!HL_CHECKED && h && size <= HL_TCACHE_MAX_SIZE) return stack_alloc(h, size, malloc_align(size));
#endif
  heap *hh = thread_heap();
  return hh ? heap_alloc(hh, size, malloc_align(size)) : NULL;
}

void *hl_aligned_alloc(size_t align, size_t size) {
  if (!is_pow2(align)) return NULL;
  if (align < 8) align = 8;
#if HL_TCACHE_STACK
  heap *h = tl_heap;
  if (!HL_CHECKED && h && size <= HL_TCACHE_MAX_SIZE && align <= BLOCK_ALIGN_MAX) return stack_alloc(h, size, align);
#endif
  heap *hh = thread_heap();
  return hh ? heap_alloc(hh, size, align) : NULL;
}

void *hl_calloc(size_t n, size_t size) {
  heap *h = thread_heap();
  return h ? heap_calloc(h, n, size) : NULL;
}

void *hl_realloc(void *p, size_t size) {
  heap *h = thread_heap();
  return h ? heap_realloc(&g_src, h, p, size) : NULL;
}

void hl_free(void *p) {
  if (!p) return;
#if HL_TCACHE_STACK
  if (!HL_CHECKED && free_small(p, hl_cmap_get(p))) return;
#endif
  if (HL_CHECKED && !atomic_load_explicit(&g_ready, memory_order_acquire))
    hl_dbg_fatal("hl_malloc", 0, p, "free of a pointer that no pool of the allocator owns:");
  /* A thread without a heap frees only other threads' blocks: it takes a
   * heap, so as to gather them (hl_remote_free). Not while it exits. */
  heap *h = tl_heap;
  if (!h && tl_cache == CACHE_NONE) h = thread_heap();
  heap_free(&g_src, h, p);
}

size_t hl_usable_size(const void *p) {
  if (!p) return 0;
  if (HL_CHECKED) hl_checked_chunk(&g_src, p);
  return hl_block_size(&g_src, p);
}

size_t hl_trim(void) {
  if (!atomic_load_explicit(&g_ready, memory_order_acquire)) return 0;
  if (tl_heap) cache_release(tl_heap);
  hl_pending_flush_all();
  return (tl_heap ? hl_heap_trim(tl_heap) : 0) + hl_large_cache_release(&g_src);
}

size_t hl_class_count(void) { return default_ready() ? g_src.nclasses : 0; }

hl_status hl_class_stats(size_t index, hl_pool_stats *out) {
  if (!default_ready()) return HL_ENOMEM;
  if (index > g_src.nclasses) return HL_EINVAL;
  pthread_mutex_lock(&g_src.lock);
  hl_status st = hl_stats_collect(&g_src, index, out);
  pthread_mutex_unlock(&g_src.lock);
  return st;
}

void hl_totals(hl_pool_stats *out) {
  memset(out, 0, sizeof *out);
  if (!default_ready()) return;
  pthread_mutex_lock(&g_src.lock);
  hl_stats_collect(&g_src, g_src.nclasses + 1, out);
  pthread_mutex_unlock(&g_src.lock);
}
