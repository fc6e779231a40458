/* hl_malloc and hl_free with the per-thread stacks of freed blocks (a
 * runtime built with HEAPLINT_RUNTIME_NODE_STACK=ON, the default): a free
 * of a size-class block pushes its address, found from the class map
 * without reading the chunk, and the next allocation of the class takes it
 * back; the map follows a chunk that changes class; statistics count the
 * calls made (a block on the stack is free); blocks of another thread's
 * heap go back to it. Built against
 * the release runtime of either layout: without the stacks (and in the
 * checked build, which has none) the same calls must still be right, and
 * the stack's own checks are left out. */
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "heaplint/alloc.h"
#include "heaplint/detail/tcache.h"

#if HL_TCACHE_STACK && !(defined(HL_RUNTIME_DEBUG) && HL_RUNTIME_DEBUG)
#define STACKS 1
#else
#define STACKS 0
#endif

#define CHUNK ((uintptr_t)64 << 10) /* hl_malloc's default chunk size */
#define MANY 20000                  /* blocks of 40 bytes: some dozen chunks */

static void *blocks[MANY];

static uintptr_t chunk_of(const void *p) { return (uintptr_t)p & ~(CHUNK - 1); }

/* A block freed in an old chunk (not the one its class carves from) is the
 * next one of its class handed out: it waited on the stack. */
static void the_last_freed_block_comes_back(void **state) {
  (void)state;
  for (int i = 0; i < MANY; i++) assert_non_null(blocks[i] = hl_malloc(40));
  assert_true(chunk_of(blocks[0]) != chunk_of(blocks[MANY - 1]));
  void *old = blocks[0];
  hl_free(old);
  void *again = hl_malloc(40);
  if (STACKS) assert_ptr_equal(again, old);
  blocks[0] = again;
  for (int i = 0; i < MANY; i++) hl_free(blocks[i]);
  hl_trim();
}

/* A chunk emptied by one class and taken by another: a free of the second
 * class's block in it goes to that class (the map followed the chunk),
 * never to the first, which would hand out a block of the wrong size. */
static void the_class_map_follows_a_reused_chunk(void **state) {
  (void)state;
  hl_trim();
  for (int i = 0; i < MANY; i++) assert_non_null(blocks[i] = hl_malloc(48));
  uintptr_t first = chunk_of(blocks[MANY / 2]);
  for (int i = 0; i < MANY; i++) hl_free(blocks[i]);
  /* Its empty chunks are kept (16 by default) and taken by the next class
   * that needs one. */
  void *b = NULL;
  for (int i = 0; i < MANY && !b; i++) {
    assert_non_null(blocks[i] = hl_malloc(96));
    if (chunk_of(blocks[i]) == first) b = blocks[i];
  }
  assert_non_null(b);
  /* The first class's stack takes frees again (it stopped when the frees
   * above filled it). */
  void *other = hl_malloc(48);
  hl_free(b);
  void *small = hl_malloc(48);
  assert_ptr_not_equal(small, b);
  void *same = hl_malloc(96);
  if (STACKS) assert_ptr_equal(same, b);
  hl_free(other);
  hl_free(small);
  hl_free(same);
  for (int i = 0; i < MANY && blocks[i] != b; i++) hl_free(blocks[i]);
  hl_trim();
}

/* A block waiting on a stack is free to the statistics (unlike one on
 * hl::pool_allocator's stacks): a push counts as the free, a pop as the
 * allocation, so in use and the counts are those of the calls made, before
 * hl_trim gives the blocks back and after. */
static void statistics_count_the_calls(void **state) {
  (void)state;
  hl_pool_stats before, held, after;
  hl_trim();
  hl_totals(&before);
  for (int i = 0; i < 100; i++) assert_non_null(blocks[i] = hl_malloc(24));
  for (int i = 0; i < 100; i++) hl_free(blocks[i]);
  for (int i = 0; i < 10; i++) assert_non_null(blocks[i] = hl_malloc(24));
  hl_totals(&held);
  assert_int_equal(held.in_use, before.in_use + 10);
  assert_int_equal(held.allocations - before.allocations, 110);
  assert_int_equal(held.frees - before.frees, 100);
  for (int i = 0; i < 10; i++) hl_free(blocks[i]);
  hl_trim();
  hl_totals(&after);
  assert_int_equal(after.in_use, before.in_use);
  assert_int_equal(after.allocations - before.allocations, 110);
  assert_int_equal(after.frees - before.frees, 110);
}

/* A chunk given back to the system and its address taken again by a large
 * block (the fallback's, here the same system allocator's): the map forgot
 * the chunk, so the large block's free does not go onto a class's stack. */
static void a_released_chunk_is_forgotten(void **state) {
  (void)state;
  static uintptr_t chunks[MANY];
  size_t nchunks = 0;
  hl_trim();
  for (int i = 0; i < MANY; i++) {
    assert_non_null(blocks[i] = hl_malloc(40));
    if (!nchunks || chunks[nchunks - 1] != chunk_of(blocks[i])) chunks[nchunks++] = chunk_of(blocks[i]);
  }
  for (int i = 0; i < MANY; i++) hl_free(blocks[i]);
  hl_trim(); /* the empty chunks go back to the system */
  /* Large blocks of a chunk's size and alignment, until one is at an
   * address a chunk had (glibc maps both alike and the kernel hands the
   * freed range out again; an allocator with a quarantine, ASan's, does
   * not, and the test is skipped). */
  void *big[64] = {0}, *reused = NULL;
  for (int j = 0; j < 64 && !reused; j++) {
    assert_non_null(big[j] = hl_malloc(65536));
    for (size_t c = 0; c < nchunks && !reused; c++)
      if (chunk_of(big[j]) == chunks[c]) reused = big[j];
  }
  if (!reused) {
    for (int j = 0; j < 64 && big[j]; j++) hl_free(big[j]);
    skip();
  }
  void *other = hl_malloc(40); /* the class's stack takes frees again */
  hl_free(reused);
  void *small = hl_malloc(40);
  assert_ptr_not_equal(small, reused);
  hl_free(small);
  hl_free(other);
  for (int j = 0; j < 64 && big[j]; j++)
    if (big[j] != reused) hl_free(big[j]);
  hl_trim();
}

static void *allocate_and_exit(void *arg) {
  void **out = arg;
  for (int i = 0; i < 1000; i++) out[i] = hl_malloc(56);
  return NULL;
}

/* Blocks of a heap whose thread has exited, freed here: some wait on this
 * thread's stack, are handed out here again, and all end up back with
 * their heap, counted once. */
static void another_threads_blocks(void **state) {
  (void)state;
  hl_pool_stats before, after;
  hl_free(hl_malloc(56)); /* this thread's stack for the class takes frees */
  hl_trim();
  hl_totals(&before);
  pthread_t t;
  assert_int_equal(pthread_create(&t, NULL, allocate_and_exit, blocks), 0);
  assert_int_equal(pthread_join(t, NULL), 0);
  for (int i = 0; i < 1000; i++) assert_non_null(blocks[i]);
  hl_free(hl_malloc(56));
  for (int i = 0; i < 50; i++) hl_free(blocks[i]);
  for (int i = 0; i < 50; i++) {
    unsigned char *p = hl_malloc(56);
    memset(p, i, 56);
    blocks[i] = p;
  }
  for (int i = 0; i < 1000; i++) hl_free(blocks[i]);
  hl_trim();
  hl_totals(&after);
  assert_int_equal(after.in_use, before.in_use);
  assert_int_equal(after.allocations - before.allocations, 1051);
  assert_int_equal(after.frees - before.frees, 1051);
}

static pthread_barrier_t produced, done;

static void *allocate_and_wait(void *arg) {
  void **out = arg;
  for (int i = 0; i < 100; i++) out[i] = hl_malloc(32);
  pthread_barrier_wait(&produced);
  pthread_barrier_wait(&done);
  return NULL;
}

/* The high-water mark with another heap's blocks on this thread's stack:
 * they are not this heap's to subtract from what it hands out, and the
 * mark stays the largest number in use (it wrapped below zero once). */
static void high_water_with_another_heaps_blocks(void **state) {
  (void)state;
  static void *mine[600];
  hl_pool_stats st;
  pthread_t t;
  assert_int_equal(pthread_barrier_init(&produced, NULL, 2), 0);
  assert_int_equal(pthread_barrier_init(&done, NULL, 2), 0);
  assert_int_equal(pthread_create(&t, NULL, allocate_and_wait, blocks), 0);
  pthread_barrier_wait(&produced);
  mine[0] = hl_malloc(32); /* the class's stack takes frees */
  for (int i = 0; i < 100; i++) hl_free(blocks[i]);
  for (int i = 1; i < 600; i++) assert_non_null(mine[i] = hl_calloc(1, 32));
  assert_int_equal(hl_class_stats(3, &st), HL_OK); /* the class of 32 bytes, over every heap */
  assert_string_equal(st.name, "hl_malloc/32");
  assert_true(st.in_use >= 600);
  assert_true(st.high_water >= st.in_use);
  assert_true(st.high_water < ((size_t)1 << 40));
  pthread_barrier_wait(&done);
  assert_int_equal(pthread_join(t, NULL), 0);
  for (int i = 0; i < 600; i++) hl_free(mine[i]);
  hl_trim();
  pthread_barrier_destroy(&produced);
  pthread_barrier_destroy(&done);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(the_last_freed_block_comes_back), cmocka_unit_test(the_class_map_follows_a_reused_chunk),
      cmocka_unit_test(a_released_chunk_is_forgotten),   cmocka_unit_test(statistics_count_the_calls),
      cmocka_unit_test(another_threads_blocks),          cmocka_unit_test(high_water_with_another_heaps_blocks),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
