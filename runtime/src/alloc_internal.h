/* alloc_internal: what the modules of the size-class allocator share — the
 * layout of its chunks, heaps and sources, the small inline helpers of its
 * fast paths, and the functions one module calls in another. The modules:
 * alloc.c (heaps, size classes, the private and process-wide allocators and
 * the thread cache), alloc_private.c (creating, destroying and reporting on
 * a private allocator), alloc_source.c (configuration, chunks from the system
 * or the arena), alloc_large.c (requests too big for a class),
 * alloc_remote.c (frees of another thread's blocks), alloc_map.c (the
 * process-wide allocator's class of each chunk) and alloc_stats.c
 * (statistics). Not part of the public API: heaplint/alloc.h is. */
#ifndef HEAPLINT_SRC_ALLOC_INTERNAL_H
#define HEAPLINT_SRC_ALLOC_INTERNAL_H

#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "block.h"
#include "debug.h"
#include "heaplint/alloc.h"
#include "heaplint/detail/tcache.h"

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
  uint32_t carved;              /* blocks taken from the bump area so far: carved - used are on the free list */
  size_t large_size;            /* KIND_LARGE: bytes asked for */
  size_t large_total;           /* KIND_LARGE: bytes taken from the fallback */
  _Atomic unsigned char live[]; /* checked build: one bit per block */
} chunk;

_Static_assert(offsetof(chunk, owner) == offsetof(hl_chunk_head, owner) &&
                   offsetof(chunk, free) == offsetof(hl_chunk_head, free) &&
                   offsetof(chunk, used) == offsetof(hl_chunk_head, used) &&
                   offsetof(chunk, capacity) == offsetof(hl_chunk_head, capacity),
               "chunk starts with hl_chunk_head");

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
   * freed (hl_remote_free); counted here so as to take no atomic operation. */
  _Atomic uint64_t given;
} cls;

#if HL_TCACHE_STACK
/* hl_malloc's stacks: per thread and class (those of the thread cache's
 * bins), the addresses of blocks hl_free was given, taken again by the
 * next allocation of the class; apart from hl::pool_allocator's, whose
 * statistics count a block on a stack as handed out, where these count it
 * as freed. Owner-written, read by the statistics under the source's lock. */
typedef struct hl_mstack {
  uint32_t count[HL_TCACHE_BINS];  /* blocks on each stack */
  uint32_t limit[HL_TCACHE_BINS];  /* a free goes on while count < limit (as in hl_tcache) */
  uint64_t pushed[HL_TCACHE_BINS]; /* frees onto a stack less the blocks given back from it: frees */
  uint64_t popped[HL_TCACHE_BINS]; /* allocations off a stack */
  void *slot[HL_TCACHE_BINS][HL_TCACHE_STACK];
} hl_mstack;
#endif

struct heap {
  source *src;
  heap *next_heap;       /* every heap of the source */
  heap *next_abandoned;  /* heaps of exited threads, waiting for a new thread */
  chunk *empty;          /* retained empty chunks */
  _Atomic size_t nempty; /* owner-written, read by statistics */
  chunk *all;            /* private allocator: every chunk, for destroy */
  int shared;            /* part of the process-wide allocator */
  hl_tcache *tc;         /* the owner thread's bins and inline-free counts (under src->lock) */
#if HL_TCACHE_STACK
  hl_mstack *ms; /* the owner thread's hl_malloc stacks (under src->lock) */
#endif
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

/* Keeps rare paths out of the fast ones, so those stay small and need few
 * registers. */
#if defined(__GNUC__)
#define HL_NOINLINE __attribute__((noinline))
#define HL_INLINE inline __attribute__((always_inline))
#else
#define HL_NOINLINE
#define HL_INLINE inline
#endif

/* The library's thread-locals are initial-exec, which the fast paths read
 * without a call to __tls_get_addr: it is linked into the program, not
 * loaded with dlopen. */
#if defined(__GNUC__)
#define TLS_MODEL __attribute__((tls_model("initial-exec")))
#else
#define TLS_MODEL
#endif

static inline size_t low_bit(size_t n) { return n & (~n + 1); }

/* Owner-only counters that other threads read: a relaxed load and store,
 * not a locked read-modify-write. */
static inline void stat_add(_Atomic uint64_t *c, uint64_t n) {
  atomic_store_explicit(c, atomic_load_explicit(c, memory_order_relaxed) + n, memory_order_relaxed);
}

static inline void stat_set(_Atomic size_t *c, size_t v) { atomic_store_explicit(c, v, memory_order_relaxed); }

/* A count the owner thread keeps in its thread-local storage (hl_tcache,
 * hl_mstack) and the statistics read from other threads (alloc_stats.c's
 * owner_count): a relaxed load and store as well; n may be a negative
 * number's two's complement. */
static inline void owner_add(uint64_t *c, uint64_t n) {
#if defined(__GNUC__)
  __atomic_store_n(c, __atomic_load_n(c, __ATOMIC_RELAXED) + n, __ATOMIC_RELAXED);
#else
  *c += n;
#endif
}

static inline uint64_t stat_get(_Atomic uint64_t *c) { return atomic_load_explicit(c, memory_order_relaxed); }

static inline size_t stat_getz(_Atomic size_t *c) { return atomic_load_explicit(c, memory_order_relaxed); }

/* ---- size classes: 8..64 by 8, then four classes per doubling ---------- */

static inline unsigned floor_log2(size_t n) {
#if defined(__GNUC__)
  return (unsigned)(sizeof(unsigned long long) * 8 - 1) - (unsigned)__builtin_clzll(n);
#else
  unsigned b = 0;
  while (n >>= 1) b++;
  return b;
#endif
}

static inline uint32_t class_index(size_t size) {
  if (size <= 64) return size ? (uint32_t)((size + 7) / 8 - 1) : 0;
  size_t s = size - 1;
  unsigned b = floor_log2(s);
  return 8 + (b - 6) * 4 + (uint32_t)((s >> (b - 2)) & 3);
}

static inline size_t class_size(uint32_t index) {
  if (index < 8) return (size_t)(index + 1) * 8;
  size_t base = (size_t)64 << ((index - 8) / 4);
  return base + ((index - 8) % 4 + 1) * (base / 4);
}

/* The smallest class holding size bytes at the given alignment, or
 * nclasses when none does (the request goes to the fallback). */
static inline uint32_t class_search(const source *s, size_t size, size_t align) {
  if (size > s->max_class || align > BLOCK_ALIGN_MAX) return s->nclasses;
  uint32_t ci = class_index(size);
  while (ci < s->nclasses && s->geom[ci].align < align) ci++;
  return ci;
}

static inline chunk *chunk_of(const source *s, const void *p) { return (chunk *)((uintptr_t)p & s->mask); }

static inline int in_arena(const source *s, uintptr_t a) { return s->is_arena && a >= s->arena_lo && a < s->arena_top; }

static inline void all_link(heap *h, chunk *k) {
  if (h->shared) return;
  k->aprev = NULL;
  k->anext = h->all;
  if (h->all) h->all->aprev = k;
  h->all = k;
}

static inline void all_unlink(heap *h, chunk *k) {
  if (h->shared) return;
  if (k->aprev)
    k->aprev->anext = k->anext;
  else
    h->all = k->anext;
  if (k->anext) k->anext->aprev = k->aprev;
}

static inline void exhausted(const source *s, const char *name, size_t request) {
  if (s->on_exhausted) s->on_exhausted(s->on_exhausted_ctx, name, request);
}

/* ---- functions one module calls in another ---------------------------- */

/* alloc.c: the private allocator (hl_allocator_create) and what
 * alloc_private.c, which creates, destroys and reports on it, shares. */
struct hl_allocator {
  source src;
  heap *heap;
  int locked, is_static;
  pthread_mutex_t lock;
};

static inline void lock_a(hl_allocator *a) {
  if (a->locked) pthread_mutex_lock(&a->lock);
}

static inline void unlock_a(hl_allocator *a) {
  if (a->locked) pthread_mutex_unlock(&a->lock);
}

heap *hl_heap_new(source *s, int shared);
size_t hl_heap_trim(heap *h);
/* Checked build: validates p before anything reads its chunk header. */
chunk *hl_checked_chunk(source *s, const void *p);
/* The usable size of block p. */
size_t hl_block_size(source *s, const void *p);
void hl_chunk_relist(heap *h, chunk *k, uint32_t was);

/* Returns block b to its chunk k (owned by h), keeping the lists right. */
static HL_INLINE void chunk_take_back(heap *h, chunk *k, unsigned char *b) {
  link_set(b, k->free);
  k->free = b;
  uint32_t was = k->used--;
  if ((k->used == 0 || was == k->capacity) && k != h->cls[k->cls].cur) hl_chunk_relist(h, k, was);
}

/* alloc_source.c */
hl_status hl_source_setup(source *s, const hl_allocator_config *cfg, int arena, const char *default_name);
int hl_reg_add(source *s, uintptr_t addr);
void hl_reg_remove(source *s, uintptr_t addr);
int hl_chunk_known(source *s, uintptr_t k);
chunk *hl_chunk_get(source *s);
void hl_chunk_put(source *s, chunk *k);
void *hl_meta_alloc(source *s, size_t size);

/* alloc_large.c */
void *hl_large_alloc(source *s, heap *h, size_t size, size_t align);
void hl_large_free(source *s, chunk *k);
size_t hl_large_cache_release(source *s);

/* alloc_remote.c */
void hl_remote_drain(heap *h, uint32_t ci);
void hl_remote_free(heap *h, chunk *k, unsigned char *b);
void hl_pending_flush_all(void);

/* alloc_map.c: the class map (class + 1 per chunk, 0: unknown). The top
 * level takes an address's bits 32 to 47 (every user address is below
 * 2^48), a leaf the chunk's index in those 4 GiB: its low 32 bits >> shift
 * (the chunk size's log2). Only on 64-bit targets with a system heap: a
 * 32-bit address needs another layout, and a no-heap build (embedded) would
 * pay the top level's 512 KiB of .bss for nothing (leaves come from the
 * system); there, lookups say unknown and frees read the header. */
#if UINTPTR_MAX > 0xFFFFFFFFu && !defined(HL_NO_HEAP)
#define HL_CMAP 1
#define HL_CMAP_TOP ((size_t)1 << 16)
typedef _Atomic uint8_t hl_cmap_leaf;
extern _Atomic(hl_cmap_leaf *) hl_cmap_top[HL_CMAP_TOP];
extern unsigned hl_cmap_shift;
void hl_cmap_setup(const source *s);
void hl_cmap_set(source *s, const chunk *k, uint32_t v);

/* The class of the process-wide allocator's block p, plus one; 0 when the
 * map does not know p's chunk (a large block, an arena, no map). */
static HL_INLINE uint32_t hl_cmap_get(const void *p) {
  uintptr_t top = (uintptr_t)p >> 32;
  if (top >= HL_CMAP_TOP) return 0;
  hl_cmap_leaf *leaf = atomic_load_explicit(&hl_cmap_top[top], memory_order_acquire);
  return leaf ? atomic_load_explicit(&leaf[(uint32_t)(uintptr_t)p >> hl_cmap_shift], memory_order_relaxed) : 0;
}
#else
#define HL_CMAP 0
static inline void hl_cmap_setup(const source *s) { (void)s; }
static inline void hl_cmap_set(source *s, const chunk *k, uint32_t v) {
  (void)s;
  (void)k;
  (void)v;
}
static inline uint32_t hl_cmap_get(const void *p) {
  (void)p;
  return 0;
}
#endif

/* alloc_stats.c */
hl_status hl_stats_collect(source *s, size_t index, hl_pool_stats *out);

#endif
