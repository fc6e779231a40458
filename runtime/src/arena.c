#include "heaplint/arena.h"
#include "heaplint/alloc.h"

#include <stdint.h>
#include <string.h>

/* A block from the upstream: this header, then its region. */
struct block {
  struct block *next;
  size_t size; /* the whole block, header included: what the upstream gave */
};

struct hl_arena {
  char name[32];
  unsigned char *cur, *end; /* the region being filled */
  unsigned char *first;     /* the first region: in the caller's buffer or the first block */
  size_t first_size;
  struct block *blocks; /* blocks in use after the first region, newest first */
  struct block *spare;  /* the block kept by the last reset, not yet reused */
  struct block *own;    /* growing mode: the block holding this struct and the first region */
  size_t next_block;    /* size of the next block to take */
  hl_fallback upstream;
  hl_arena_stats st;
};

#define HEADER (((sizeof(struct block) + HL_ARENA_BLOCK_ALIGN - 1) / HL_ARENA_BLOCK_ALIGN) * HL_ARENA_BLOCK_ALIGN)

/* The default upstream: the allocator's system fallback (none in a
 * no-heap build, where an arena needs a caller's upstream). */
#ifndef HL_NO_HEAP
#define system_upstream hl_fallback_system
#else
#define system_upstream hl_fallback_none
#endif

static void set_name(hl_arena *a, const hl_arena_config *cfg) {
  const char *name = cfg && cfg->name ? cfg->name : "hl_arena";
  size_t n = strlen(name);
  if (n >= sizeof a->name) n = sizeof a->name - 1;
  memcpy(a->name, name, n);
  a->name[n] = '\0';
  a->st.name = a->name;
}

static size_t first_block_size(const hl_arena_config *cfg) { return cfg && cfg->block_size ? cfg->block_size : 4096; }

hl_status hl_arena_create(hl_arena **out, const hl_arena_config *cfg) {
  *out = NULL;
  hl_fallback up = cfg && cfg->upstream ? *cfg->upstream : system_upstream;
  size_t want = first_block_size(cfg);
  size_t ctl = (sizeof(hl_arena) + HL_ARENA_BLOCK_ALIGN - 1) / HL_ARENA_BLOCK_ALIGN * HL_ARENA_BLOCK_ALIGN;
  if (want > SIZE_MAX - HEADER - ctl) return HL_EINVAL;
  size_t size = HEADER + ctl + want;
  struct block *b = up.alloc(up.ctx, size, HL_ARENA_BLOCK_ALIGN);
  if (!b) return HL_ENOMEM;
  b->next = NULL;
  b->size = size;
  hl_arena *a = (hl_arena *)((unsigned char *)b + HEADER);
  memset(a, 0, sizeof *a);
  set_name(a, cfg);
  a->upstream = up;
  a->own = b;
  a->first = (unsigned char *)a + ctl;
  a->first_size = want;
  a->cur = a->first;
  a->end = a->first + want;
  a->next_block = 2 * want;
  a->st.capacity = want;
  *out = a;
  return HL_OK;
}

hl_status hl_arena_create_static(hl_arena **out, void *mem, size_t size, const hl_arena_config *cfg) {
  *out = NULL;
  uintptr_t start = (uintptr_t)mem;
  uintptr_t aligned = (start + _Alignof(hl_arena) - 1) & ~(uintptr_t)(_Alignof(hl_arena) - 1);
  if (!mem || size < aligned - start || size - (aligned - start) < sizeof(hl_arena)) return HL_ENOSPC;
  hl_arena *a = (hl_arena *)aligned;
  memset(a, 0, sizeof *a);
  set_name(a, cfg);
  a->upstream = cfg && cfg->upstream ? *cfg->upstream : hl_fallback_none;
  a->first = (unsigned char *)(a + 1);
  a->first_size = size - (aligned - start) - sizeof *a;
  a->cur = a->first;
  a->end = a->first + a->first_size;
  a->next_block = first_block_size(cfg);
  a->st.capacity = a->first_size;
  *out = a;
  return HL_OK;
}

static void give_back(hl_arena *a, struct block *b) {
  a->st.blocks--;
  a->st.capacity -= b->size - HEADER;
  a->upstream.free(a->upstream.ctx, b, b->size);
}

void hl_arena_destroy(hl_arena *a) {
  if (!a) return;
  while (a->blocks) {
    struct block *b = a->blocks;
    a->blocks = b->next;
    give_back(a, b);
  }
  if (a->spare) give_back(a, a->spare);
  if (a->own) {
    hl_fallback up = a->upstream;
    struct block *own = a->own;
    up.free(up.ctx, own, own->size);
  }
}

/* p rounded up to align, or NULL when that leaves fewer than size bytes. */
static unsigned char *fit(unsigned char *cur, unsigned char *end, size_t size, size_t align) {
  uintptr_t p = ((uintptr_t)cur + align - 1) & ~(uintptr_t)(align - 1);
  if (p < (uintptr_t)cur || p > (uintptr_t)end || (uintptr_t)end - p < size) return NULL;
  return (unsigned char *)p;
}

static void use_region(hl_arena *a, struct block *b) {
  b->next = a->blocks;
  a->blocks = b;
  a->cur = (unsigned char *)b + HEADER;
  a->end = (unsigned char *)b + b->size;
}

void *hl_arena_alloc(hl_arena *a, size_t size, size_t align) {
  if (align == 0) align = HL_MAX_ALIGN;
  if (align & (align - 1)) {
    a->st.failures++;
    return NULL;
  }
  if (size == 0) size = 1;
  unsigned char *p = fit(a->cur, a->end, size, align);
  if (!p && a->spare) {
    struct block *s = a->spare;
    unsigned char *q = fit((unsigned char *)s + HEADER, (unsigned char *)s + s->size, size, align);
    if (q) {
      a->spare = NULL;
      use_region(a, s);
      p = q;
    }
  }
  if (!p) {
    /* Room for the request at any alignment the block start may have. */
    size_t slack = align > HL_ARENA_BLOCK_ALIGN ? align - HL_ARENA_BLOCK_ALIGN : 0;
    if (size > SIZE_MAX / 4 || slack > SIZE_MAX / 4) {
      a->st.failures++;
      return NULL;
    }
    size_t need = HEADER + size + slack;
    size_t bsize = a->next_block > need ? a->next_block : need;
    struct block *b = a->upstream.alloc(a->upstream.ctx, bsize, HL_ARENA_BLOCK_ALIGN);
    if (!b) {
      a->st.failures++;
      return NULL;
    }
    b->size = bsize;
    a->st.blocks++;
    a->st.capacity += bsize - HEADER;
    if (a->next_block <= SIZE_MAX / 2) a->next_block = 2 * bsize;
    use_region(a, b);
    p = fit(a->cur, a->end, size, align);
  }
  a->st.used += (size_t)(p - a->cur) + size;
  if (a->st.used > a->st.high_water) a->st.high_water = a->st.used;
  a->cur = p + size;
  return p;
}

void hl_arena_reset(hl_arena *a) {
  /* Keep the largest block (a spare counts), give back the rest. */
  struct block *keep = a->spare;
  while (a->blocks) {
    struct block *b = a->blocks;
    a->blocks = b->next;
    if (!keep || b->size > keep->size) {
      if (keep) give_back(a, keep);
      keep = b;
    } else {
      give_back(a, b);
    }
  }
  a->spare = keep;
  a->cur = a->first;
  a->end = a->first + a->first_size;
  a->st.used = 0;
  a->st.resets++;
}

void hl_arena_stats_get(const hl_arena *a, hl_arena_stats *out) { *out = a->st; }
