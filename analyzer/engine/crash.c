/* dladdr, and the program counter in a signal's ucontext. */
#define _GNU_SOURCE
#include "engine/crash.h"

#include <clang-c/Index.h>
#include <dlfcn.h>
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ucontext.h>

#include "util/util.h"

static const int signals[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGTRAP, SIGABRT};
#define NSIGNALS (sizeof signals / sizeof *signals)
static const char *const signal_names[] = {"SIGSEGV", "SIGBUS", "SIGFPE", "SIGILL", "SIGTRAP", "SIGABRT"};

/* What the handlers replaced (libclang's), to hand on what is not ours. */
static struct sigaction replaced[NSIGNALS];
static int installed;

/* Enough for the handler, and for libclang's when it is handed a signal. */
#define ALT_STACK_SIZE ((size_t)64 << 10)

typedef struct guard {
  sigjmp_buf jump;
  volatile sig_atomic_t signal, raised;
  void *volatile pc;
} guard;

static _Thread_local guard *current;
static _Thread_local const char *now_step, *now_detail;

static void *pc_of(void *ucontext) {
#if defined(__linux__) && defined(__x86_64__)
  return (void *)((ucontext_t *)ucontext)->uc_mcontext.gregs[REG_RIP];
#elif defined(__linux__) && defined(__aarch64__)
  return (void *)((ucontext_t *)ucontext)->uc_mcontext.pc;
#else
  (void)ucontext;
  return NULL;
#endif
}

/* A signal outside a step: to the handler ours replaced, else the default
 * action, which ends the process (a fault happens again when the handler
 * returns; a signal that was sent is sent again). */
static void hand_on(int sig, siginfo_t *info, void *ucontext) {
  for (size_t i = 0; i < NSIGNALS; i++) {
    if (signals[i] != sig) continue;
    const struct sigaction *p = &replaced[i];
    if ((p->sa_flags & SA_SIGINFO) && p->sa_sigaction) {
      p->sa_sigaction(sig, info, ucontext);
      return;
    }
    if (!(p->sa_flags & SA_SIGINFO) && p->sa_handler != SIG_DFL && p->sa_handler != SIG_IGN) {
      p->sa_handler(sig);
      return;
    }
  }
  struct sigaction dfl;
  memset(&dfl, 0, sizeof dfl);
  dfl.sa_handler = SIG_DFL;
  sigemptyset(&dfl.sa_mask);
  sigaction(sig, &dfl, NULL);
  if (info->si_code <= 0) raise(sig);
}

static void on_crash(int sig, siginfo_t *info, void *ucontext) {
  guard *g = current;
  if (!g) {
    hand_on(sig, info, ucontext);
    return;
  }
  /* A crash while leaving is not caught twice. */
  current = NULL;
  g->signal = sig;
  g->raised = info->si_code <= 0;
  g->pc = pc_of(ucontext);
  siglongjmp(g->jump, 1);
}

int hl_crash_init(void) {
  if (installed) return 0;
  setenv("LIBCLANG_NOTHREADS", "1", 1);
  /* libclang installs its crash-recovery handlers with its first index:
   * let it, so that ours go over them (and hand them what is not ours). */
  clang_disposeIndex(clang_createIndex(0, 0));
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_sigaction = on_crash;
  sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
  sigemptyset(&sa.sa_mask);
  for (size_t i = 0; i < NSIGNALS; i++)
    if (sigaction(signals[i], &sa, &replaced[i])) {
      while (i--) sigaction(signals[i], &replaced[i], NULL);
      return -1;
    }
  installed = 1;
  return 0;
}

void hl_crash_step(const char *step, const char *detail) {
  now_step = step;
  now_detail = detail;
}

/* The file of the code at pc, without its directory. */
static void where_of(void *pc, char *out, size_t n) {
  Dl_info info;
  out[0] = '\0';
  if (!pc || !dladdr(pc, &info) || !info.dli_fname) return;
  const char *slash = strrchr(info.dli_fname, '/');
  snprintf(out, n, "%s", slash ? slash + 1 : info.dli_fname);
}

int hl_crash_run(void (*step)(void *), void *arg, hl_crash *what) {
  if (!installed) {
    step(arg);
    return 0;
  }
  guard g;
  guard *outer = current;
  stack_t alt, old;
  memset(&alt, 0, sizeof alt);
  alt.ss_size = ALT_STACK_SIZE;
  alt.ss_sp = hl_xmalloc(ALT_STACK_SIZE);
  int has_alt = sigaltstack(&alt, &old) == 0;
  hl_crash_step(NULL, NULL);
  g.signal = 0;
  if (sigsetjmp(g.jump, 1) == 0) {
    current = &g;
    step(arg);
  }
  current = outer;
  if (has_alt) sigaltstack(&old, NULL);
  free(alt.ss_sp);
  if (!g.signal) return 0;
  memset(what, 0, sizeof *what);
  what->signal = g.signal;
  /* A signal that was sent (abort, raise) happened in whatever sent it. */
  if (!g.raised) where_of(g.pc, what->where, sizeof what->where);
  what->step = now_step;
  what->detail = now_detail;
  hl_crash_step(NULL, NULL);
  return 1;
}

char *hl_crash_describe(const hl_crash *c) {
  const char *name = "a signal";
  for (size_t i = 0; i < NSIGNALS; i++)
    if (signals[i] == c->signal) name = signal_names[i];
  hl_sb b = {0};
  hl_sb_puts(&b, name);
  if (c->where[0]) hl_sb_printf(&b, " in %s", c->where);
  if (c->step) hl_sb_printf(&b, " while %s", c->step);
  if (c->detail) hl_sb_printf(&b, " %s", c->detail);
  return hl_sb_take(&b);
}
