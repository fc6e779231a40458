/* Multi-threaded stress test of the thread-safe variants: a locked pool, a
 * locked private allocator and the process-wide hl_malloc (per-thread heaps,
 * cross-thread frees). Threads allocate and free random sizes, stamp every
 * block with their id and a sequence number and check the stamp on free; a
 * shared registry of live blocks proves that no block is handed out twice;
 * and the statistics must balance at the end. Blocks also travel between
 * threads through mailboxes, so that frees happen on other threads. */
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "heaplint/alloc.h"
#include "heaplint/pool.h"

#define THREADS 4
#define OPS 40000
#define SLOTS 128
#define MAILBOXES 64

/* ---- registry of live blocks: striped, each stripe a small locked set --- */

#define STRIPES 256
#define STRIPE_CAP 256

static struct stripe {
  pthread_mutex_t lock;
  size_t n;
  uintptr_t addr[STRIPE_CAP];
} live[STRIPES];

static atomic_int twice, overflow, corrupt;

static struct stripe *stripe_of(const void *p) {
  uintptr_t a = (uintptr_t)p;
  return &live[((a >> 3) ^ (a >> 13)) % STRIPES];
}

static void live_add(const void *p) {
  struct stripe *s = stripe_of(p);
  pthread_mutex_lock(&s->lock);
  for (size_t i = 0; i < s->n; i++)
    if (s->addr[i] == (uintptr_t)p) atomic_fetch_add(&twice, 1);
  if (s->n < STRIPE_CAP)
    s->addr[s->n++] = (uintptr_t)p;
  else
    atomic_fetch_add(&overflow, 1);
  pthread_mutex_unlock(&s->lock);
}

static void live_remove(const void *p) {
  struct stripe *s = stripe_of(p);
  pthread_mutex_lock(&s->lock);
  size_t i = 0;
  while (i < s->n && s->addr[i] != (uintptr_t)p) i++;
  if (i == s->n)
    atomic_fetch_add(&corrupt, 1);
  else
    s->addr[i] = s->addr[--s->n];
  pthread_mutex_unlock(&s->lock);
}

static void live_reset(void) {
  for (int i = 0; i < STRIPES; i++) {
    pthread_mutex_init(&live[i].lock, NULL);
    live[i].n = 0;
  }
  atomic_store(&twice, 0);
  atomic_store(&overflow, 0);
  atomic_store(&corrupt, 0);
}

/* ---- stamps ------------------------------------------------------------- */

typedef struct stamp {
  uint32_t thread, seq;
  uint64_t size;
} stamp;

static unsigned char pattern(const stamp *s, size_t i) {
  return (unsigned char)(s->thread * 131u + s->seq * 7u + i);
}

static void stamp_block(unsigned char *b, size_t size, uint32_t thread, uint32_t seq) {
  stamp s = {thread, seq, size};
  memcpy(b, &s, sizeof s);
  for (size_t i = sizeof s; i < size; i++) b[i] = pattern(&s, i);
}

static void check_block(const unsigned char *b) {
  stamp s;
  memcpy(&s, b, sizeof s);
  int ok = s.thread < THREADS;
  for (size_t i = sizeof s; ok && i < s.size; i++) ok = b[i] == pattern(&s, i);
  if (!ok) atomic_fetch_add(&corrupt, 1);
}

/* ---- the workload, parameterised by the allocator under test ------------ */

typedef struct target {
  void *(*alloc)(void *ctx, size_t size);
  void (*free)(void *ctx, void *p);
  void *ctx;
  size_t max_size; /* sizes are drawn from [sizeof(stamp), max_size] */
} target;

static _Atomic(void *) mailbox[MAILBOXES];
static atomic_ulong allocations, frees;

typedef struct worker {
  const target *t;
  uint32_t id;
  uint64_t rng;
} worker;

static uint64_t next_random(uint64_t *x) {
  *x ^= *x << 13;
  *x ^= *x >> 7;
  *x ^= *x << 17;
  return *x;
}

static void release(const target *t, void *p) {
  check_block(p);
  live_remove(p);
  t->free(t->ctx, p);
  atomic_fetch_add(&frees, 1);
}

static void *work(void *arg) {
  worker *w = arg;
  const target *t = w->t;
  void *slot[SLOTS] = {0};
  uint32_t seq = 0;
  for (int op = 0; op < OPS; op++) {
    uint64_t r = next_random(&w->rng);
    size_t i = r % SLOTS;
    if (!slot[i]) {
      /* Mostly small sizes, now and then a large one. */
      size_t range = (r >> 16) % 16 == 0 ? t->max_size : (t->max_size < 256 ? t->max_size : 256);
      size_t size = sizeof(stamp) + (r >> 24) % (range - sizeof(stamp) + 1);
      unsigned char *b = t->alloc(t->ctx, size);
      if (!b) continue;
      atomic_fetch_add(&allocations, 1);
      live_add(b);
      stamp_block(b, size, w->id, seq++);
      slot[i] = b;
    } else if ((r >> 40) % 4 == 0) {
      /* Trade the block with whichever thread left one in the mailbox. */
      void *got = atomic_exchange(&mailbox[(r >> 48) % MAILBOXES], slot[i]);
      slot[i] = got;
      if (got) check_block(got);
    } else {
      release(t, slot[i]);
      slot[i] = NULL;
    }
  }
  for (size_t i = 0; i < SLOTS; i++)
    if (slot[i]) release(t, slot[i]);
  return NULL;
}

static void run(const target *t) {
  live_reset();
  atomic_store(&allocations, 0);
  atomic_store(&frees, 0);
  pthread_t th[THREADS];
  worker w[THREADS];
  for (uint32_t i = 0; i < THREADS; i++) {
    w[i] = (worker){t, i, 0x9E3779B97F4A7C15ull * (i + 1)};
    assert_int_equal(pthread_create(&th[i], NULL, work, &w[i]), 0);
  }
  for (int i = 0; i < THREADS; i++) pthread_join(th[i], NULL);
  for (int i = 0; i < MAILBOXES; i++) {
    void *p = atomic_exchange(&mailbox[i], NULL);
    if (p) release(t, p);
  }
  assert_int_equal(atomic_load(&twice), 0);
  assert_int_equal(atomic_load(&overflow), 0);
  assert_int_equal(atomic_load(&corrupt), 0);
  assert_int_equal(atomic_load(&allocations), atomic_load(&frees));
  assert_true(atomic_load(&allocations) > THREADS * OPS / 4);
}

/* ---- the three thread-safe variants ------------------------------------- */

static void *pool_alloc(void *ctx, size_t size) {
  (void)size;
  return hl_pool_alloc(ctx);
}

static void pool_free(void *ctx, void *p) { hl_pool_free(ctx, p); }

/* Plain, and with HL_POOL_STACK: the stack is under the same mutex. */
static void locked_pool(void **state) {
  (void)state;
  for (int stacked = 0; stacked < 2; stacked++) {
    unsigned flags = HL_POOL_LOCKED | (stacked ? HL_POOL_STACK : 0);
    hl_pool_config cfg = {.name = "shared", .block_size = 96, .chunk_blocks = 64, .flags = flags};
    hl_pool *pool;
    assert_int_equal(hl_pool_create(&pool, &cfg), HL_OK);
    target t = {pool_alloc, pool_free, pool, 96};
    run(&t);
    hl_pool_stats st;
    hl_pool_stats_get(pool, &st);
    assert_int_equal(st.in_use, 0);
    assert_int_equal(st.allocations, atomic_load(&allocations));
    assert_int_equal(st.frees, atomic_load(&frees));
    assert_int_equal(st.failures, 0);
    assert_true(st.high_water <= THREADS * SLOTS + MAILBOXES);
    assert_int_equal(hl_pool_trim(pool), st.chunks); /* everything free */
    hl_pool_destroy(pool);
  }
}

static void *instance_alloc(void *ctx, size_t size) { return hl_allocator_malloc(ctx, size); }
static void instance_free(void *ctx, void *p) { hl_allocator_free(ctx, p); }

static void locked_allocator(void **state) {
  (void)state;
  hl_allocator_config cfg;
  hl_allocator_config_default(&cfg);
  cfg.name = "shared";
  cfg.flags = HL_ALLOC_LOCKED;
  hl_allocator *a;
  assert_int_equal(hl_allocator_create(&a, &cfg), HL_OK);
  target t = {instance_alloc, instance_free, a, 6000};
  run(&t);
  hl_pool_stats tot;
  hl_allocator_totals(a, &tot);
  assert_int_equal(tot.in_use, 0);
  assert_int_equal(tot.allocations, atomic_load(&allocations));
  assert_int_equal(tot.frees, atomic_load(&frees));
  hl_allocator_destroy(a);
}

static void *default_alloc(void *ctx, size_t size) {
  (void)ctx;
  return hl_malloc(size);
}

static void default_free(void *ctx, void *p) {
  (void)ctx;
  hl_free(p);
}

static void process_wide(void **state) {
  (void)state;
  target t = {default_alloc, default_free, NULL, 6000};
  hl_pool_stats before, after;
  hl_totals(&before);
  run(&t);
  /* A second round: new threads adopt the heaps the first ones left. */
  unsigned long first = atomic_load(&allocations);
  run(&t);
  hl_totals(&after);
  assert_int_equal(after.in_use, before.in_use);
  assert_int_equal(after.allocations - before.allocations, first + atomic_load(&allocations));
  assert_int_equal(after.frees - before.frees, after.allocations - before.allocations);
  assert_int_equal(after.failures, before.failures);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(locked_pool),
      cmocka_unit_test(locked_allocator),
      cmocka_unit_test(process_wide),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
