#include "heaplint/alloc.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "block.h"
#include "debug.h"
#include "heaplint/detail/tcache.h"
#include "sys.h"

#if !defined(__GNUC__)
extern _Thread_local hl_tcache hl_tcache_tls;
#endif

/* Layout. Memory comes in chunks of chunk_size bytes aligned to chunk_size.
 * A chunk starts with a header; a class chunk then holds blocks of one size
 * class at a stride, a large chunk holds one fallback request. A block's
 * chunk is its address with the low bits cleared, which is how free finds
 * the class and the owner without a header per block.
 *
 * Ownership. A heap is one owner's set of class lists: the single heap of a
 * private hl_allocator, or one thread's heap of the process-wide allocator.
 * Only the owner touches a chunk's free list. A thread freeing a block of
 * another thread's heap pushes it onto that heap's per-class remote list
 * (lock-free); the owner takes the whole list back when it runs out of free
 * blocks. A thread that exits leaves its heap to the next new thread. */

#define MAX_CLASSES 72
#define BLOCK_ALIGN_MAX 64 /* classes serve alignments up to this */
#define HEADER_ALIGN 64    /* the first block's offset is a multiple of this */
#define CHUNK_MIN ((size_t)4096)
#define CHUNK_MAX ((size_t)16 << 20)
#define LUT_MAX 1024 /* sizes up to this find their class in a table */

enum { KIND_EMPTY = 0, KIND_CLASS = 1, KIND_LARGE = 2, KIND_CACHED = 3 /* a freed large block */ };
enum { LIST_NONE = 0, LIST_PARTIAL = 1, LIST_EMPTY = 2 };

typedef struct heap heap;
typedef struct source source;

/* Starts with the fields of hl_chunk_head (heaplint/detail/tcache.h), which
 * hl::pool_allocator's inline free reads and writes. */
typedef struct chunk {
  heap *owner;
  unsigned char *free; /* free blocks of this chunk, linked through their first word */
  uint32_t used;       /* blocks handed out, or waiting in a thread's bin */
  uint32_t capacity;
  unsigned char *bump; /* blocks never handed out, carved lazily */
  unsigned char *end;
  struct chunk *next, *prev;   /* the class's partial list or the heap's empty list */
  struct chunk *anext, *aprev; /* all chunks of a private allocator (for destroy) */
  uint32_t stride;
  uint16_t cls;
  uint8_t kind, listed;
  size_t large_size;            /* KIND_LARGE: bytes asked for */
  size_t large_total;           /* KIND_LARGE: bytes taken from the fallback */
  _Atomic unsigned char live[]; /* checked build: one bit per block */
} chunk;

_Static_assert(offsetof(chunk, owner) == offsetof(hl_chunk_head, owner) &&
                   offsetof(chunk, free) == offsetof(hl_chunk_head, free) &&
                   offsetof(chunk, used) == offsetof(hl_chunk_head, used) &&
                   offsetof(chunk, capacity) == offsetof(hl_chunk_head, capacity),
               "chunk starts with hl_chunk_head");

/* The state of an empty current chunk: both the free list and the bump area
 * are empty, so the fast path falls through to refill without a NULL test. */
static chunk no_chunk;

typedef struct geom {
  uint32_t size, stride, align, capacity;
  char name[48]; /* "<allocator>/<size>" in reports and statistics */
} geom;

typedef struct cls {
  chunk *cur;     /* chunk the next block comes from */
  chunk *partial; /* other chunks with free blocks */
  /* Owner-written counters; allocations = live + frees + drained, so that
   * an allocation updates only live. */
  _Atomic size_t live; /* handed out and not yet taken back */
  _Atomic uint64_t frees, drained, failures;
  _Atomic size_t high_water, chunks;
  /* Written by other threads; kept off the owner's cache line. */
  _Alignas(64) _Atomic(unsigned char *) remote;
  _Atomic uint64_t remote_frees; /* by threads without a heap */
  /* Owner-written: blocks of this class of other heaps that the owner
   * freed (remote_free); counted here so as to take no atomic operation. */
  _Atomic uint64_t given;
} cls;

struct heap {
  source *src;
  heap *next_heap;       /* every heap of the source */
  heap *next_abandoned;  /* heaps of exited threads, waiting for a new thread */
  chunk *empty;          /* retained empty chunks */
  _Atomic size_t nempty; /* owner-written, read by statistics */
  chunk *all;            /* private allocator: every chunk, for destroy */
  int shared;            /* part of the process-wide allocator */
  hl_tcache *tc;         /* the owner thread's bins and inline-free counts (under src->lock) */
  cls cls[];
};

struct source {
  char name[32];
  size_t chunk_size, header, max_class, retain;
  uintptr_t mask;
  uint32_t nclasses;
  geom geom[MAX_CLASSES];
  /* class of (size + 7) / 8 for alignments up to 8 and up to 16 */
  uint8_t lut[2][LUT_MAX / 8 + 1];
  hl_fallback fallback;
  hl_exhausted_fn on_exhausted;
  void *on_exhausted_ctx;
  pthread_mutex_t lock; /* arena, heap lists, registry */
  /* static mode: chunks grow up from arena_lo, metadata down from meta */
  uintptr_t arena_lo, arena_top, meta;
  chunk *arena_free;
  int is_arena;
  heap *heaps, *abandoned;
  /* checked build: sorted addresses of the chunks outside the arena */
  uintptr_t *reg;
  size_t nreg, capreg;
  /* fallback ("large") requests; freed ones kept for reuse under lock */
  chunk *large_cache;
  size_t large_cached, large_limit;
  _Atomic uint64_t large_allocations, large_frees, large_failures;
  _Atomic size_t large_in_use, large_high_water;
};

struct hl_allocator {
  source src;
  heap *heap;
  int locked, is_static;
  pthread_mutex_t lock;
};

/* Keeps rare paths out of the fast ones, so those stay small and need few
 * registers. */
#if defined(__GNUC__)
#define HL_NOINLINE __attribute__((noinline))
#define HL_INLINE inline __attribute__((always_inline))
#else
#define HL_NOINLINE
#define HL_INLINE inline
#endif

static size_t low_bit(size_t n) { return n & (~n + 1); }

/* Owner-only counters that other threads read: a relaxed load and store,
 * not a locked read-modify-write. */
static void stat_add(_Atomic uint64_t *c, uint64_t n) {
  atomic_store_explicit(c, atomic_load_explicit(c, memory_order_relaxed) + n, memory_order_relaxed);
}

static void stat_set(_Atomic size_t *c, size_t v) { atomic_store_explicit(c, v, memory_order_relaxed); }

static uint64_t stat_get(_Atomic uint64_t *c) { return atomic_load_explicit(c, memory_order_relaxed); }

static size_t stat_getz(_Atomic size_t *c) { return atomic_load_explicit(c, memory_order_relaxed); }

/* ---- size classes: 8..64 by 8, then four classes per doubling ---------- */

static unsigned floor_log2(size_t n) {
#if defined(__GNUC__)
  return (unsigned)(sizeof(unsigned long long) * 8 - 1) - (unsigned)__builtin_clzll(n);
#else
  unsigned b = 0;
  while (n >>= 1) b++;
  return b;
#endif
}

static uint32_t class_index(size_t size) {
  if (size <= 64) return size ? (uint32_t)((size + 7) / 8 - 1) : 0;
  size_t s = size - 1;
  unsigned b = floor_log2(s);
  return 8 + (b - 6) * 4 + (uint32_t)((s >> (b - 2)) & 3);
}

static size_t class_size(uint32_t index) {
  if (index < 8) return (size_t)(index + 1) * 8;
  size_t base = (size_t)64 << ((index - 8) / 4);
  return base + ((index - 8) % 4 + 1) * (base / 4);
}

/* ---- configuration ------------------------------------------------------ */

/* The smallest class holding size bytes at the given alignment, or
 * nclasses when none does (the request goes to the fallback). */
static uint32_t class_search(const source *s, size_t size, size_t align) {
  if (size > s->max_class || align > BLOCK_ALIGN_MAX) return s->nclasses;
  uint32_t ci = class_index(size);
  while (ci < s->nclasses && s->geom[ci].align < align) ci++;
  return ci;
}

static HL_INLINE uint32_t class_for(const source *s, size_t size, size_t align) {
  if (size <= LUT_MAX && align <= 16) return s->lut[align > 8][(size + 7) >> 3];
  return class_search(s, size, align);
}

void hl_allocator_config_default(hl_allocator_config *cfg) {
  memset(cfg, 0, sizeof *cfg);
  cfg->retain_chunks = 16;
}

static void *none_alloc(void *ctx, size_t size, size_t align) {
  (void)ctx;
  (void)size;
  (void)align;
  return NULL;
}

static void none_free(void *ctx, void *p, size_t size) {
  (void)ctx;
  (void)p;
  (void)size;
}

const hl_fallback hl_fallback_none = {none_alloc, none_free, NULL};

#ifndef HL_NO_HEAP
static void *system_alloc(void *ctx, size_t size, size_t align) {
  (void)ctx;
  return hl_sys_alloc(size, align);
}

static void system_free(void *ctx, void *p, size_t size) {
  (void)ctx;
  (void)size;
  hl_sys_free(p);
}

const hl_fallback hl_fallback_system = {system_alloc, system_free, NULL};
#define DEFAULT_FALLBACK (&hl_fallback_system)
#else
#define DEFAULT_FALLBACK (&hl_fallback_none)
#endif

/* Sets up everything but the lock and the arena from cfg (NULL: defaults). */
static hl_status source_setup(source *s, const hl_allocator_config *cfg, int arena, const char *default_name) {
  hl_allocator_config def;
  if (!cfg) {
    hl_allocator_config_default(&def);
    cfg = &def;
  }
  size_t cs = cfg->chunk_size ? cfg->chunk_size : arena ? (size_t)16 << 10 : (size_t)64 << 10;
  if (!is_pow2(cs) || cs < CHUNK_MIN || cs > CHUNK_MAX) return HL_EINVAL;
  size_t max = cfg->max_class ? cfg->max_class : (cs / 16 < 4096 ? cs / 16 : 4096);
  if (max < 8 || max > cs / 4) return HL_EINVAL;

  memset(s, 0, sizeof *s);
  snprintf(s->name, sizeof s->name, "%s", cfg->name ? cfg->name : default_name);
  s->chunk_size = cs;
  s->mask = ~(uintptr_t)(cs - 1);
  s->retain = cfg->retain_chunks;
  s->large_limit = s->retain > SIZE_MAX / cs ? SIZE_MAX : s->retain * cs;
  s->nclasses = class_size(class_index(max)) == max ? class_index(max) + 1 : class_index(max);
  s->max_class = class_size(s->nclasses - 1);
  s->fallback = cfg->fallback ? *cfg->fallback : arena ? hl_fallback_none : *DEFAULT_FALLBACK;
  s->on_exhausted = cfg->on_exhausted;
  s->on_exhausted_ctx = cfg->on_exhausted_ctx;
  s->is_arena = arena;

  /* Blocks keep the natural alignment of their size (up to 64): the checked
   * build's guard is padded to keep it. The bitmap is sized for the class
   * with the most blocks. */
  for (uint32_t i = 0; i < s->nclasses; i++) {
    geom *g = &s->geom[i];
    g->size = (uint32_t)class_size(i);
    g->align = (uint32_t)(low_bit(g->size) < BLOCK_ALIGN_MAX ? low_bit(g->size) : BLOCK_ALIGN_MAX);
    g->stride = (uint32_t)align_up(g->size + HL_GUARD_BYTES, g->align);
    snprintf(g->name, sizeof g->name, "%s/%u", s->name, (unsigned)g->size);
  }
  size_t most = cs / s->geom[0].stride;
  s->header = align_up(sizeof(chunk) + (HL_CHECKED ? (most + 7) / 8 : 0), HEADER_ALIGN);
  for (uint32_t i = 0; i < s->nclasses; i++) {
    s->geom[i].capacity = (uint32_t)((cs - s->header) / s->geom[i].stride);
    if (s->geom[i].capacity == 0) return HL_EINVAL;
  }
  for (size_t i = 0; i <= LUT_MAX / 8; i++) {
    s->lut[0][i] = (uint8_t)class_search(s, i * 8, 8);
    s->lut[1][i] = (uint8_t)class_search(s, i * 8, 16);
  }
  return HL_OK;
}

/* ---- chunks from the system or the arena -------------------------------- */

static int in_arena(const source *s, uintptr_t a) { return s->is_arena && a >= s->arena_lo && a < s->arena_top; }

/* Checked build: where addr is (or would go) in the sorted registry. */
static size_t reg_find(const source *s, uintptr_t addr) {
  size_t lo = 0, hi = s->nreg;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (s->reg[mid] < addr)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}

static int reg_add(source *s, uintptr_t addr) {
  pthread_mutex_lock(&s->lock);
  if (s->nreg == s->capreg) {
    size_t cap = s->capreg ? s->capreg * 2 : 64;
    uintptr_t *grown = hl_sys_alloc(cap * sizeof *grown, _Alignof(uintptr_t));
    if (!grown) {
      pthread_mutex_unlock(&s->lock);
      return 0;
    }
    if (s->nreg) memcpy(grown, s->reg, s->nreg * sizeof *grown);
    hl_sys_free(s->reg);
    s->reg = grown;
    s->capreg = cap;
  }
  size_t at = reg_find(s, addr);
  memmove(s->reg + at + 1, s->reg + at, (s->nreg - at) * sizeof *s->reg);
  s->reg[at] = addr;
  s->nreg++;
  pthread_mutex_unlock(&s->lock);
  return 1;
}

static void reg_remove(source *s, uintptr_t addr) {
  pthread_mutex_lock(&s->lock);
  size_t at = reg_find(s, addr);
  if (at < s->nreg && s->reg[at] == addr) {
    memmove(s->reg + at, s->reg + at + 1, (s->nreg - at - 1) * sizeof *s->reg);
    s->nreg--;
  }
  pthread_mutex_unlock(&s->lock);
}

/* Checked build: whether the chunk address k may be read at all. */
static int chunk_known(source *s, uintptr_t k) {
  if (in_arena(s, k)) return 1;
  pthread_mutex_lock(&s->lock);
  size_t at = reg_find(s, k);
  int found = at < s->nreg && s->reg[at] == k;
  pthread_mutex_unlock(&s->lock);
  return found;
}

static chunk *chunk_get(source *s) {
  chunk *k = NULL;
  if (s->is_arena) {
    pthread_mutex_lock(&s->lock);
    if (s->arena_free) {
      k = s->arena_free;
      s->arena_free = k->next;
    } else if (s->meta >= s->arena_top && s->meta - s->arena_top >= s->chunk_size) {
      k = (chunk *)s->arena_top;
      s->arena_top += s->chunk_size;
    }
    pthread_mutex_unlock(&s->lock);
  } else {
    k = hl_sys_alloc(s->chunk_size, s->chunk_size);
    if (k && HL_CHECKED && !reg_add(s, (uintptr_t)k)) {
      hl_sys_free(k);
      k = NULL;
    }
  }
  return k;
}

static void chunk_put(source *s, chunk *k) {
  k->kind = KIND_EMPTY;
  if (s->is_arena) {
    pthread_mutex_lock(&s->lock);
    k->next = s->arena_free;
    s->arena_free = k;
    pthread_mutex_unlock(&s->lock);
  } else {
    if (HL_CHECKED) reg_remove(s, (uintptr_t)k);
    hl_sys_free(k);
  }
}

/* Zeroed metadata (heaps, private allocators), 64-byte aligned. */
static void *meta_alloc(source *s, size_t size) {
  void *m = NULL;
  size = align_up(size, 64);
  if (s->is_arena) {
    pthread_mutex_lock(&s->lock);
    if (s->meta >= s->arena_top && s->meta - s->arena_top >= size) {
      s->meta -= size;
      m = (void *)s->meta;
    }
    pthread_mutex_unlock(&s->lock);
  } else {
    m = hl_sys_alloc(size, 64);
  }
  if (m) memset(m, 0, size);
  return m;
}

/* ---- heaps -------------------------------------------------------------- */

static heap *heap_new(source *s, int shared) {
  heap *h = meta_alloc(s, sizeof(heap) + s->nclasses * sizeof(cls));
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

static chunk *chunk_of(const source *s, const void *p) { return (chunk *)((uintptr_t)p & s->mask); }

static void all_link(heap *h, chunk *k) {
  if (h->shared) return;
  k->aprev = NULL;
  k->anext = h->all;
  if (h->all) h->all->aprev = k;
  h->all = k;
}

static void all_unlink(heap *h, chunk *k) {
  if (h->shared) return;
  if (k->aprev)
    k->aprev->anext = k->anext;
  else
    h->all = k->anext;
  if (k->anext) k->anext->aprev = k->aprev;
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
  if (stat_getz(&h->nempty) < h->src->retain) {
    k->next = h->empty;
    h->empty = k;
    stat_set(&h->nempty, stat_getz(&h->nempty) + 1);
    k->listed = LIST_EMPTY;
  } else {
    all_unlink(h, k);
    chunk_put(h->src, k);
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
  k->free = NULL;
  k->bump = (unsigned char *)k + s->header;
  k->end = k->bump + (size_t)g->capacity * g->stride;
  if (HL_CHECKED) memset((void *)k->live, 0, (g->capacity + 7) / 8);
  cls *c = &h->cls[ci];
  stat_set(&c->chunks, stat_getz(&c->chunks) + 1);
}

/* A chunk other than the current one went from full to not full, or to
 * empty: it joins the partial list, or leaves it for retirement. */
static HL_NOINLINE void chunk_relist(heap *h, chunk *k, uint32_t was) {
  cls *c = &h->cls[k->cls];
  if (k->used == 0) {
    if (was != k->capacity) partial_unlink(c, k);
    chunk_retire(h, k);
  } else {
    partial_push(c, k);
  }
}

/* Returns block b to its chunk k (owned by h), keeping the lists right. */
static HL_INLINE void chunk_take_back(heap *h, chunk *k, unsigned char *b) {
  link_set(b, k->free);
  k->free = b;
  uint32_t was = k->used--;
  if ((k->used == 0 || was == k->capacity) && k != h->cls[k->cls].cur) chunk_relist(h, k, was);
}

/* Takes back the blocks other threads freed into class ci of h. */
static void drain_remote(heap *h, uint32_t ci) {
  cls *c = &h->cls[ci];
  unsigned char *b = atomic_exchange_explicit(&c->remote, NULL, memory_order_acquire);
  while (b) {
    unsigned char *next = link_get(b);
    stat_set(&c->live, stat_getz(&c->live) - 1);
    stat_add(&c->drained, 1);
    chunk_take_back(h, chunk_of(h->src, b), b);
    b = next;
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
      drain_remote(h, ci);
    } else {
      break;
    }
  }
  chunk *k = h->empty;
  if (k) {
    h->empty = k->next;
    stat_set(&h->nempty, stat_getz(&h->nempty) - 1);
  } else if ((k = chunk_get(h->src)) != NULL) {
    all_link(h, k);
  } else if ((k = steal_idle_chunk(h)) == NULL) {
    return 0;
  }
  chunk_format(h, k, ci);
  c->cur = k;
  return 1;
}

static void exhausted(const source *s, const char *name, size_t request) {
  if (s->on_exhausted) s->on_exhausted(s->on_exhausted_ctx, name, request);
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
  if (h->shared && ci < HL_TCACHE_BINS) live -= (size_t)hl_tcache_tls.freed[ci];
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
    unsigned char *first = (unsigned char *)k + h->src->header;
    n = (size_t)(k->bump - first) / k->stride - k->used;
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

/* ---- large (fallback) requests ------------------------------------------ */

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
  if (HL_CHECKED && !in_arena(s, (uintptr_t)k)) reg_remove(s, (uintptr_t)k);
  s->fallback.free(s->fallback.ctx, k, k->large_total);
}

/* Returns the kept large blocks to the fallback; how many. */
static size_t large_cache_release(source *s) {
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

static HL_NOINLINE void *large_alloc(source *s, heap *h, size_t size, size_t align) {
  size_t off = large_offset(align);
  size_t need = off + size + HL_GUARD_BYTES;
  chunk *k = NULL;
  if (align < s->chunk_size && size <= SIZE_MAX - off - HL_GUARD_BYTES) {
    if ((k = large_cache_take(s, need)) != NULL) {
      need = k->large_total;
    } else if ((k = s->fallback.alloc(s->fallback.ctx, need, s->chunk_size)) != NULL && HL_CHECKED &&
               !in_arena(s, (uintptr_t)k) && !reg_add(s, (uintptr_t)k)) {
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

static HL_NOINLINE void large_free(source *s, chunk *k) {
  if (HL_CHECKED) hl_dbg_on_free(s->name, k->bump, k->large_size, k->large_size + HL_GUARD_BYTES);
  if (!k->owner->shared) all_unlink(k->owner, k);
  atomic_fetch_add(&s->large_frees, 1);
  atomic_fetch_sub(&s->large_in_use, 1);
  if (!large_cache_put(s, k)) large_release(s, k);
}

/* ---- allocate / free / realloc on one heap (callers do the locking) ----- */

static HL_INLINE void *heap_alloc(heap *h, size_t size, size_t align) {
  uint32_t ci = class_for(h->src, size, align);
  if (ci < h->src->nclasses) return class_alloc(h, ci, size);
  return large_alloc(h->src, h, size, align);
}

/* malloc's alignment: alignof(max_align_t), or the size's for tiny sizes. */
static size_t malloc_align(size_t size) { return size >= HL_MAX_ALIGN ? HL_MAX_ALIGN : 8; }

/* Checked build: validates p before anything reads its chunk header. */
static chunk *checked_chunk(source *s, const void *p) {
  chunk *k = chunk_of(s, p);
  if (!chunk_known(s, (uintptr_t)k) || k->kind == KIND_EMPTY || k->kind == KIND_CACHED)
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

/* Hands the blocks first .. last (linked) over to class ci of heap owner. */
static void remote_push(heap *owner, uint32_t ci, unsigned char *first, unsigned char *last) {
  cls *c = &owner->cls[ci];
  unsigned char *head = atomic_load_explicit(&c->remote, memory_order_relaxed);
  do {
    link_set(last, head);
  } while (
      !atomic_compare_exchange_weak_explicit(&c->remote, &head, first, memory_order_release, memory_order_relaxed));
}

/* Frees of another thread's blocks, gathered per class by the freeing
 * thread of the process-wide allocator and handed over REMOTE_BATCH at a
 * time: each hand-over is two atomic operations on a line the owner also
 * takes, which cost a third of a consumer thread's time when done per block
 * (bench/runtime/remote.cpp). A batch holds the blocks of one owner; a
 * block of another flushes it. At most REMOTE_BATCH - 1 blocks per class
 * wait in a thread, until it frees more, calls hl_trim or exits (the
 * statistics count them as freed). Only threads with a heap gather (their
 * exit flushes); the classes of the thread cache, where the small blocks
 * are. */
#define REMOTE_BATCH 32
typedef struct pending {
  heap *owner;
  unsigned char *first, *last;
  uint32_t n;
} pending;

#if defined(__GNUC__)
#define TLS_MODEL __attribute__((tls_model("initial-exec")))
#else
#define TLS_MODEL
#endif
static _Thread_local pending tl_pending[HL_TCACHE_BINS] TLS_MODEL;

static void pending_flush(pending *q, uint32_t ci) {
  if (!q->n) return;
  remote_push(q->owner, ci, q->first, q->last);
  q->first = q->last = NULL;
  q->n = 0;
}

/* Hands over every batch the calling thread gathered. */
static void pending_flush_all(void) {
  for (uint32_t ci = 0; ci < HL_TCACHE_BINS; ci++) pending_flush(&tl_pending[ci], ci);
}

/* Frees b, a block of chunk k of another thread's heap, for thread heap h
 * (NULL: the calling thread has none). */
static HL_NOINLINE void remote_free(heap *h, chunk *k, unsigned char *b) {
  uint32_t ci = k->cls;
  if (!h) {
    remote_push(k->owner, ci, b, b);
    atomic_fetch_add_explicit(&k->owner->cls[ci].remote_frees, 1, memory_order_relaxed);
    return;
  }
  stat_add(&h->cls[ci].given, 1);
  if (ci >= HL_TCACHE_BINS) {
    remote_push(k->owner, ci, b, b);
    return;
  }
  pending *q = &tl_pending[ci];
  if (q->owner != k->owner) {
    pending_flush(q, ci);
    q->owner = k->owner;
  }
  link_set(b, q->first);
  if (!q->n) q->last = b;
  q->first = b;
  if (++q->n == REMOTE_BATCH) pending_flush(q, ci);
}

/* Frees p on behalf of h (NULL: a thread of the process-wide allocator that
 * has no heap yet). */
static void heap_free(source *s, heap *h, void *p) {
  chunk *k = HL_CHECKED ? checked_chunk(s, p) : chunk_of(s, p);
  if (k->kind == KIND_LARGE) {
    large_free(s, k);
    return;
  }
  if (HL_CHECKED) check_free(s, k, p);
  if (k->owner == h) {
    cls *c = &h->cls[k->cls];
    stat_add(&c->frees, 1);
    stat_set(&c->live, stat_getz(&c->live) - 1);
    chunk_take_back(h, k, p);
  } else if (k->owner->shared && (!h || h->shared)) {
    remote_free(h, k, p);
  } else {
    hl_dbg_fatal(s->geom[k->cls].name, s->geom[k->cls].size, p, "free through the wrong allocator of block");
  }
}

static size_t usable_size(source *s, const void *p) {
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
  chunk *k = HL_CHECKED ? checked_chunk(s, p) : chunk_of(s, p);
  size_t old = usable_size(s, p);
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

static size_t heap_trim(heap *h) {
  size_t n = 0;
  while (h->empty) {
    chunk *k = h->empty;
    h->empty = k->next;
    all_unlink(h, k);
    chunk_put(h->src, k);
    n++;
  }
  stat_set(&h->nempty, 0);
  return n;
}

/* ---- statistics --------------------------------------------------------- */

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
static hl_status stats_collect(source *s, size_t index, hl_pool_stats *out) {
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

/* ---- private allocators ------------------------------------------------- */

static void lock_a(hl_allocator *a) {
  if (a->locked) pthread_mutex_lock(&a->lock);
}

static void unlock_a(hl_allocator *a) {
  if (a->locked) pthread_mutex_unlock(&a->lock);
}

static hl_status finish_create(hl_allocator *a, const hl_allocator_config *cfg) {
  a->locked = cfg && (cfg->flags & HL_ALLOC_LOCKED);
  if (pthread_mutex_init(&a->src.lock, NULL) != 0) return HL_ENOMEM;
  if (a->locked && pthread_mutex_init(&a->lock, NULL) != 0) {
    pthread_mutex_destroy(&a->src.lock);
    return HL_ENOMEM;
  }
  a->heap = heap_new(&a->src, 0);
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
  hl_status st = source_setup(&a->src, cfg, 0, "hl_allocator");
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
  hl_status st = source_setup(&a->src, cfg, 1, "hl_allocator");
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
  large_cache_release(s);
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

size_t hl_allocator_usable_size(hl_allocator *a, const void *p) {
  if (!p) return 0;
  lock_a(a);
  if (HL_CHECKED) checked_chunk(&a->src, p);
  size_t n = usable_size(&a->src, p);
  unlock_a(a);
  return n;
}

size_t hl_allocator_trim(hl_allocator *a) {
  lock_a(a);
  size_t n = heap_trim(a->heap) + large_cache_release(&a->src);
  unlock_a(a);
  return n;
}

size_t hl_allocator_class_count(hl_allocator *a) { return a->src.nclasses; }

hl_status hl_allocator_class_stats(hl_allocator *a, size_t index, hl_pool_stats *out) {
  if (index > a->src.nclasses) return HL_EINVAL;
  lock_a(a);
  pthread_mutex_lock(&a->src.lock);
  hl_status st = stats_collect(&a->src, index, out);
  pthread_mutex_unlock(&a->src.lock);
  unlock_a(a);
  return st;
}

void hl_allocator_totals(hl_allocator *a, hl_pool_stats *out) {
  lock_a(a);
  pthread_mutex_lock(&a->src.lock);
  stats_collect(&a->src, a->src.nclasses + 1, out);
  pthread_mutex_unlock(&a->src.lock);
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
  pthread_mutex_unlock(&g_src.lock);
  hl_tcache_tls.heap = HL_CHECKED ? NULL : h;
  tl_cache = CACHE_ON;
}

/* Gives the blocks waiting in the calling thread's bins back to heap h. */
static void cache_release(heap *h) {
  for (size_t c = 0; c < HL_TCACHE_BINS; c++) {
    unsigned char *p = hl_tcache_tls.bin[c];
    hl_tcache_tls.bin[c] = NULL;
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
  }
  h->tc = NULL;
}

/* A thread exits: its bins go back to its heap, and the heap waits for the
 * next new thread. Blocks still in use stay valid; freeing them from any
 * thread (this one included, from here on) goes to the remote lists. */
static void thread_exit(void *arg) {
  heap *h = arg;
  cache_release(h);
  pending_flush_all();
  memset(hl_tcache_tls.cur, 0, sizeof hl_tcache_tls.cur);
  hl_tcache_tls.heap = NULL;
  tl_cache = CACHE_GONE;
  tl_heap = NULL;
  heap_trim(h);
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
  hl_status st = source_setup(&g_src, cfg, arena, "hl_malloc");
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
  if (!h && !(h = heap_new(&g_src, 1))) return NULL;
  pthread_setspecific(g_key, h);
  tl_heap = h;
  return h;
}

static heap *thread_heap(void) {
  heap *h = tl_heap;
  return h ? h : thread_heap_slow();
}

void *hl_tcache_refill(size_t c) {
  heap *h = thread_heap();
  if (!h || c >= HL_TCACHE_BINS) return NULL;
  cache_start(h);
  size_t size = class_size((uint32_t)c);
  if (c >= g_src.nclasses) return large_alloc(&g_src, h, size, HL_MAX_ALIGN);
  void *first = class_alloc(h, (uint32_t)c, size);
  if (first && !HL_CHECKED && tl_cache == CACHE_ON) {
    class_take_batch(h, (uint32_t)c, &hl_tcache_tls.bin[c]);
    hl_tcache_tls.cur[c] = h->cls[c].cur;
  }
  return first;
}

void hl_tcache_free(size_t c, void *block) {
  (void)c;
  if (block && tl_cache == CACHE_NONE && thread_heap()) cache_start(tl_heap);
  hl_free(block);
}

void *hl_malloc(size_t size) {
  heap *h = thread_heap();
  return h ? heap_alloc(h, size, malloc_align(size)) : NULL;
}

void *hl_aligned_alloc(size_t align, size_t size) {
  if (!is_pow2(align)) return NULL;
  heap *h = thread_heap();
  return h ? heap_alloc(h, size, align < 8 ? 8 : align) : NULL;
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
  if (HL_CHECKED && !atomic_load_explicit(&g_ready, memory_order_acquire))
    hl_dbg_fatal("hl_malloc", 0, p, "free of a pointer that no pool of the allocator owns:");
  /* A thread without a heap frees only other threads' blocks: it takes a
   * heap, so as to gather them (remote_free). Not while it exits. */
  heap *h = tl_heap;
  if (!h && tl_cache == CACHE_NONE) h = thread_heap();
  heap_free(&g_src, h, p);
}

size_t hl_usable_size(const void *p) {
  if (!p) return 0;
  if (HL_CHECKED) checked_chunk(&g_src, p);
  return usable_size(&g_src, p);
}

size_t hl_trim(void) {
  if (!atomic_load_explicit(&g_ready, memory_order_acquire)) return 0;
  if (tl_heap) cache_release(tl_heap);
  pending_flush_all();
  return (tl_heap ? heap_trim(tl_heap) : 0) + large_cache_release(&g_src);
}

size_t hl_class_count(void) { return default_ready() ? g_src.nclasses : 0; }

hl_status hl_class_stats(size_t index, hl_pool_stats *out) {
  if (!default_ready()) return HL_ENOMEM;
  if (index > g_src.nclasses) return HL_EINVAL;
  pthread_mutex_lock(&g_src.lock);
  hl_status st = stats_collect(&g_src, index, out);
  pthread_mutex_unlock(&g_src.lock);
  return st;
}

void hl_totals(hl_pool_stats *out) {
  memset(out, 0, sizeof *out);
  if (!default_ready()) return;
  pthread_mutex_lock(&g_src.lock);
  stats_collect(&g_src, g_src.nclasses + 1, out);
  pthread_mutex_unlock(&g_src.lock);
}
