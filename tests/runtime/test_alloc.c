/* Size-class allocator: every class, alignment, realloc across classes,
 * calloc zeroing, the fallback choices, static arenas, statistics and the
 * process-wide hl_malloc. Built against heaplint::runtime and
 * heaplint::runtime_debug. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "heaplint/alloc.h"

static int aligned(const void *p, size_t a) { return ((uintptr_t)p & (a - 1)) == 0; }

static int exhausted_calls;
static char exhausted_name[64];

static void on_exhausted(void *ctx, const char *name, size_t request) {
  (void)ctx;
  (void)request;
  exhausted_calls++;
  strncpy(exhausted_name, name, sizeof exhausted_name - 1);
}

static hl_allocator *make(size_t chunk, size_t max_class) {
  hl_allocator_config cfg;
  hl_allocator_config_default(&cfg);
  cfg.name = "test";
  cfg.chunk_size = chunk;
  cfg.max_class = max_class;
  hl_allocator *a = NULL;
  assert_int_equal(hl_allocator_create(&a, &cfg), HL_OK);
  return a;
}

/* Index of the class whose allocation count is one more than in before. */
static size_t class_used(hl_allocator *a, const uint64_t *before) {
  size_t found = SIZE_MAX;
  for (size_t i = 0; i <= hl_allocator_class_count(a); i++) {
    hl_pool_stats st;
    assert_int_equal(hl_allocator_class_stats(a, i, &st), HL_OK);
    if (st.allocations == before[i] + 1) {
      assert_int_equal(found, SIZE_MAX);
      found = i;
    }
  }
  return found;
}

static void snapshot(hl_allocator *a, uint64_t *out) {
  for (size_t i = 0; i <= hl_allocator_class_count(a); i++) {
    hl_pool_stats st;
    hl_allocator_class_stats(a, i, &st);
    out[i] = st.allocations;
  }
}

static void classes_cover_every_size(void **state) {
  (void)state;
  hl_allocator *a = make(0, 0);
  size_t n = hl_allocator_class_count(a);
  assert_int_equal(n, 32); /* 8..64 by 8, then four per doubling up to 4096 */
  size_t prev = 0;
  for (size_t i = 0; i < n; i++) {
    hl_pool_stats st;
    assert_int_equal(hl_allocator_class_stats(a, i, &st), HL_OK);
    assert_true(st.block_size > prev);
    prev = st.block_size;
  }
  assert_int_equal(prev, 4096);
  assert_int_equal(hl_allocator_class_stats(a, n + 2, &(hl_pool_stats){0}), HL_EINVAL);

  static void *blocks[4097];
  uint64_t before[80];
  for (size_t size = 1; size <= 4097; size++) {
    snapshot(a, before);
    unsigned char *p = hl_allocator_malloc(a, size);
    assert_non_null(p);
    assert_true(aligned(p, size >= HL_MAX_ALIGN ? HL_MAX_ALIGN : 8));
    assert_true(hl_allocator_usable_size(a, p) >= size);
    memset(p, 0x5A, size);
    size_t ci = class_used(a, before);
    hl_pool_stats st;
    hl_allocator_class_stats(a, ci, &st);
    if (size <= 4096) {
      assert_true(ci < n);
      /* The smallest fitting class: spacing 8 (16 for malloc's alignment)
       * up to 64, then a quarter of the power of two below. */
      assert_true(st.block_size >= size);
      assert_true(st.block_size - size < (size <= 64 ? 16 : size / 4 + 1));
    } else {
      assert_int_equal(ci, n);
    }
    blocks[size - 1] = p;
  }
  for (size_t size = 1; size <= 4097; size++) {
    unsigned char *p = blocks[size - 1];
    assert_int_equal(p[0], 0x5A);
    assert_int_equal(p[size - 1], 0x5A);
    hl_allocator_free(a, p);
  }
  hl_pool_stats tot;
  hl_allocator_totals(a, &tot);
  assert_int_equal(tot.allocations, 4097);
  assert_int_equal(tot.frees, 4097);
  assert_int_equal(tot.in_use, 0);
  hl_allocator_destroy(a);
}

static void aligned_requests_are_aligned(void **state) {
  (void)state;
  hl_allocator *a = make(0, 0);
  size_t aligns[] = {1, 8, 16, 32, 64, 128, 4096};
  size_t sizes[] = {0, 1, 8, 24, 40, 64, 100, 1000, 4096, 9000};
  for (size_t i = 0; i < sizeof aligns / sizeof *aligns; i++) {
    for (size_t j = 0; j < sizeof sizes / sizeof *sizes; j++) {
      unsigned char *p = hl_allocator_aligned_alloc(a, aligns[i], sizes[j]);
      assert_non_null(p);
      assert_true(aligned(p, aligns[i]));
      memset(p, 1, sizes[j]);
      hl_allocator_free(a, p);
    }
  }
  assert_null(hl_allocator_aligned_alloc(a, 48, 10));
  /* An alignment of 8 lets a 24-byte request use the 24-byte class. */
  uint64_t before[80];
  snapshot(a, before);
  void *p = hl_allocator_aligned_alloc(a, 8, 24);
  hl_pool_stats st;
  hl_allocator_class_stats(a, class_used(a, before), &st);
  assert_int_equal(st.block_size, 24);
  hl_allocator_free(a, p);
  hl_allocator_destroy(a);
}

static void fill(unsigned char *p, size_t n, unsigned seed) {
  for (size_t i = 0; i < n; i++) p[i] = (unsigned char)(seed + i * 7);
}

static int same(const unsigned char *p, size_t n, unsigned seed) {
  for (size_t i = 0; i < n; i++)
    if (p[i] != (unsigned char)(seed + i * 7)) return 0;
  return 1;
}

static void realloc_moves_across_classes(void **state) {
  (void)state;
  hl_allocator *a = make(0, 1024);
  size_t steps[] = {10, 20, 50, 100, 300, 1000, 1024, 5000, 100000, 3000, 600, 30, 7};
  unsigned char *p = hl_allocator_realloc(a, NULL, 5);
  assert_non_null(p);
  fill(p, 5, 3);
  size_t have = 5;
  for (size_t i = 0; i < sizeof steps / sizeof *steps; i++) {
    p = hl_allocator_realloc(a, p, steps[i]);
    assert_non_null(p);
    assert_true(same(p, have < steps[i] ? have : steps[i], 3));
    fill(p, steps[i], 3);
    have = steps[i];
  }
  /* Within one class the block stays where it is. */
  unsigned char *q = hl_allocator_realloc(a, p, 3);
  assert_ptr_equal(q, p);
  q = hl_allocator_malloc(a, 33);
  assert_ptr_equal(hl_allocator_realloc(a, q, 40), q);
  assert_null(hl_allocator_realloc(a, q, 0));
  hl_allocator_free(a, p);
  hl_pool_stats tot;
  hl_allocator_totals(a, &tot);
  assert_int_equal(tot.in_use, 0);
  assert_int_equal(tot.allocations, tot.frees);
  hl_allocator_destroy(a);
}

static void calloc_zeroes_reused_blocks(void **state) {
  (void)state;
  hl_allocator *a = make(0, 0);
  void *dirty[64];
  for (int i = 0; i < 64; i++) {
    dirty[i] = hl_allocator_malloc(a, 100);
    memset(dirty[i], 0xAB, 100);
  }
  for (int i = 0; i < 64; i++) hl_allocator_free(a, dirty[i]);
  for (int i = 0; i < 64; i++) {
    unsigned char *p = hl_allocator_calloc(a, 10, 10);
    assert_non_null(p);
    for (int j = 0; j < 100; j++) assert_int_equal(p[j], 0);
    dirty[i] = p;
  }
  for (int i = 0; i < 64; i++) hl_allocator_free(a, dirty[i]);
  unsigned char *big = hl_allocator_calloc(a, 3, 5000);
  assert_non_null(big);
  for (int j = 0; j < 15000; j++) assert_int_equal(big[j], 0);
  hl_allocator_free(a, big);
  assert_null(hl_allocator_calloc(a, SIZE_MAX / 2, 3));
  assert_null(hl_allocator_calloc(a, 3, SIZE_MAX / 2));
  void *empty = hl_allocator_calloc(a, 0, 8);
  assert_non_null(empty);
  hl_allocator_free(a, empty);
  hl_allocator_destroy(a);
}

static int fb_allocs, fb_frees;
static size_t fb_last_align, fb_bytes;

static void *counting_alloc(void *ctx, size_t size, size_t align) {
  (void)ctx;
  void *p = NULL;
  if (posix_memalign(&p, align, size) != 0) return NULL;
  fb_allocs++;
  fb_last_align = align;
  fb_bytes += size;
  return p;
}

static void counting_free(void *ctx, void *p, size_t size) {
  (void)ctx;
  fb_frees++;
  fb_bytes -= size;
  free(p);
}

static void large_requests_go_to_the_fallback(void **state) {
  (void)state;
  hl_fallback counting = {counting_alloc, counting_free, NULL};
  hl_allocator_config cfg;
  hl_allocator_config_default(&cfg);
  cfg.fallback = &counting;
  hl_allocator *a;
  assert_int_equal(hl_allocator_create(&a, &cfg), HL_OK);
  fb_allocs = fb_frees = 0;
  fb_bytes = 0;
  size_t n = hl_allocator_class_count(a);
  void *small = hl_allocator_malloc(a, 4096);
  assert_int_equal(fb_allocs, 0);
  unsigned char *big = hl_allocator_malloc(a, 4097);
  assert_non_null(big);
  assert_int_equal(fb_allocs, 1);
  assert_int_equal(fb_last_align, 64 * 1024);
  assert_true(fb_bytes >= 4097);
  assert_int_equal(hl_allocator_usable_size(a, big), 4097);
  memset(big, 7, 4097);
  hl_pool_stats st;
  hl_allocator_class_stats(a, n, &st);
  assert_int_equal(st.allocations, 1);
  assert_int_equal(st.in_use, 1);

  /* A freed large block is kept and serves the next request it fits. */
  hl_allocator_free(a, big);
  assert_int_equal(fb_frees, 0);
  hl_allocator_class_stats(a, n, &st);
  assert_int_equal(st.frees, 1);
  assert_int_equal(st.in_use, 0);
  assert_int_equal(st.high_water, 1);
  unsigned char *again = hl_allocator_malloc(a, 4097);
  assert_ptr_equal(again, big);
  assert_int_equal(fb_allocs, 1);
  hl_allocator_free(a, again);
  unsigned char *other = hl_allocator_malloc(a, 20000); /* would waste more than half */
  assert_ptr_not_equal(other, big);
  assert_int_equal(fb_allocs, 2);
  hl_allocator_free(a, other);
  assert_int_equal(hl_allocator_trim(a), 2);
  assert_int_equal(fb_frees, 2);
  assert_int_equal(fb_bytes, 0);

  /* destroy hands back what is still out. */
  assert_non_null(hl_allocator_malloc(a, 1 << 20));
  hl_allocator_free(a, small);
  hl_allocator_destroy(a);
  assert_int_equal(fb_frees, 3);
  assert_int_equal(fb_bytes, 0);

  /* Keeping nothing gives every freed block back at once. */
  cfg.retain_chunks = 0;
  assert_int_equal(hl_allocator_create(&a, &cfg), HL_OK);
  hl_allocator_free(a, hl_allocator_malloc(a, 10000));
  assert_int_equal(fb_frees, 4);
  hl_allocator_destroy(a);
}

static void no_fallback_fails_large_requests(void **state) {
  (void)state;
  hl_allocator_config cfg;
  hl_allocator_config_default(&cfg);
  cfg.name = "nofb";
  cfg.fallback = &hl_fallback_none;
  cfg.on_exhausted = on_exhausted;
  hl_allocator *a;
  assert_int_equal(hl_allocator_create(&a, &cfg), HL_OK);
  exhausted_calls = 0;
  assert_null(hl_allocator_malloc(a, 5000));
  assert_null(hl_allocator_aligned_alloc(a, 256, 16));
  assert_int_equal(exhausted_calls, 2);
  assert_string_equal(exhausted_name, "nofb");
  hl_pool_stats st;
  hl_allocator_class_stats(a, hl_allocator_class_count(a), &st);
  assert_int_equal(st.failures, 2);
  void *p = hl_allocator_malloc(a, 4096);
  assert_non_null(p);
  hl_allocator_free(a, p);
  hl_allocator_destroy(a);
}

static void static_arena_never_leaves_its_memory(void **state) {
  (void)state;
  static _Alignas(16384) unsigned char arena[256 * 1024];
  hl_fallback counting = {counting_alloc, counting_free, NULL};
  hl_allocator_config cfg;
  hl_allocator_config_default(&cfg);
  cfg.name = "arena";
  cfg.on_exhausted = on_exhausted;
  hl_allocator *a;
  assert_int_equal(hl_allocator_create_static(&a, arena, sizeof arena, &cfg), HL_OK);
  assert_true((unsigned char *)a >= arena && (unsigned char *)a < arena + sizeof arena);
  assert_int_equal(hl_allocator_class_count(a), 24); /* 16 KiB chunks: classes up to 1024 */

  static void *blocks[8192];
  size_t n = 0;
  exhausted_calls = 0;
  while ((blocks[n] = hl_allocator_malloc(a, 32)) != NULL) {
    unsigned char *p = blocks[n];
    assert_true(p >= arena && p + 32 <= arena + sizeof arena);
    memset(p, 1, 32);
    n++;
    assert_true(n < 8192);
  }
  assert_int_equal(exhausted_calls, 1);
  assert_string_equal(exhausted_name, "arena/32");
  hl_pool_stats st;
  assert_int_equal(hl_allocator_class_stats(a, 3, &st), HL_OK);
  assert_int_equal(st.block_size, 32);
  assert_int_equal(st.chunks, 15); /* 16 chunks of 16 KiB, less the metadata's share */
  assert_int_equal(st.capacity, n);
  assert_null(hl_allocator_malloc(a, 5000)); /* no fallback in static mode */
  assert_int_equal(exhausted_calls, 2);
  for (size_t i = 0; i < n; i++) hl_allocator_free(a, blocks[i]);

  /* The freed chunks serve another class. */
  size_t m = 0;
  while ((blocks[m] = hl_allocator_malloc(a, 1000)) != NULL) m++;
  assert_int_equal(hl_allocator_class_stats(a, 23, &st), HL_OK);
  assert_int_equal(st.block_size, 1024);
  assert_int_equal(st.chunks, 15);
  assert_int_equal(st.capacity, m);
  for (size_t i = 0; i < m; i++) hl_allocator_free(a, blocks[i]);
  hl_pool_stats tot;
  hl_allocator_totals(a, &tot);
  assert_int_equal(tot.in_use, 0);
  assert_int_equal(tot.allocations, n + m);
  hl_allocator_destroy(a);

  /* An explicit fallback is allowed in static mode, and is the only way out. */
  fb_allocs = 0;
  cfg.fallback = &counting;
  assert_int_equal(hl_allocator_create_static(&a, arena, sizeof arena, &cfg), HL_OK);
  void *small = hl_allocator_malloc(a, 100), *big = hl_allocator_malloc(a, 5000);
  assert_int_equal(fb_allocs, 1);
  hl_allocator_free(a, big);
  hl_allocator_free(a, small);
  hl_allocator_destroy(a);
}

static void invalid_configurations_are_refused(void **state) {
  (void)state;
  static _Alignas(16384) unsigned char arena[64 * 1024];
  hl_allocator_config cfg;
  hl_allocator *a = NULL;
  hl_allocator_config_default(&cfg);
  cfg.chunk_size = 3000;
  assert_int_equal(hl_allocator_create(&a, &cfg), HL_EINVAL);
  cfg.chunk_size = 2048;
  assert_int_equal(hl_allocator_create(&a, &cfg), HL_EINVAL);
  cfg.chunk_size = 65536;
  cfg.max_class = 65536 / 2;
  assert_int_equal(hl_allocator_create(&a, &cfg), HL_EINVAL);
  cfg.max_class = 4;
  assert_int_equal(hl_allocator_create(&a, &cfg), HL_EINVAL);
  hl_allocator_config_default(&cfg);
  cfg.arena = arena;
  cfg.arena_size = sizeof arena;
  assert_int_equal(hl_allocator_create(&a, &cfg), HL_EINVAL);
  hl_allocator_config_default(&cfg);
  assert_int_equal(hl_allocator_create_static(&a, arena, 20000, &cfg), HL_ENOSPC);
  assert_int_equal(hl_allocator_create_static(&a, arena, 100, &cfg), HL_ENOSPC);
  assert_null(a);
  hl_allocator_destroy(NULL);
}

static void empty_chunks_are_retained_then_trimmed(void **state) {
  (void)state;
  hl_allocator_config cfg;
  hl_allocator_config_default(&cfg);
  hl_allocator *a;
  assert_int_equal(hl_allocator_create(&a, &cfg), HL_OK);
  static void *b[5000];
  for (int i = 0; i < 5000; i++) b[i] = hl_allocator_malloc(a, 64);
  hl_pool_stats tot;
  hl_allocator_totals(a, &tot);
  size_t chunks = tot.chunks;
  assert_true(chunks >= 5);
  for (int i = 0; i < 5000; i++) hl_allocator_free(a, b[i]);
  hl_allocator_totals(a, &tot);
  assert_int_equal(tot.chunks, chunks); /* the current chunk plus the retained ones */
  size_t trimmed = hl_allocator_trim(a);
  assert_int_equal(trimmed, chunks - 1);
  hl_allocator_totals(a, &tot);
  assert_int_equal(tot.chunks, 1);
  hl_allocator_destroy(a);

  cfg.retain_chunks = 0;
  assert_int_equal(hl_allocator_create(&a, &cfg), HL_OK);
  for (int i = 0; i < 5000; i++) b[i] = hl_allocator_malloc(a, 64);
  for (int i = 0; i < 5000; i++) hl_allocator_free(a, b[i]);
  hl_allocator_totals(a, &tot);
  assert_int_equal(tot.chunks, 1);
  assert_int_equal(hl_allocator_trim(a), 0);
  hl_allocator_destroy(a);
}

static void locked_instance_works(void **state) {
  (void)state;
  hl_allocator_config cfg;
  hl_allocator_config_default(&cfg);
  cfg.flags = HL_ALLOC_LOCKED;
  hl_allocator *a;
  assert_int_equal(hl_allocator_create(&a, &cfg), HL_OK);
  void *p = hl_allocator_malloc(a, 10), *q = hl_allocator_calloc(a, 2, 10000);
  p = hl_allocator_realloc(a, p, 2000);
  assert_non_null(p);
  assert_non_null(q);
  hl_allocator_free(a, p);
  hl_allocator_free(a, q);
  hl_pool_stats tot;
  hl_allocator_totals(a, &tot);
  assert_int_equal(tot.in_use, 0);
  assert_int_equal(tot.allocations, 3); /* malloc, calloc, and realloc's move */
  hl_allocator_destroy(a);
}

static void process_wide_allocator(void **state) {
  (void)state;
  hl_pool_stats before, after;
  hl_totals(&before);
  assert_string_equal(before.name, "hl_malloc");
  char *s = hl_malloc(6);
  memcpy(s, "hello", 6);
  s = hl_realloc(s, 6000);
  assert_string_equal(s, "hello");
  int *z = hl_calloc(100, sizeof *z);
  for (int i = 0; i < 100; i++) assert_int_equal(z[i], 0);
  void *al = hl_aligned_alloc(64, 64);
  assert_true(aligned(al, 64));
  assert_true(hl_usable_size(s) >= 6000);
  assert_int_equal(hl_usable_size(NULL), 0);
  assert_null(hl_aligned_alloc(3, 8));
  hl_totals(&after);
  assert_int_equal(after.in_use, before.in_use + 3);
  hl_free(s);
  hl_free(z);
  hl_free(al);
  hl_free(NULL);
  assert_null(hl_realloc(hl_malloc(1), 0));
  hl_totals(&after);
  assert_int_equal(after.in_use, before.in_use);
  assert_int_equal(after.allocations - before.allocations, after.frees - before.frees);
  assert_int_equal(hl_class_count(), 32);
  hl_pool_stats st;
  assert_int_equal(hl_class_stats(0, &st), HL_OK);
  assert_string_equal(st.name, "hl_malloc/8");
  assert_int_equal(hl_class_stats(hl_class_count() + 2, &st), HL_EINVAL);
  hl_allocator_config cfg;
  hl_allocator_config_default(&cfg);
  assert_int_equal(hl_configure(&cfg), HL_EBUSY);
  hl_trim();
}

/* Reports and statistics name an allocator and its classes: a long name is
 * cut to 31 characters, the same in both. */
static void long_names_are_cut_alike(void **state) {
  (void)state;
  hl_allocator_config cfg;
  hl_allocator_config_default(&cfg);
  cfg.name = "an-allocator-name-longer-than-thirty-one-characters";
  hl_allocator *a = NULL;
  assert_int_equal(hl_allocator_create(&a, &cfg), HL_OK);
  hl_pool_stats st;
  assert_int_equal(hl_allocator_class_stats(a, hl_allocator_class_count(a), &st), HL_OK);
  assert_string_equal(st.name, "an-allocator-name-longer-than-t");
  assert_int_equal(hl_allocator_class_stats(a, 1, &st), HL_OK);
  assert_string_equal(st.name, "an-allocator-name-longer-than-t/16");
  hl_allocator_destroy(a);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(classes_cover_every_size),
      cmocka_unit_test(aligned_requests_are_aligned),
      cmocka_unit_test(realloc_moves_across_classes),
      cmocka_unit_test(calloc_zeroes_reused_blocks),
      cmocka_unit_test(large_requests_go_to_the_fallback),
      cmocka_unit_test(no_fallback_fails_large_requests),
      cmocka_unit_test(static_arena_never_leaves_its_memory),
      cmocka_unit_test(invalid_configurations_are_refused),
      cmocka_unit_test(empty_chunks_are_retained_then_trimmed),
      cmocka_unit_test(locked_instance_works),
      cmocka_unit_test(process_wide_allocator),
      cmocka_unit_test(long_names_are_cut_alike),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
