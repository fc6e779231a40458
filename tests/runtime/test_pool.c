/* Fixed-block pool: static and chunk mode, statistics, trim, exhaustion.
 * Built twice: against heaplint::runtime and heaplint::runtime_debug. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "heaplint/pool.h"

static int exhausted_calls;
static size_t exhausted_request;
static char exhausted_name[64];

static void on_exhausted(void *ctx, const char *name, size_t request) {
  (void)ctx;
  exhausted_calls++;
  exhausted_request = request;
  strncpy(exhausted_name, name, sizeof exhausted_name - 1);
}

static int aligned(const void *p, size_t a) { return ((uintptr_t)p & (a - 1)) == 0; }

static void static_mode_hands_out_every_block_once(void **state) {
  (void)state;
  static _Alignas(max_align_t) unsigned char mem[HL_POOL_STATIC_BYTES(24, 16)];
  hl_pool_config cfg = {.name = "static24", .block_size = 24, .on_exhausted = on_exhausted};
  hl_pool *pool;
  assert_int_equal(hl_pool_create_static(&pool, mem, sizeof mem, &cfg), HL_OK);
  assert_true((unsigned char *)pool >= mem && (unsigned char *)pool < mem + sizeof mem);

  hl_pool_stats st;
  hl_pool_stats_get(pool, &st);
  assert_string_equal(st.name, "static24");
  assert_int_equal(st.block_size, 24);
  assert_true(st.capacity >= 16);
  assert_int_equal(st.chunks, 0);

  void *blocks[64];
  size_t n = 0;
  exhausted_calls = 0;
  while ((blocks[n] = hl_pool_alloc(pool)) != NULL) {
    assert_true(aligned(blocks[n], HL_MAX_ALIGN));
    assert_true((unsigned char *)blocks[n] >= mem && (unsigned char *)blocks[n] + 24 <= mem + sizeof mem);
    memset(blocks[n], (int)n, 24);
    for (size_t i = 0; i < n; i++) assert_ptr_not_equal(blocks[i], blocks[n]);
    n++;
    assert_true(n < 64);
  }
  assert_int_equal(n, st.capacity);
  assert_int_equal(exhausted_calls, 1);
  assert_int_equal(exhausted_request, 24);
  assert_string_equal(exhausted_name, "static24");
  for (size_t i = 0; i < n; i++) {
    unsigned char *b = blocks[i];
    for (size_t j = 0; j < 24; j++) assert_int_equal(b[j], (unsigned char)i);
  }

  hl_pool_stats_get(pool, &st);
  assert_int_equal(st.in_use, n);
  assert_int_equal(st.high_water, n);
  assert_int_equal(st.allocations, n);
  assert_int_equal(st.failures, 1);

  hl_pool_free(pool, blocks[3]);
  assert_ptr_equal(hl_pool_alloc(pool), blocks[3]);
  for (size_t i = 0; i < n; i++) hl_pool_free(pool, blocks[i]);
  hl_pool_free(pool, NULL);
  hl_pool_stats_get(pool, &st);
  assert_int_equal(st.in_use, 0);
  assert_int_equal(st.high_water, n);
  assert_int_equal(st.allocations, n + 1);
  assert_int_equal(st.frees, n + 1);
  hl_pool_destroy(pool);
}

static void static_size_is_exact(void **state) {
  (void)state;
  static _Alignas(64) unsigned char mem[8192];
  for (size_t count = 1; count <= 20; count++) {
    size_t need = hl_pool_static_size(40, 64, count);
    assert_true(need > 0 && need <= sizeof mem);
    assert_true(need <= HL_POOL_STATIC_BYTES_ALIGNED(40, 64, count));
    hl_pool_config cfg = {.name = "exact", .block_size = 40, .align = 64};
    hl_pool *pool;
    assert_int_equal(hl_pool_create_static(&pool, mem, need, &cfg), HL_OK);
    hl_pool_stats st;
    hl_pool_stats_get(pool, &st);
    assert_int_equal(st.capacity, count);
    hl_pool_destroy(pool);
    if (count > 1) {
      assert_int_equal(hl_pool_create_static(&pool, mem, need - 1, &cfg), HL_OK);
      hl_pool_stats_get(pool, &st);
      assert_int_equal(st.capacity, count - 1);
      hl_pool_destroy(pool);
    }
  }
}

static void static_mode_honours_alignment_at_any_address(void **state) {
  (void)state;
  static _Alignas(4096) unsigned char mem[16384];
  size_t aligns[] = {8, 16, 64, 256, 1024};
  for (size_t i = 0; i < sizeof aligns / sizeof *aligns; i++) {
    hl_pool_config cfg = {.name = "aligned", .block_size = 33, .align = aligns[i]};
    hl_pool *pool;
    assert_int_equal(hl_pool_create_static(&pool, mem + 3, sizeof mem - 3, &cfg), HL_OK);
    for (int k = 0; k < 5; k++) {
      void *b = hl_pool_alloc(pool);
      assert_non_null(b);
      assert_true(aligned(b, aligns[i]));
    }
    hl_pool_destroy(pool);
  }
}

static void invalid_configurations_are_refused(void **state) {
  (void)state;
  static _Alignas(max_align_t) unsigned char mem[1024];
  hl_pool *pool = NULL;
  hl_pool_config zero = {.block_size = 0};
  hl_pool_config odd = {.block_size = 16, .align = 24};
  hl_pool_config big = {.block_size = 2048};
  assert_int_equal(hl_pool_create_static(&pool, mem, sizeof mem, &zero), HL_EINVAL);
  assert_int_equal(hl_pool_create_static(&pool, mem, sizeof mem, &odd), HL_EINVAL);
  assert_int_equal(hl_pool_create_static(&pool, mem, sizeof mem, &big), HL_ENOSPC);
  assert_int_equal(hl_pool_create_static(&pool, mem, 16, &big), HL_ENOSPC);
  assert_int_equal(hl_pool_create_static(&pool, NULL, 1024, &big), HL_EINVAL);
  assert_int_equal(hl_pool_create(&pool, &zero), HL_EINVAL);
  assert_int_equal(hl_pool_create(&pool, &odd), HL_EINVAL);
  assert_null(pool);
  assert_string_equal(hl_strerror(HL_ENOSPC), "memory area too small");
  hl_pool_destroy(NULL);
}

static void tiny_blocks_hold_a_pointer(void **state) {
  (void)state;
  hl_pool_config cfg = {.name = "tiny", .block_size = 1, .align = 1};
  hl_pool *pool;
  assert_int_equal(hl_pool_create(&pool, &cfg), HL_OK);
  assert_int_equal(hl_pool_block_size(pool), sizeof(void *));
  char *a = hl_pool_alloc(pool), *b = hl_pool_alloc(pool);
  assert_true(b - a >= (ptrdiff_t)sizeof(void *) || a - b >= (ptrdiff_t)sizeof(void *));
  hl_pool_free(pool, a);
  hl_pool_free(pool, b);
  hl_pool_destroy(pool);
}

static void chunk_mode_grows_and_trims(void **state) {
  (void)state;
  hl_pool_config cfg = {.name = "grow", .block_size = 48, .chunk_blocks = 4};
  hl_pool *pool;
  assert_int_equal(hl_pool_create(&pool, &cfg), HL_OK);
  hl_pool_stats st;
  hl_pool_stats_get(pool, &st);
  assert_int_equal(st.chunks, 0);
  size_t per_chunk = 0;

  void *b[40];
  for (int i = 0; i < 40; i++) {
    b[i] = hl_pool_alloc(pool);
    assert_non_null(b[i]);
    assert_true(aligned(b[i], HL_MAX_ALIGN));
    memset(b[i], i, 48);
    if (i == 0) {
      hl_pool_stats_get(pool, &st);
      per_chunk = st.capacity;
      assert_true(per_chunk >= 4);
    }
  }
  hl_pool_stats_get(pool, &st);
  assert_int_equal(st.chunks, (40 + per_chunk - 1) / per_chunk);
  assert_int_equal(st.capacity, st.chunks * per_chunk);
  assert_int_equal(hl_pool_trim(pool), 0);

  /* Free the first chunk's worth of blocks plus a few: trim may release only
   * chunks that are entirely free, and the rest must stay intact. */
  for (int i = 0; i < 40; i++)
    if (i % 2 == 0) hl_pool_free(pool, b[i]);
  assert_int_equal(hl_pool_trim(pool), 0);
  for (int i = 0; i < 40; i++)
    if (i % 2 == 1) hl_pool_free(pool, b[i]);
  size_t chunks = st.chunks;
  assert_int_equal(hl_pool_trim(pool), chunks);
  hl_pool_stats_get(pool, &st);
  assert_int_equal(st.chunks, 0);
  assert_int_equal(st.capacity, 0);
  assert_int_equal(st.in_use, 0);

  /* Still usable after trimming everything. */
  for (int i = 0; i < 10; i++) assert_non_null(b[i] = hl_pool_alloc(pool));
  for (int i = 0; i < 10; i++) hl_pool_free(pool, b[i]);
  hl_pool_destroy(pool);
}

static void trim_keeps_chunks_in_use(void **state) {
  (void)state;
  hl_pool_config cfg = {.name = "partial", .block_size = 64, .chunk_blocks = 8};
  hl_pool *pool;
  assert_int_equal(hl_pool_create(&pool, &cfg), HL_OK);
  hl_pool_stats st;
  void *first = hl_pool_alloc(pool);
  hl_pool_stats_get(pool, &st);
  size_t per = st.capacity;
  void *b[64];
  size_t n = 3 * per - 1; /* three chunks; the last one has a block left */
  b[0] = first;
  for (size_t i = 1; i < n; i++) b[i] = hl_pool_alloc(pool);
  for (size_t i = 0; i < n; i++) memset(b[i], (int)i, 64);
  /* Free everything of the middle chunk and of the newest one. */
  for (size_t i = per; i < n; i++) hl_pool_free(pool, b[i]);
  assert_int_equal(hl_pool_trim(pool), 2);
  for (size_t i = 0; i < per; i++) {
    unsigned char *p = b[i];
    assert_int_equal(p[0], (unsigned char)i);
    assert_int_equal(p[63], (unsigned char)i);
    assert_true(hl_pool_owns(pool, p));
  }
  hl_pool_stats_get(pool, &st);
  assert_int_equal(st.chunks, 1);
  assert_int_equal(st.in_use, per);
  for (size_t i = 0; i < 2 * per; i++) assert_non_null(b[per + i] = hl_pool_alloc(pool));
  for (size_t i = 0; i < 3 * per; i++) hl_pool_free(pool, b[i]);
  hl_pool_destroy(pool);
}

static void chunk_mode_respects_max_chunks(void **state) {
  (void)state;
  hl_pool_config cfg = {
      .name = "capped", .block_size = 16, .chunk_blocks = 4, .max_chunks = 2, .on_exhausted = on_exhausted};
  hl_pool *pool;
  assert_int_equal(hl_pool_create(&pool, &cfg), HL_OK);
  void *b[256];
  size_t n = 0;
  exhausted_calls = 0;
  while ((b[n] = hl_pool_alloc(pool)) != NULL) n++;
  hl_pool_stats st;
  hl_pool_stats_get(pool, &st);
  assert_int_equal(st.chunks, 2);
  assert_int_equal(n, st.capacity);
  assert_int_equal(exhausted_calls, 1);
  assert_string_equal(exhausted_name, "capped");
  for (size_t i = 0; i < n; i++) hl_pool_free(pool, b[i]);
  hl_pool_destroy(pool);
}

static void owns_knows_its_blocks(void **state) {
  (void)state;
  static _Alignas(max_align_t) unsigned char mem[HL_POOL_STATIC_BYTES(32, 8)];
  hl_pool_config cfg = {.name = "owner", .block_size = 32};
  hl_pool *stat, *dyn;
  assert_int_equal(hl_pool_create_static(&stat, mem, sizeof mem, &cfg), HL_OK);
  assert_int_equal(hl_pool_create(&dyn, &cfg), HL_OK);
  char *a = hl_pool_alloc(stat), *b = hl_pool_alloc(dyn);
  int local;
  assert_true(hl_pool_owns(stat, a));
  assert_false(hl_pool_owns(stat, a + 1));
  assert_false(hl_pool_owns(stat, b));
  assert_false(hl_pool_owns(stat, &local));
  assert_true(hl_pool_owns(dyn, b));
  assert_false(hl_pool_owns(dyn, b + 8));
  assert_false(hl_pool_owns(dyn, a));
  hl_pool_free(stat, a);
  hl_pool_free(dyn, b);
  hl_pool_destroy(dyn);
  hl_pool_destroy(stat);
}

static void locked_pool_works_single_threaded(void **state) {
  (void)state;
  static _Alignas(max_align_t) unsigned char mem[HL_POOL_STATIC_BYTES(128, 4)];
  hl_pool_config cfg = {.name = "locked", .block_size = 128, .flags = HL_POOL_LOCKED};
  hl_pool *pool;
  assert_int_equal(hl_pool_create_static(&pool, mem, sizeof mem, &cfg), HL_OK);
  void *a = hl_pool_alloc(pool), *b = hl_pool_alloc(pool);
  assert_non_null(a);
  assert_non_null(b);
  hl_pool_free(pool, a);
  hl_pool_free(pool, b);
  hl_pool_stats st;
  hl_pool_stats_get(pool, &st);
  assert_int_equal(st.in_use, 0);
  hl_pool_destroy(pool);
  assert_int_equal(hl_pool_create(&pool, &cfg), HL_OK);
  assert_non_null(a = hl_pool_alloc(pool));
  hl_pool_free(pool, a);
  hl_pool_destroy(pool);
}

/* ---- HL_POOL_STACK ------------------------------------------------------ */

#if defined(HL_RUNTIME_DEBUG) && HL_RUNTIME_DEBUG
#define CHECKED_BUILD 1
#else
#define CHECKED_BUILD 0
#endif

static hl_pool *stack_pool(size_t block_size) {
  hl_pool_config cfg = {.name = "stacked", .block_size = block_size, .chunk_blocks = 8, .flags = HL_POOL_STACK};
  hl_pool *pool;
  assert_int_equal(hl_pool_create(&pool, &cfg), HL_OK);
  return pool;
}

/* The newest freed block comes back first, also once more than the stack's
 * 128 blocks were freed (a full stack moves its oldest block to the list at
 * each free) and after its ring has wrapped. */
static void stack_reuses_newest_first(void **state) {
  (void)state;
  enum { N = 300 };
  static void *b[N];
  for (int locked = 0; locked < 2; locked++) {
    hl_pool_config cfg = {.name = "lifo", .block_size = 32, .flags = HL_POOL_STACK | (locked ? HL_POOL_LOCKED : 0)};
    hl_pool *pool;
    assert_int_equal(hl_pool_create(&pool, &cfg), HL_OK);
    for (int i = 0; i < N; i++) assert_non_null(b[i] = hl_pool_alloc(pool));
    hl_pool_free(pool, b[7]);
    assert_ptr_equal(hl_pool_alloc(pool), b[7]);
    for (int i = 0; i < N; i++) hl_pool_free(pool, b[i]);
    for (int i = N - 1; i >= 0; i--) assert_ptr_equal(hl_pool_alloc(pool), b[i]);
    /* With 200 blocks freed first, the 201st still comes back first. */
    for (int i = 0; i < 200; i++) hl_pool_free(pool, b[i]);
    hl_pool_free(pool, b[250]);
    assert_ptr_equal(hl_pool_alloc(pool), b[250]);
    assert_ptr_equal(hl_pool_alloc(pool), b[199]);
    for (int i = 200; i < N; i++)
      if (i != 250) hl_pool_free(pool, b[i]);
    hl_pool_destroy(pool);
  }
}

/* Release build: a free pushes the block's address and leaves the block as
 * it was; an allocation hands the same bytes back. The checked build ignores
 * the flag: the freed block is filled, as in every checked pool. */
static void stack_leaves_freed_blocks_unwritten(void **state) {
  (void)state;
  hl_pool *pool = stack_pool(64);
  unsigned char *b = hl_pool_alloc(pool);
  memset(b, 0xAB, 64);
  hl_pool_free(pool, b);
  for (size_t i = CHECKED_BUILD ? sizeof(void *) : 0; i < 64; i++) assert_int_equal(b[i], CHECKED_BUILD ? 0xDD : 0xAB);
  assert_ptr_equal(hl_pool_alloc(pool), b);
  hl_pool_free(pool, b);
  hl_pool_destroy(pool);
}

static void stack_blocks_count_as_free(void **state) {
  (void)state;
  hl_pool *pool = stack_pool(48);
  void *b[200];
  for (int i = 0; i < 200; i++) assert_non_null(b[i] = hl_pool_alloc(pool));
  hl_pool_stats st;
  for (int i = 0; i < 150; i++) {
    hl_pool_free(pool, b[i]);
    hl_pool_stats_get(pool, &st);
    assert_int_equal(st.in_use, 200 - i - 1);
    assert_int_equal(st.frees, i + 1);
    assert_true(hl_pool_owns(pool, b[i]));
  }
  for (int i = 0; i < 100; i++) assert_non_null(hl_pool_alloc(pool));
  hl_pool_stats_get(pool, &st);
  assert_int_equal(st.in_use, 150);
  assert_int_equal(st.high_water, 200);
  assert_int_equal(st.allocations, 300);
  assert_int_equal(st.frees, 150);
  hl_pool_destroy(pool);
}

/* Release build: a free that finds the stack full writes one block, the
 * oldest on the stack (its link, onto the list), and no other: every free
 * does the same bounded work, where moving half the stack at once made one
 * free in 64 write 64 blocks (constant time on average only). */
static void full_stack_moves_only_its_oldest(void **state) {
  (void)state;
  if (CHECKED_BUILD) skip(); /* no stack: every freed block is filled */
  enum { N = HL_POOL_STACK_SLOTS + 40, W = sizeof(void *) };
  hl_pool *pool = stack_pool(32);
  unsigned char *b[N];
  for (int i = 0; i < N; i++) {
    assert_non_null(b[i] = hl_pool_alloc(pool));
    memset(b[i], 0xAB, 32);
  }
  for (int i = 0; i < N; i++) {
    hl_pool_free(pool, b[i]);
    /* Blocks 0 .. i - 128 were moved (their first word is a link); the
     * stack's blocks were not touched. */
    for (int j = 0; j <= i; j++) {
      int moved = j <= i - HL_POOL_STACK_SLOTS;
      unsigned char first[W];
      memset(first, 0xAB, W);
      assert_int_equal(memcmp(b[j], first, W) != 0, moved);
      assert_int_equal(b[j][W], 0xAB);
    }
  }
  /* Newest first: the stack's 128, then the moved blocks from the list. */
  for (int i = N - 1; i >= 0; i--) assert_ptr_equal(hl_pool_alloc(pool), b[i]);
  for (int i = 0; i < N; i++) hl_pool_free(pool, b[i]);
  hl_pool_destroy(pool);
}

/* Blocks on the stack are free blocks to hl_pool_trim: chunks holding only
 * such blocks are released, and the pool still works after. */
static void trim_releases_chunks_on_the_stack(void **state) {
  (void)state;
  hl_pool *pool = stack_pool(64);
  void *b[40];
  for (int i = 0; i < 40; i++) assert_non_null(b[i] = hl_pool_alloc(pool));
  hl_pool_stats st;
  hl_pool_stats_get(pool, &st);
  size_t chunks = st.chunks;
  assert_true(chunks >= 2);
  for (int i = 0; i < 40; i++) hl_pool_free(pool, b[i]); /* all on the stack */
  assert_int_equal(hl_pool_trim(pool), chunks);
  hl_pool_stats_get(pool, &st);
  assert_int_equal(st.chunks, 0);
  assert_int_equal(st.capacity, 0);
  for (int i = 0; i < 40; i++) {
    assert_non_null(b[i] = hl_pool_alloc(pool));
    memset(b[i], i, 64);
  }
  for (int i = 0; i < 40; i++) assert_int_equal(((unsigned char *)b[i])[63], i);
  for (int i = 0; i < 40; i++) hl_pool_free(pool, b[i]);
  hl_pool_destroy(pool);
}

/* The same once the stack's ring has wrapped (more frees than slots, some
 * blocks on the list, the rest on the stack from the middle of the ring):
 * every chunk is found free. */
static void trim_after_the_ring_wrapped(void **state) {
  (void)state;
  enum { N = HL_POOL_STACK_SLOTS + 72 };
  hl_pool *pool = stack_pool(64);
  void *b[N];
  for (int i = 0; i < N; i++) assert_non_null(b[i] = hl_pool_alloc(pool));
  hl_pool_stats st;
  hl_pool_stats_get(pool, &st);
  size_t chunks = st.chunks;
  for (int i = 0; i < N; i++) hl_pool_free(pool, b[i]);
  assert_int_equal(hl_pool_trim(pool), chunks);
  hl_pool_stats_get(pool, &st);
  assert_int_equal(st.chunks, 0);
  assert_int_equal(st.in_use, 0);
  for (int i = 0; i < N; i++) assert_non_null(b[i] = hl_pool_alloc(pool));
  for (int i = 0; i < N; i++) hl_pool_free(pool, b[i]);
  hl_pool_destroy(pool);
}

/* HL_POOL_STATIC_BYTES_STACK(size, count) holds count blocks with the flag;
 * without it the same memory holds the stack's bytes in blocks too. In the
 * checked build HL_POOL_STACK_BYTES is 0 and the flag takes no memory. */
static void static_stack_sizing_holds_count(void **state) {
  (void)state;
  static _Alignas(max_align_t) unsigned char mem[HL_POOL_STATIC_BYTES_STACK(256, 40)];
  static _Alignas(64) unsigned char exact[16384];
  size_t counts[] = {1, 5, 40};
  for (size_t i = 0; i < 3; i++) {
    size_t count = counts[i], bytes = HL_POOL_STATIC_BYTES_STACK(256, count);
    hl_pool_config cfg = {.name = "sized", .block_size = 256, .flags = HL_POOL_STACK};
    hl_pool *pool;
    hl_pool_stats st;
    assert_int_equal(hl_pool_create_static(&pool, mem, bytes, &cfg), HL_OK);
    hl_pool_stats_get(pool, &st);
    assert_int_equal(st.capacity, count);
    void *b[40];
    for (size_t k = 0; k < count; k++) assert_non_null(b[k] = hl_pool_alloc(pool));
    assert_null(hl_pool_alloc(pool));
    for (size_t k = 0; k < count; k++) hl_pool_free(pool, b[k]);
    hl_pool_destroy(pool);
    cfg.flags = 0;
    assert_int_equal(hl_pool_create_static(&pool, mem, bytes, &cfg), HL_OK);
    hl_pool_stats_get(pool, &st);
    assert_int_equal(st.capacity, count + HL_POOL_STACK_BYTES / 256);
    hl_pool_destroy(pool);
    /* hl_pool_static_size plus HL_POOL_STACK_BYTES is exact (align <= 1 KiB). */
    size_t need = hl_pool_static_size(40, 64, count) + HL_POOL_STACK_BYTES;
    hl_pool_config small = {.name = "exact", .block_size = 40, .align = 64, .flags = HL_POOL_STACK};
    assert_int_equal(hl_pool_create_static(&pool, exact, need, &small), HL_OK);
    hl_pool_stats_get(pool, &st);
    assert_int_equal(st.capacity, count);
    hl_pool_destroy(pool);
    if (count > 1) {
      assert_int_equal(hl_pool_create_static(&pool, exact, need - 1, &small), HL_OK);
      hl_pool_stats_get(pool, &st);
      assert_int_equal(st.capacity, count - 1);
      hl_pool_destroy(pool);
    }
  }
}

/* The checked build ignores HL_POOL_STACK: the same memory holds the same
 * blocks with the flag as without, and its checks see every free. */
static void stack_flag_is_ignored_when_checked(void **state) {
  (void)state;
  static _Alignas(max_align_t) unsigned char mem[HL_POOL_STATIC_BYTES(64, 30)];
  hl_pool_config cfg = {.name = "flagged", .block_size = 64, .flags = HL_POOL_STACK};
  hl_pool *pool;
  hl_pool_stats with, without;
  assert_int_equal(hl_pool_create_static(&pool, mem, sizeof mem, &cfg), HL_OK);
  hl_pool_stats_get(pool, &with);
  hl_pool_destroy(pool);
  cfg.flags = 0;
  assert_int_equal(hl_pool_create_static(&pool, mem, sizeof mem, &cfg), HL_OK);
  hl_pool_stats_get(pool, &without);
  hl_pool_destroy(pool);
  if (CHECKED_BUILD)
    assert_int_equal(with.capacity, without.capacity);
  else
    assert_true(with.capacity < without.capacity); /* the stack is carved */
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(static_mode_hands_out_every_block_once),
      cmocka_unit_test(static_size_is_exact),
      cmocka_unit_test(static_mode_honours_alignment_at_any_address),
      cmocka_unit_test(invalid_configurations_are_refused),
      cmocka_unit_test(tiny_blocks_hold_a_pointer),
      cmocka_unit_test(chunk_mode_grows_and_trims),
      cmocka_unit_test(trim_keeps_chunks_in_use),
      cmocka_unit_test(chunk_mode_respects_max_chunks),
      cmocka_unit_test(owns_knows_its_blocks),
      cmocka_unit_test(locked_pool_works_single_threaded),
      cmocka_unit_test(stack_reuses_newest_first),
      cmocka_unit_test(stack_leaves_freed_blocks_unwritten),
      cmocka_unit_test(stack_blocks_count_as_free),
      cmocka_unit_test(full_stack_moves_only_its_oldest),
      cmocka_unit_test(trim_releases_chunks_on_the_stack),
      cmocka_unit_test(trim_after_the_ring_wrapped),
      cmocka_unit_test(static_stack_sizing_holds_count),
      cmocka_unit_test(stack_flag_is_ignored_when_checked),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
