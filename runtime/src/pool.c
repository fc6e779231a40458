#include "heaplint/pool.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <string.h>

#include "block.h"
#include "debug.h"
#include "sys.h"

/* Header of a chunk-mode chunk; the live bitmap (checked build) and then the
 * blocks follow. Chunks are aligned to their power-of-two size, so the chunk
 * of a block is its address with the low bits cleared. */
typedef struct chunk {
  struct chunk *next;
  size_t nfree; /* hl_pool_trim's count of free blocks */
  _Atomic unsigned char live[];
} chunk;

struct hl_pool {
  unsigned char *free; /* free blocks, linked through their first word */
  unsigned char *bump; /* blocks never handed out yet, carved lazily */
  unsigned char *bump_end;
  size_t usable, stride, align;
  uint16_t flags;
  unsigned char is_static;
  /* HL_POOL_STACK: the addresses of the last freed blocks, free blocks not
   * on the list, in a ring that follows the control block: stack_n of them
   * from slot stack_lo (the oldest) on, the newest on top. In the padding,
   * so that the control block is as large as without the stack. */
  uint16_t stack_n, stack_lo;
  /* static mode: one region of region_blocks blocks */
  unsigned char *region;
  size_t region_blocks;
  _Atomic unsigned char *region_live;
  /* chunk mode */
  chunk *chunks; /* newest first; the bump area is in the newest */
  size_t nchunks, max_chunks, chunk_bytes, chunk_blocks, block_offset;
  size_t in_use, high_water, capacity;
  uint64_t allocations, frees, failures;
  hl_exhausted_fn on_exhausted;
  void *on_exhausted_ctx;
  pthread_mutex_t lock;
  char name[32];
};

_Static_assert(sizeof(struct hl_pool) + HL_MAX_ALIGN - 1 <= HL_POOL_CONTROL_BYTES,
               "HL_POOL_CONTROL_BYTES must bound the control block");
_Static_assert(HL_GUARD_BYTES == HL_POOL_GUARD_BYTES, "pool.h and debug.h must agree on the guard size");
_Static_assert(HL_POOL_STACK_SLOTS <= UINT16_MAX, "stack_n must count a full stack");
_Static_assert((HL_POOL_STACK_SLOTS & (HL_POOL_STACK_SLOTS - 1)) == 0, "the stack's ring wraps with a mask");
#define SLOT(i) ((i) & (HL_POOL_STACK_SLOTS - 1))

#if defined(__GNUC__)
#define NOINLINE __attribute__((noinline))
#else
#define NOINLINE
#endif

#define STACK_BYTES (HL_POOL_STACK_SLOTS * sizeof(void *))

/* The stack of HL_POOL_STACK, right after the control block in both modes. */
static void **stack_of(hl_pool *p) { return (void **)(p + 1); }

static size_t bitmap_bytes(size_t blocks) { return HL_CHECKED ? (blocks + 7) / 8 : 0; }

static void lock(hl_pool *p) {
  if (p->flags & HL_POOL_LOCKED) pthread_mutex_lock(&p->lock);
}

static void unlock(hl_pool *p) {
  if (p->flags & HL_POOL_LOCKED) pthread_mutex_unlock(&p->lock);
}

/* Validates cfg and fills the geometry and callbacks shared by both modes. */
static hl_status setup(hl_pool *p, const hl_pool_config *cfg) {
  size_t align = cfg->align ? cfg->align : HL_MAX_ALIGN;
  if (cfg->block_size == 0 || cfg->block_size > SIZE_MAX / 4 || !is_pow2(align) || align > SIZE_MAX / 4)
    return HL_EINVAL;
  memset(p, 0, sizeof *p);
  p->usable = cfg->block_size < sizeof(void *) ? sizeof(void *) : cfg->block_size;
  p->stride = align_up(p->usable + HL_GUARD_BYTES, align);
  p->align = align;
  /* The checked build keeps no stack: its checks (double free, write after
   * free) watch every free and allocation on the list. */
  p->flags = (uint16_t)((HL_CHECKED ? cfg->flags & ~HL_POOL_STACK : cfg->flags) & (HL_POOL_LOCKED | HL_POOL_STACK));
  p->max_chunks = cfg->max_chunks;
  p->on_exhausted = cfg->on_exhausted;
  p->on_exhausted_ctx = cfg->on_exhausted_ctx;
  strncpy(p->name, cfg->name ? cfg->name : "hl_pool", sizeof p->name - 1);
  return HL_OK;
}

/* Last step of creation, once the pool is at its final address. */
static hl_status init_lock(hl_pool *p) {
  if ((p->flags & HL_POOL_LOCKED) && pthread_mutex_init(&p->lock, NULL) != 0) return HL_ENOMEM;
  return HL_OK;
}

/* Offset of the first block in a chunk holding n blocks. */
static size_t chunk_offset(const hl_pool *p, size_t n) { return align_up(sizeof(chunk) + bitmap_bytes(n), p->align); }

/* How many blocks fit in a chunk of the given size. */
static size_t chunk_fit(const hl_pool *p, size_t bytes) {
  size_t head = chunk_offset(p, 0);
  if (bytes <= head) return 0;
  size_t n = (bytes - head) / p->stride;
  while (n && chunk_offset(p, n) + n * p->stride > bytes) n--;
  return n;
}

#define CHUNK_DEFAULT_BYTES ((size_t)64 * 1024)
#define CHUNK_MAX_BYTES ((size_t)1 << 30)

static hl_status chunk_geometry(hl_pool *p, size_t want_blocks) {
  size_t bytes = CHUNK_DEFAULT_BYTES;
  if (want_blocks) {
    if (want_blocks > CHUNK_MAX_BYTES / p->stride) return HL_EINVAL;
    size_t need = chunk_offset(p, want_blocks) + want_blocks * p->stride;
    for (bytes = 64; bytes < need; bytes *= 2) {
    }
  } else {
    while (bytes <= CHUNK_MAX_BYTES && chunk_fit(p, bytes) < 8) bytes *= 2;
  }
  if (bytes > CHUNK_MAX_BYTES || bytes < p->align) return HL_EINVAL;
  p->chunk_bytes = bytes;
  p->chunk_blocks = chunk_fit(p, bytes);
  p->block_offset = chunk_offset(p, p->chunk_blocks);
  return HL_OK;
}

hl_status hl_pool_create(hl_pool **out, const hl_pool_config *cfg) {
  hl_pool tmp;
  hl_status st = setup(&tmp, cfg);
  if (st == HL_OK) st = chunk_geometry(&tmp, cfg->chunk_blocks);
  if (st != HL_OK) return st;
  size_t stack_bytes = (tmp.flags & HL_POOL_STACK) ? STACK_BYTES : 0;
  hl_pool *p = hl_sys_alloc(sizeof *p + stack_bytes, _Alignof(hl_pool));
  if (!p) return HL_ENOMEM;
  *p = tmp;
  if ((st = init_lock(p)) != HL_OK) {
    hl_sys_free(p);
    return st;
  }
  *out = p;
  return HL_OK;
}

hl_status hl_pool_create_static(hl_pool **out, void *mem, size_t mem_size, const hl_pool_config *cfg) {
  if (!mem) return HL_EINVAL;
  uintptr_t base = (uintptr_t)mem, end = base + mem_size;
  uintptr_t ctl = (base + HL_MAX_ALIGN - 1) & ~(uintptr_t)(HL_MAX_ALIGN - 1);
  if (end < base || ctl < base || ctl > end || end - ctl < sizeof(hl_pool)) return HL_ENOSPC;
  hl_pool *p = (hl_pool *)ctl;
  hl_status st = setup(p, cfg);
  if (st != HL_OK) return st;
  uintptr_t after = ctl + sizeof *p, first = 0;
  if (p->flags & HL_POOL_STACK) {
    if (end - after < STACK_BYTES) return HL_ENOSPC;
    after += STACK_BYTES; /* stack_of(p) */
  }
  size_t n = (end - after) / p->stride;
  for (; n; n--) {
    first = (after + bitmap_bytes(n) + p->align - 1) & ~(uintptr_t)(p->align - 1);
    if (first >= after && first <= end && (end - first) / p->stride >= n) break;
  }
  if (n == 0) return HL_ENOSPC;
  p->is_static = 1;
  p->region_live = (_Atomic unsigned char *)after;
  p->region = (unsigned char *)first;
  p->region_blocks = n;
  p->capacity = n;
  p->bump = p->region;
  p->bump_end = p->region + n * p->stride;
  if (HL_CHECKED) memset((void *)p->region_live, 0, bitmap_bytes(n));
  if ((st = init_lock(p)) != HL_OK) return st;
  *out = p;
  return HL_OK;
}

size_t hl_pool_static_size(size_t block_size, size_t align, size_t count) {
  if (align == 0) align = HL_MAX_ALIGN;
  if (!is_pow2(align) || block_size == 0 || block_size > SIZE_MAX / 4 || count == 0) return 0;
  size_t usable = block_size < sizeof(void *) ? sizeof(void *) : block_size;
  size_t stride = align_up(usable + HL_GUARD_BYTES, align);
  size_t head = align_up(sizeof(hl_pool) + bitmap_bytes(count), align);
  if (stride == 0 || head == 0 || count > (SIZE_MAX - head) / stride) return 0;
  return head + count * stride;
}

void hl_pool_destroy(hl_pool *p) {
  if (!p) return;
  for (chunk *c = p->chunks, *next; c; c = next) {
    next = c->next;
    hl_sys_free(c);
  }
  if (p->flags & HL_POOL_LOCKED) pthread_mutex_destroy(&p->lock);
  if (!p->is_static) hl_sys_free(p);
}

/* Finds the block b in the pool: its live bitmap and index. Returns 0 when
 * no region or chunk of the pool holds b, -1 when b points inside a block. */
static int locate(const hl_pool *p, const void *b, _Atomic unsigned char **map, size_t *index) {
  uintptr_t a = (uintptr_t)b, first = 0;
  size_t blocks = 0;
  if (p->is_static) {
    first = (uintptr_t)p->region;
    blocks = p->region_blocks;
    *map = p->region_live;
  } else {
    for (chunk *c = p->chunks; c; c = c->next) {
      uintptr_t start = (uintptr_t)c + p->block_offset;
      if (a >= start && a - start < p->chunk_blocks * p->stride) {
        first = start;
        blocks = p->chunk_blocks;
        *map = c->live;
        break;
      }
    }
  }
  if (!blocks || a < first || a - first >= blocks * p->stride) return 0;
  if ((a - first) % p->stride) return -1;
  *index = (a - first) / p->stride;
  return 1;
}

static int grow(hl_pool *p) {
  if (p->is_static || (p->max_chunks && p->nchunks == p->max_chunks)) return 0;
  chunk *c = hl_sys_alloc(p->chunk_bytes, p->chunk_bytes);
  if (!c) return 0;
  c->next = p->chunks;
  p->chunks = c;
  p->nchunks++;
  p->capacity += p->chunk_blocks;
  if (HL_CHECKED) memset((void *)c->live, 0, bitmap_bytes(p->chunk_blocks));
  p->bump = (unsigned char *)c + p->block_offset;
  p->bump_end = p->bump + p->chunk_blocks * p->stride;
  return 1;
}

static void check_alloc(hl_pool *p, unsigned char *b, int fresh) {
  _Atomic unsigned char *map;
  size_t index;
  if (!fresh) {
    void *next = link_get(b);
    if (next && locate(p, next, &map, &index) != 1) hl_dbg_fatal(p->name, p->usable, b, "write after free to block");
  }
  locate(p, b, &map, &index);
  if (hl_dbg_mark_live(map, index)) hl_dbg_fatal(p->name, p->usable, b, "free list corrupted: handed out twice: block");
  hl_dbg_on_alloc(p->name, b, p->usable, p->stride, p->usable, fresh);
}

void *hl_pool_alloc(hl_pool *p) {
  lock(p);
  unsigned char *b = NULL;
  int fresh = 0;
  if (p->stack_n) {
    /* The block's address, not its link: the block is not read. */
    b = stack_of(p)[SLOT(p->stack_lo + --p->stack_n)];
  } else if ((b = p->free) != NULL) {
    p->free = link_get(b);
    /* The next allocation reads the next block's link: a cache miss when
     * that block was freed long ago (the p99 of bench/runtime/latency.cpp). */
#if defined(__GNUC__)
    if (p->free) __builtin_prefetch(p->free, 1);
#endif
  } else if (p->bump != p->bump_end || grow(p)) {
    b = p->bump;
    p->bump += p->stride;
    fresh = 1;
  }
  if (b) {
    if (HL_CHECKED) check_alloc(p, b, fresh);
    p->allocations++;
    if (++p->in_use > p->high_water) p->high_water = p->in_use;
  } else {
    p->failures++;
  }
  unlock(p);
  if (!b && p->on_exhausted) p->on_exhausted(p->on_exhausted_ctx, p->name, p->usable);
  return b;
}

static void check_free(hl_pool *p, unsigned char *b) {
  _Atomic unsigned char *map;
  size_t index;
  int where = locate(p, b, &map, &index);
  if (where == 0) hl_dbg_fatal(p->name, p->usable, b, "free of a pointer the pool does not own:");
  if (where < 0) hl_dbg_fatal(p->name, p->usable, b, "free of a pointer into the middle of a block:");
  if (!hl_dbg_mark_free(map, index)) hl_dbg_fatal(p->name, p->usable, b, "double free of block");
  hl_dbg_on_free(p->name, b, p->usable, p->stride);
}

/* Moves every block of the stack onto the list, the oldest first (so that
 * the newest is at the head): the order of reuse stays that of the frees,
 * newest first, as without the stack. For hl_pool_trim. */
static void stack_to_list(hl_pool *p) {
  void **stack = stack_of(p);
  for (unsigned i = 0; i < p->stack_n; i++) {
    unsigned char *b = stack[SLOT(p->stack_lo + i)];
    link_set(b, p->free);
    p->free = b;
  }
  p->stack_n = 0;
  p->stack_lo = 0;
}

void hl_pool_free(hl_pool *p, void *block) {
  if (!block) return;
  lock(p);
  if (HL_CHECKED) check_free(p, block);
  if (p->flags & HL_POOL_STACK) {
    void **stack = stack_of(p);
    if (p->stack_n < HL_POOL_STACK_SLOTS) {
      stack[SLOT(p->stack_lo + p->stack_n++)] = block; /* the block is not written */
    } else {
      /* Full: the oldest block goes onto the list (one link written, the
       * same work at every such free) and this one takes its slot. */
      unsigned char *old = stack[p->stack_lo];
      stack[p->stack_lo] = block;
      p->stack_lo = (uint16_t)SLOT(p->stack_lo + 1u);
      link_set(old, p->free);
      p->free = old;
    }
  } else {
    link_set(block, p->free);
    p->free = block;
  }
  p->in_use--;
  p->frees++;
  unlock(p);
}

static chunk *chunk_of(const hl_pool *p, const void *b) {
  return (chunk *)((uintptr_t)b & ~(uintptr_t)(p->chunk_bytes - 1));
}

size_t hl_pool_trim(hl_pool *p) {
  if (p->is_static) return 0;
  lock(p);
  if (p->stack_n) stack_to_list(p); /* so that its chunks can be found free */
  for (chunk *c = p->chunks; c; c = c->next) c->nfree = 0;
  for (unsigned char *b = p->free; b; b = link_get(b)) chunk_of(p, b)->nfree++;
  if (p->chunks) p->chunks->nfree += (size_t)(p->bump_end - p->bump) / p->stride;

  /* Keep the free blocks of the chunks that stay, in their order. */
  unsigned char *keep = NULL, *last = NULL;
  for (unsigned char *b = p->free, *next; b; b = next) {
    next = link_get(b);
    if (chunk_of(p, b)->nfree == p->chunk_blocks) continue;
    if (last)
      link_set(last, b);
    else
      keep = b;
    last = b;
  }
  if (last) link_set(last, NULL);
  p->free = keep;
  if (p->chunks && p->chunks->nfree == p->chunk_blocks) p->bump = p->bump_end = NULL;

  size_t released = 0;
  for (chunk **link = &p->chunks; *link;) {
    chunk *c = *link;
    if (c->nfree == p->chunk_blocks) {
      *link = c->next;
      hl_sys_free(c);
      released++;
    } else {
      link = &c->next;
    }
  }
  p->nchunks -= released;
  p->capacity -= released * p->chunk_blocks;
  unlock(p);
  return released;
}

int hl_pool_owns(hl_pool *p, const void *block) {
  _Atomic unsigned char *map;
  size_t index;
  lock(p);
  int where = locate(p, block, &map, &index);
  unlock(p);
  return where == 1;
}

void hl_pool_stats_get(hl_pool *p, hl_pool_stats *out) {
  lock(p);
  out->name = p->name;
  out->block_size = p->usable;
  out->in_use = p->in_use;
  out->high_water = p->high_water;
  out->capacity = p->capacity;
  out->chunks = p->nchunks;
  out->allocations = p->allocations;
  out->frees = p->frees;
  out->failures = p->failures;
  unlock(p);
}

size_t hl_pool_block_size(const hl_pool *p) { return p->usable; }
