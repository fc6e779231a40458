/* The no-heap build (HEAPLINT_RUNTIME_NO_HEAP / HL_NO_HEAP): static pools,
 * static arenas and an arena-backed hl_malloc work; everything that would
 * need the system allocator reports failure instead. check_no_heap.cmake
 * proves separately that the library does not even reference malloc. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "heaplint/alloc.h"
#include "heaplint/arena.h"
#include "heaplint/pool.h"

static void chunk_modes_report_no_memory(void **state) {
  (void)state;
  hl_pool_config pcfg = {.name = "p", .block_size = 16};
  hl_pool *pool = NULL;
  assert_int_equal(hl_pool_create(&pool, &pcfg), HL_ENOMEM);
  hl_allocator *a = NULL;
  assert_int_equal(hl_allocator_create(&a, NULL), HL_ENOMEM);
  hl_arena *arena = NULL;
  assert_int_equal(hl_arena_create(&arena, NULL), HL_ENOMEM);
  assert_null(pool);
  assert_null(a);
  assert_null(arena);
}

static void static_modes_work(void **state) {
  (void)state;
  static _Alignas(max_align_t) unsigned char pmem[HL_POOL_STATIC_BYTES(16, 32)];
  hl_pool_config pcfg = {.name = "p", .block_size = 16};
  hl_pool *pool;
  assert_int_equal(hl_pool_create_static(&pool, pmem, sizeof pmem, &pcfg), HL_OK);
  void *b = hl_pool_alloc(pool);
  assert_non_null(b);
  hl_pool_free(pool, b);
  hl_pool_destroy(pool);

  static _Alignas(4096) unsigned char amem[64 * 1024];
  hl_allocator_config cfg;
  hl_allocator_config_default(&cfg);
  cfg.chunk_size = 4096;
  hl_allocator *a;
  assert_int_equal(hl_allocator_create_static(&a, amem, sizeof amem, &cfg), HL_OK);
  void *p = hl_allocator_malloc(a, 200);
  assert_non_null(p);
  assert_null(hl_allocator_malloc(a, 2000)); /* above max_class, no fallback */
  hl_allocator_free(a, p);
  hl_allocator_destroy(a);

  static _Alignas(max_align_t) unsigned char rmem[1024];
  hl_arena *arena;
  assert_int_equal(hl_arena_create_static(&arena, rmem, sizeof rmem, NULL), HL_OK);
  assert_non_null(hl_arena_alloc(arena, 100, 8));
  assert_null(hl_arena_alloc(arena, 2000, 8));
  hl_arena_destroy(arena);
}

static void process_wide_allocator_uses_the_arena(void **state) {
  (void)state;
  static _Alignas(16384) unsigned char arena[256 * 1024];
  hl_allocator_config cfg;
  hl_allocator_config_default(&cfg);
  cfg.arena = arena;
  cfg.arena_size = sizeof arena;
  assert_int_equal(hl_configure(&cfg), HL_OK);
  unsigned char *p = hl_malloc(100);
  assert_true(p >= arena && p < arena + sizeof arena);
  p = hl_realloc(p, 900);
  assert_true(p >= arena && p < arena + sizeof arena);
  assert_null(hl_malloc(100000));
  hl_free(p);
  hl_pool_stats tot;
  hl_totals(&tot);
  assert_int_equal(tot.in_use, 0);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(chunk_modes_report_no_memory),
      cmocka_unit_test(static_modes_work),
      cmocka_unit_test(process_wide_allocator_uses_the_arena),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
