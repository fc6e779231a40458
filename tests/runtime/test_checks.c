/* The debug checks of heaplint::runtime_debug: each misuse must abort with a
 * message naming the pool. Every case runs in a child process (death.h). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "death.h"
#include "heaplint/alloc.h"
#include "heaplint/pool.h"

static _Alignas(max_align_t) unsigned char pool_mem[HL_POOL_STATIC_BYTES(32, 8)];

static hl_pool *static_pool(void) {
  hl_pool_config cfg = {.name = "nodes", .block_size = 32};
  hl_pool *p;
  if (hl_pool_create_static(&p, pool_mem, sizeof pool_mem, &cfg) != HL_OK) abort();
  return p;
}

static hl_pool *chunk_pool(void) {
  hl_pool_config cfg = {.name = "grown", .block_size = 20, .chunk_blocks = 4};
  hl_pool *p;
  if (hl_pool_create(&p, &cfg) != HL_OK) abort();
  return p;
}

/* HL_POOL_STACK is ignored by the checked build: every check still fires. */
static hl_pool *stacked_pool(void) {
  hl_pool_config cfg = {.name = "stacked", .block_size = 20, .chunk_blocks = 4, .flags = HL_POOL_STACK};
  hl_pool *p;
  if (hl_pool_create(&p, &cfg) != HL_OK) abort();
  return p;
}

/* The pool of a misuse: arg NULL static, 1 chunk mode, 2 chunk mode with
 * HL_POOL_STACK. */
static hl_pool *some_pool(void *arg) {
  if (!arg) return static_pool();
  return (uintptr_t)arg == 2 ? stacked_pool() : chunk_pool();
}

static hl_allocator *allocator(void) {
  hl_allocator_config cfg;
  hl_allocator_config_default(&cfg);
  cfg.name = "sc";
  hl_allocator *a;
  if (hl_allocator_create(&a, &cfg) != HL_OK) abort();
  return a;
}

/* ---- the misuses, each run in a child ---------------------------------- */

static void pool_double_free(void *arg) {
  hl_pool *p = some_pool(arg);
  void *b = hl_pool_alloc(p);
  hl_pool_free(p, b);
  hl_pool_free(p, b);
}

static void pool_foreign_pointer(void *arg) {
  hl_pool *p = some_pool(arg);
  long local = 0;
  hl_pool_alloc(p);
  hl_pool_free(p, &local);
}

static void pool_interior_pointer(void *arg) {
  hl_pool *p = some_pool(arg);
  char *b = hl_pool_alloc(p);
  hl_pool_free(p, b + 4);
}

static void pool_overrun(void *arg) {
  hl_pool *p = some_pool(arg);
  size_t n = hl_pool_block_size(p);
  char *b = hl_pool_alloc(p);
  memset(b, 'x', n + 1);
  hl_pool_free(p, b);
}

static void pool_write_after_free(void *arg) {
  hl_pool *p = some_pool(arg);
  char *b = hl_pool_alloc(p);
  hl_pool_free(p, b);
  b[12] = 'x';
  hl_pool_alloc(p);
}

static void pool_free_to_other_pool(void *arg) {
  (void)arg;
  hl_pool *a = static_pool(), *b = chunk_pool();
  hl_pool_free(b, hl_pool_alloc(a));
}

static void alloc_double_free(void *arg) {
  (void)arg;
  hl_allocator *a = allocator();
  void *p = hl_allocator_malloc(a, 30);
  hl_allocator_free(a, p);
  hl_allocator_free(a, p);
}

static void alloc_foreign_pointer(void *arg) {
  hl_allocator *a = allocator();
  void *mine = hl_allocator_malloc(a, 30);
  (void)mine;
  hl_allocator_free(a, arg);
}

static void alloc_interior_pointer(void *arg) {
  (void)arg;
  hl_allocator *a = allocator();
  char *p = hl_allocator_malloc(a, 100);
  hl_allocator_free(a, p + 16);
}

static void alloc_overrun_by_one(void *arg) {
  (void)arg;
  hl_allocator *a = allocator();
  /* 20 bytes asked, a 32-byte class: the guard starts at byte 20. */
  char *p = hl_allocator_malloc(a, 20);
  p[20] = 0;
  hl_allocator_free(a, p);
}

static void alloc_large_overrun(void *arg) {
  (void)arg;
  hl_allocator *a = allocator();
  char *p = hl_allocator_malloc(a, 10000);
  p[10000] = 0;
  hl_allocator_free(a, p);
}

static void alloc_write_after_free(void *arg) {
  (void)arg;
  hl_allocator *a = allocator();
  char *p = hl_allocator_malloc(a, 64);
  hl_allocator_free(a, p);
  p[40] = 1;
  hl_allocator_malloc(a, 64);
}

static void alloc_other_instance(void *arg) {
  (void)arg;
  hl_allocator *a = allocator(), *b;
  hl_allocator_config cfg;
  hl_allocator_config_default(&cfg);
  cfg.name = "other";
  if (hl_allocator_create(&b, &cfg) != HL_OK) abort();
  hl_allocator_free(b, hl_allocator_malloc(a, 8));
}

static void default_double_free(void *arg) {
  (void)arg;
  void *p = hl_malloc(24);
  hl_free(p);
  hl_free(p);
}

static void default_foreign_pointer(void *arg) {
  hl_free(hl_malloc(8));
  hl_free(arg);
}

static void default_frees_private_block(void *arg) {
  (void)arg;
  hl_allocator *a = allocator();
  hl_free(hl_malloc(8));
  hl_free(hl_allocator_malloc(a, 8));
}

static void custom_handler(const char *message) { fprintf(stderr, "custom: %s\n", message); }

static void custom_report_handler(void *arg) {
  (void)arg;
  hl_set_report_handler(custom_handler);
  pool_double_free(NULL);
}

/* ---- the tests ---------------------------------------------------------- */

static void pool_checks_fire(void **state) {
  (void)state;
  for (uintptr_t chunked = 0; chunked < 3; chunked++) {
    void *arg = (void *)chunked;
    const char *name = chunked == 2 ? "pool 'stacked'" : chunked ? "pool 'grown'" : "pool 'nodes'";
    char want[128];
    assert_dies(pool_double_free, arg, "double free of block");
    assert_dies(pool_double_free, arg, name);
    assert_dies(pool_foreign_pointer, arg, "free of a pointer the pool does not own");
    assert_dies(pool_foreign_pointer, arg, name);
    assert_dies(pool_interior_pointer, arg, "free of a pointer into the middle of a block");
    assert_dies(pool_overrun, arg, "overrun past the end of block");
    snprintf(want, sizeof want, "%s, block size %d)", name, chunked ? 20 : 32);
    assert_dies(pool_overrun, arg, want);
    assert_dies(pool_write_after_free, arg, "write after free to block");
    assert_dies(pool_write_after_free, arg, name);
  }
  assert_dies(pool_free_to_other_pool, NULL, "free of a pointer the pool does not own");
  assert_dies(pool_free_to_other_pool, NULL, "pool 'grown'");
}

static void allocator_checks_fire(void **state) {
  (void)state;
  long local;
  void *system = malloc(64);
  assert_dies(alloc_double_free, NULL, "double free of block");
  assert_dies(alloc_double_free, NULL, "pool 'sc/32'");
  assert_dies(alloc_foreign_pointer, &local, "no pool of the allocator owns");
  assert_dies(alloc_foreign_pointer, system, "pool 'sc'");
  assert_dies(alloc_interior_pointer, NULL, "free of a pointer into the middle of a block");
  assert_dies(alloc_interior_pointer, NULL, "pool 'sc/112'");
  assert_dies(alloc_overrun_by_one, NULL, "overrun past the end of block");
  assert_dies(alloc_overrun_by_one, NULL, "pool 'sc/32'");
  assert_dies(alloc_large_overrun, NULL, "overrun past the end of block");
  assert_dies(alloc_large_overrun, NULL, "pool 'sc'");
  assert_dies(alloc_write_after_free, NULL, "write after free to block");
  assert_dies(alloc_write_after_free, NULL, "pool 'sc/64'");
  assert_dies(alloc_other_instance, NULL, "pool 'other'");
  free(system);
}

static void process_wide_checks_fire(void **state) {
  (void)state;
  long local;
  assert_dies(default_double_free, NULL, "double free of block");
  assert_dies(default_double_free, NULL, "pool 'hl_malloc/32'");
  assert_dies(default_foreign_pointer, &local, "no pool of the allocator owns");
  assert_dies(default_foreign_pointer, &local, "pool 'hl_malloc'");
  assert_dies(default_frees_private_block, NULL, "pool 'hl_malloc'");
}

static void report_goes_through_the_handler(void **state) {
  (void)state;
  assert_dies(custom_report_handler, NULL, "custom: heaplint: double free of block");
}

static void fill_patterns_are_visible(void **state) {
  (void)state;
  hl_allocator *a = allocator();
  unsigned char *p = hl_allocator_malloc(a, 20);
  for (int i = 0; i < 20; i++) assert_int_equal(p[i], 0xCD);
  assert_int_equal(p[20], 0xFD);
  hl_allocator_free(a, p);
  assert_int_equal(p[8], 0xDD);
  hl_allocator_destroy(a);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(pool_checks_fire),
      cmocka_unit_test(allocator_checks_fire),
      cmocka_unit_test(process_wide_checks_fire),
      cmocka_unit_test(report_goes_through_the_handler),
      cmocka_unit_test(fill_patterns_are_visible),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
