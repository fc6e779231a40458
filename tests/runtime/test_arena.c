/* Monotonic arena: static mode without growth, growth from an upstream that
 * counts its blocks, alignment, reset keeping the largest block, and every
 * block given back by destroy. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "heaplint/arena.h"

static int aligned(const void *p, size_t a) { return ((uintptr_t)p & (a - 1)) == 0; }

/* An upstream that counts what it hands out and checks the sizes it is
 * given back. */
struct counting {
  int live;
  int taken;
  size_t bytes;
};

static void *counting_alloc(void *ctx, size_t size, size_t align) {
  struct counting *c = ctx;
  void *p = NULL;
  assert_int_equal(align, HL_ARENA_BLOCK_ALIGN);
  if (posix_memalign(&p, align, size) != 0) return NULL;
  c->live++;
  c->taken++;
  c->bytes += size;
  return p;
}

static void counting_free(void *ctx, void *p, size_t size) {
  struct counting *c = ctx;
  c->live--;
  c->bytes -= size;
  free(p);
}

static void static_mode_never_grows(void **state) {
  (void)state;
  static _Alignas(max_align_t) unsigned char mem[1024];
  hl_arena_config cfg = {.name = "frame"};
  hl_arena *a;
  assert_int_equal(hl_arena_create_static(&a, mem, sizeof mem, &cfg), HL_OK);
  assert_true((unsigned char *)a >= mem && (unsigned char *)a < mem + sizeof mem);
  unsigned char *prev = NULL;
  int n = 0;
  for (;;) {
    unsigned char *p = hl_arena_alloc(a, 24, 8);
    if (!p) break;
    assert_true(p >= mem && p + 24 <= mem + sizeof mem);
    assert_true(aligned(p, 8));
    if (prev) assert_true(p >= prev + 24);
    memset(p, 0xAB, 24);
    prev = p;
    n++;
  }
  assert_true(n >= 30);
  hl_arena_stats st;
  hl_arena_stats_get(a, &st);
  assert_string_equal(st.name, "frame");
  assert_int_equal(st.blocks, 0);
  assert_int_equal(st.failures, 1);
  assert_true(st.used >= (size_t)n * 24 && st.used <= st.capacity);

  hl_arena_reset(a);
  hl_arena_stats_get(a, &st);
  assert_int_equal(st.used, 0);
  assert_int_equal(st.resets, 1);
  assert_true(st.high_water >= (size_t)n * 24);
  for (int i = 0; i < n; i++) assert_non_null(hl_arena_alloc(a, 24, 8));
  hl_arena_destroy(a);

  assert_int_equal(hl_arena_create_static(&a, mem, 8, &cfg), HL_ENOSPC);
  assert_null(a);
}

static void alignment_and_sizes(void **state) {
  (void)state;
  static _Alignas(max_align_t) unsigned char mem[4096];
  hl_arena *a;
  assert_int_equal(hl_arena_create_static(&a, mem, sizeof mem, NULL), HL_OK);
  assert_non_null(hl_arena_alloc(a, 1, 1));
  void *p64 = hl_arena_alloc(a, 8, 64);
  assert_non_null(p64);
  assert_true(aligned(p64, 64));
  void *def = hl_arena_alloc(a, 3, 0);
  assert_true(aligned(def, HL_MAX_ALIGN));
  void *z1 = hl_arena_alloc(a, 0, 1);
  void *z2 = hl_arena_alloc(a, 0, 1);
  assert_non_null(z1);
  assert_ptr_not_equal(z1, z2);
  assert_null(hl_arena_alloc(a, 8, 3)); /* not a power of two */
  assert_null(hl_arena_alloc(a, SIZE_MAX, 8));
  hl_arena_destroy(a);
}

static void grows_from_the_upstream_and_gives_everything_back(void **state) {
  (void)state;
  struct counting c = {0};
  hl_fallback up = {counting_alloc, counting_free, &c};
  hl_arena_config cfg = {.name = "grow", .block_size = 256, .upstream = &up};
  hl_arena *a;
  assert_int_equal(hl_arena_create(&a, &cfg), HL_OK);
  assert_int_equal(c.live, 1); /* the control block and the first region */
  for (int i = 0; i < 1000; i++) {
    unsigned char *p = hl_arena_alloc(a, 40, 8);
    assert_non_null(p);
    memset(p, i, 40);
  }
  hl_arena_stats st;
  hl_arena_stats_get(a, &st);
  /* Geometric growth: a handful of blocks for 40,000 bytes from 256. */
  assert_true(st.blocks >= 3 && st.blocks <= 10);
  assert_int_equal(c.live, (int)st.blocks + 1);
  assert_true(st.capacity >= 40000);

  /* A request larger than the next block gets a block of its own size. */
  void *big = hl_arena_alloc(a, 1 << 20, 4096);
  assert_non_null(big);
  assert_true(aligned(big, 4096));

  /* Reset keeps one block (the largest) and gives back the others. */
  int taken = c.taken;
  hl_arena_reset(a);
  hl_arena_stats_get(a, &st);
  assert_int_equal(st.blocks, 1);
  assert_int_equal(c.live, 2);
  for (int i = 0; i < 1000; i++) assert_non_null(hl_arena_alloc(a, 40, 8));
  assert_int_equal(c.taken, taken); /* served by the first region and the kept block */

  hl_arena_destroy(a);
  assert_int_equal(c.live, 0);
  assert_int_equal(c.bytes, 0);
}

static void static_mode_may_grow_when_told(void **state) {
  (void)state;
  static _Alignas(max_align_t) unsigned char mem[512];
  struct counting c = {0};
  hl_fallback up = {counting_alloc, counting_free, &c};
  hl_arena_config cfg = {.upstream = &up, .block_size = 1024};
  hl_arena *a;
  assert_int_equal(hl_arena_create_static(&a, mem, sizeof mem, &cfg), HL_OK);
  assert_int_equal(c.live, 0);
  for (int i = 0; i < 100; i++) assert_non_null(hl_arena_alloc(a, 32, 8));
  assert_true(c.live > 0);
  hl_arena_destroy(a);
  assert_int_equal(c.live, 0);
}

static void upstream_failure_is_reported(void **state) {
  (void)state;
  hl_arena_config cfg = {.upstream = &hl_fallback_none};
  hl_arena *a = NULL;
  assert_int_equal(hl_arena_create(&a, &cfg), HL_ENOMEM);
  assert_null(a);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(static_mode_never_grows),
      cmocka_unit_test(alignment_and_sizes),
      cmocka_unit_test(grows_from_the_upstream_and_gives_everything_back),
      cmocka_unit_test(static_mode_may_grow_when_told),
      cmocka_unit_test(upstream_failure_is_reported),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
