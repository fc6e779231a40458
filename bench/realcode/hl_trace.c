/* hl_trace: what a real program's std::function and std::any stores cost,
 * charged to the code that made them. Preloaded (LD_PRELOAD) into a test
 * program built with -finstrument-functions, it keeps a shadow stack of the
 * program's calls (__cyg_profile_func_enter/exit) and replaces every global
 * operator new. The functions to watch (std::function and std::any
 * constructors and assignments, found by hl-realcode funcs in the program's
 * symbol table) come from $HL_TRACE_FUNCS as "<address> <kind>" lines; each
 * call of one is recorded with the call sites that led to it (innermost
 * first) and the allocations made inside it and not inside a watched
 * function it called, nor inside a constructor of the value it stores
 * (kind 100: the value's own allocations). At exit the records, summed per distinct call chain,
 * go to $HL_TRACE_OUT (appended, so that several runs add up) as
 * "<kind> <calls> <allocations> <allocating calls> <site>..." with addresses
 * relative to the program's load address (0: outside the program).
 *
 * C, not C++: nothing here may be instrumented or call operator new. */
#define _GNU_SOURCE
#include <link.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The library itself is built without -finstrument-functions. */
#define HOOK __attribute__((visibility("default")))
#define MAX_DEPTH 4096 /* deeper frames are not tracked */
#define CHAIN 64       /* call sites kept per record, innermost first (taskflow: a user call to its std::function store is 30 to 40 frames deep at -O0) */
/* hl-realcode funcs' kind of a constructor that builds the stored value (a
 * std::vector<bool> copied into a std::any): inside a watched call, what it
 * allocates is the value's own, not the wrapper's, and is not counted. */
#define KIND_VALUE 100

typedef struct frame {
  uintptr_t fn, site, fp;
  int kind;        /* watched: kind + 1; 0: not watched */
  int prev_watch;  /* index of the next watched frame below, -1: none */
  unsigned long allocs;
} frame;

typedef struct thread_stack {
  frame f[MAX_DEPTH];
  int depth, watch; /* watch: index of the innermost watched frame, -1: none */
  int lost;         /* frames entered beyond MAX_DEPTH and not yet left */
} thread_stack;

static __thread thread_stack *tls_stack;

/* The program's own address range and its watched functions. */
static uintptr_t base, lo, hi;
static uintptr_t *watch_addr;
static int *watch_kind;
static size_t nwatch;

/* Records: an open-addressing table keyed by (kind, chain). */
typedef struct record {
  int kind, used;
  uintptr_t chain[CHAIN];
  unsigned long calls, allocs, alloc_calls;
} record;

static record *table;
static size_t table_cap, table_n;
static pthread_mutex_t table_lock = PTHREAD_MUTEX_INITIALIZER;
static int ready;

static int phdr_cb(struct dl_phdr_info *info, size_t size, void *data) {
  (void)size;
  (void)data;
  base = info->dlpi_addr;
  lo = UINTPTR_MAX;
  hi = 0;
  for (int i = 0; i < info->dlpi_phnum; i++) {
    const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
    if (ph->p_type != PT_LOAD) continue;
    uintptr_t a = base + ph->p_vaddr, b = a + ph->p_memsz;
    if (a < lo) lo = a;
    if (b > hi) hi = b;
  }
  return 1; /* the first object is the program */
}

static int by_addr(const void *a, const void *b) {
  uintptr_t x = *(const uintptr_t *)a, y = *(const uintptr_t *)b;
  return (x > y) - (x < y);
}

static int watched(uintptr_t fn) {
  size_t l = 0, r = nwatch;
  while (l < r) {
    size_t m = (l + r) / 2;
    if (watch_addr[m] < fn) l = m + 1;
    else r = m;
  }
  return l < nwatch && watch_addr[l] == fn ? watch_kind[l] + 1 : 0;
}

static uintptr_t rel(uintptr_t a) { return a >= lo && a < hi ? a - base : 0; }

static uint64_t hash_key(int kind, const uintptr_t *chain) {
  uint64_t h = 1469598103934665603ull ^ (uint64_t)kind;
  for (int i = 0; i < CHAIN; i++) h = (h ^ chain[i]) * 1099511628211ull;
  return h;
}

static void table_add(int kind, const uintptr_t *chain, unsigned long allocs) {
  pthread_mutex_lock(&table_lock);
  if ((table_n + 1) * 2 > table_cap) {
    size_t cap = table_cap ? table_cap * 2 : 4096;
    record *t = calloc(cap, sizeof *t);
    if (!t) abort();
    for (size_t i = 0; i < table_cap; i++) {
      if (!table[i].used) continue;
      size_t j = hash_key(table[i].kind, table[i].chain) & (cap - 1);
      while (t[j].used) j = (j + 1) & (cap - 1);
      t[j] = table[i];
    }
    free(table);
    table = t;
    table_cap = cap;
  }
  size_t j = hash_key(kind, chain) & (table_cap - 1);
  while (table[j].used && (table[j].kind != kind || memcmp(table[j].chain, chain, sizeof table[j].chain)))
    j = (j + 1) & (table_cap - 1);
  record *r = &table[j];
  if (!r->used) {
    r->used = 1;
    r->kind = kind;
    memcpy(r->chain, chain, sizeof r->chain);
    table_n++;
  }
  r->calls++;
  r->allocs += allocs;
  r->alloc_calls += allocs > 0;
  pthread_mutex_unlock(&table_lock);
}

static thread_stack *stack_get(void) {
  if (!tls_stack) {
    tls_stack = calloc(1, sizeof *tls_stack);
    if (!tls_stack) abort();
    tls_stack->watch = -1;
  }
  return tls_stack;
}

/* Leaves the top frame: a watched one becomes a record. */
static void pop(thread_stack *s) {
  frame *f = &s->f[--s->depth];
  if (!f->kind) return;
  if (f->kind == KIND_VALUE + 1) {
    s->watch = f->prev_watch;
    return;
  }
  uintptr_t chain[CHAIN] = {0};
  for (int i = 0, k = s->depth; i < CHAIN && k >= 0; i++, k--) chain[i] = rel(s->f[k].site);
  table_add(f->kind - 1, chain, f->allocs);
  s->watch = f->prev_watch;
}

/* fp is the hook's own frame address, which sits right below the calling
 * function's frame and is the same when it enters and when it leaves. Frames
 * whose frame address is at or below fp are dead: an exception
 * unwound them without calling the exit hook (clang's instrumentation does
 * not on unwinding). The stack grows down. */
static void drop_dead(thread_stack *s, uintptr_t fp, int inclusive) {
  while (s->depth > 0 && (s->f[s->depth - 1].fp < fp || (inclusive && s->f[s->depth - 1].fp == fp))) pop(s);
}

HOOK void __cyg_profile_func_enter(void *fn, void *site) {
  if (!ready) return;
  thread_stack *s = stack_get();
  uintptr_t fp = (uintptr_t)__builtin_frame_address(0);
  drop_dead(s, fp, 1);
  if (s->depth == MAX_DEPTH) {
    s->lost++;
    return;
  }
  int kind = watched((uintptr_t)fn);
  /* A value's constructor matters only inside a watched call. */
  if (kind == KIND_VALUE + 1 && (s->watch < 0 || s->f[s->watch].kind == KIND_VALUE + 1)) kind = 0;
  s->f[s->depth] = (frame){(uintptr_t)fn, (uintptr_t)site, fp, kind, s->watch, 0};
  if (kind) s->watch = s->depth;
  s->depth++;
}

HOOK void __cyg_profile_func_exit(void *fn, void *site) {
  (void)fn;
  (void)site;
  if (!ready) return;
  thread_stack *s = stack_get();
  if (s->lost) {
    s->lost--;
    return;
  }
  uintptr_t fp = (uintptr_t)__builtin_frame_address(0);
  drop_dead(s, fp, 0);
  if (s->depth > 0 && s->f[s->depth - 1].fp == fp) pop(s);
}

static void count_alloc(void) {
  if (!ready) return;
  thread_stack *s = stack_get();
  if (s->watch >= 0 && s->f[s->watch].kind != KIND_VALUE + 1) s->f[s->watch].allocs++;
}

static void *hook_new(size_t n, void *caller) {
  (void)caller;
  count_alloc();
  return malloc(n ? n : 1);
}

static void *hook_new_aligned(size_t n, size_t a, void *caller) {
  (void)caller;
  count_alloc();
  void *p = NULL;
  if (a < sizeof(void *)) a = sizeof(void *);
  return posix_memalign(&p, a, n ? n : 1) ? NULL : p;
}

/* Every global operator new and delete. */
#include "../replace_new.h"

static void load_funcs(const char *path) {
  FILE *f = fopen(path, "r");
  if (!f) {
    fprintf(stderr, "hl_trace: cannot open %s (HL_TRACE_FUNCS)\n", path);
    abort();
  }
  size_t cap = 0;
  unsigned long long a;
  int k;
  while (fscanf(f, "%llx %d", &a, &k) == 2) {
    if (nwatch == cap) {
      cap = cap ? cap * 2 : 256;
      watch_addr = realloc(watch_addr, cap * sizeof *watch_addr);
      watch_kind = realloc(watch_kind, cap * sizeof *watch_kind);
      if (!watch_addr || !watch_kind) abort();
    }
    watch_addr[nwatch] = base + (uintptr_t)a;
    watch_kind[nwatch++] = k;
  }
  fclose(f);
  /* Sorted by address, the kinds along (insertion sort: a few thousand). */
  for (size_t i = 1; i < nwatch; i++)
    for (size_t j = i; j > 0 && by_addr(&watch_addr[j - 1], &watch_addr[j]) > 0; j--) {
      uintptr_t ta = watch_addr[j];
      watch_addr[j] = watch_addr[j - 1];
      watch_addr[j - 1] = ta;
      int tk = watch_kind[j];
      watch_kind[j] = watch_kind[j - 1];
      watch_kind[j - 1] = tk;
    }
}

static void dump(void) {
  const char *out = getenv("HL_TRACE_OUT");
  if (!ready || !out) return;
  ready = 0;
  thread_stack *s = tls_stack;
  while (s && s->depth > 0) pop(s);
  FILE *f = fopen(out, "a");
  if (!f) {
    fprintf(stderr, "hl_trace: cannot write %s (HL_TRACE_OUT)\n", out);
    return;
  }
  for (size_t i = 0; i < table_cap; i++) {
    const record *r = &table[i];
    if (!r->used) continue;
    fprintf(f, "%d %lu %lu %lu", r->kind, r->calls, r->allocs, r->alloc_calls);
    for (int k = 0; k < CHAIN && r->chain[k]; k++) fprintf(f, " %lx", (unsigned long)r->chain[k]);
    fputc('\n', f);
  }
  fclose(f);
}

/* A test that aborts (a failed assertion in a thread, say) still leaves its
 * records: dumped from the handler, then the signal goes on as before. Not
 * async-signal-safe, which is acceptable for a process that is ending. */
static void on_fatal(int sig) {
  dump();
  signal(sig, SIG_DFL);
  raise(sig);
}

__attribute__((constructor)) static void init(void) {
  const char *funcs = getenv("HL_TRACE_FUNCS");
  if (!funcs) return;
  dl_iterate_phdr(phdr_cb, NULL);
  load_funcs(funcs);
  atexit(dump);
  signal(SIGABRT, on_fatal);
  signal(SIGSEGV, on_fatal);
  ready = 1;
}
