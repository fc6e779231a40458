/* hl_count_new: an LD_PRELOAD library counting every call of a global
 * operator new (all eight replaceable forms: array, nothrow, align_val_t),
 * in total and per call site (the return address, as module + offset), so
 * that a drop in the count can be traced to the code that stopped
 * allocating. At exit it appends to the file named by HL_COUNT_NEW_OUT:
 *
 *   total <calls>
 *   site <module> <offset> <calls>     one line per call site
 *
 * The blocks come from malloc and go back to free (the forms are in
 * bench/replace_new.h, shared with bench/realcode/hl_trace.c). A program that defines its own operator new
 * is not counted (its definitions come first). Built by bench/fixproof/run.sh:
 *   cc -O2 -fPIC -shared hl_count_new.c -o libhlcountnew.so -ldl */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define SITES (1u << 16) /* open addressing; a full table counts the rest as "lost" */

static struct site {
  _Atomic uintptr_t addr;
  _Atomic uint64_t calls;
} sites[SITES];
static _Atomic uint64_t total, lost;

static void count(void *ret) {
  uintptr_t a = (uintptr_t)ret;
  atomic_fetch_add_explicit(&total, 1, memory_order_relaxed);
  uint32_t h = (uint32_t)((a * 0x9E3779B97F4A7C15ull) >> 48) & (SITES - 1);
  for (uint32_t probe = 0; probe < 64; probe++, h = (h + 1) & (SITES - 1)) {
    uintptr_t seen = atomic_load_explicit(&sites[h].addr, memory_order_relaxed);
    if (seen == 0) {
      uintptr_t expected = 0;
      if (atomic_compare_exchange_strong(&sites[h].addr, &expected, a) || expected == a) {
        atomic_fetch_add_explicit(&sites[h].calls, 1, memory_order_relaxed);
        return;
      }
      seen = expected;
    }
    if (seen == a) {
      atomic_fetch_add_explicit(&sites[h].calls, 1, memory_order_relaxed);
      return;
    }
  }
  atomic_fetch_add_explicit(&lost, 1, memory_order_relaxed);
}

static void *hook_new(size_t n, void *caller) {
  count(caller);
  return malloc(n ? n : 1);
}

static void *hook_new_aligned(size_t n, size_t a, void *caller) {
  count(caller);
  void *p = NULL;
  if (a < sizeof(void *)) a = sizeof(void *);
  return posix_memalign(&p, a, n ? n : 1) ? NULL : p;
}

#include "../replace_new.h"

__attribute__((destructor)) static void report(void) {
  const char *path = getenv("HL_COUNT_NEW_OUT");
  if (!path) return;
  FILE *f = fopen(path, "a");
  if (!f) return;
  fprintf(f, "total %llu\n", (unsigned long long)atomic_load(&total));
  if (atomic_load(&lost)) fprintf(f, "lost %llu\n", (unsigned long long)atomic_load(&lost));
  for (uint32_t i = 0; i < SITES; i++) {
    uintptr_t a = atomic_load(&sites[i].addr);
    if (!a) continue;
    Dl_info info;
    if (dladdr((void *)a, &info) && info.dli_fname)
      fprintf(f, "site %s 0x%llx %llu\n", info.dli_fname, (unsigned long long)(a - (uintptr_t)info.dli_fbase),
              (unsigned long long)atomic_load(&sites[i].calls));
    else
      fprintf(f, "site ? 0x%llx %llu\n", (unsigned long long)a, (unsigned long long)atomic_load(&sites[i].calls));
  }
  fclose(f);
}
