/* syscall (the thread's id, for its nice). */
#define _GNU_SOURCE
#include "lsp/refiner.h"

#include <pthread.h>
#if defined(__linux__)
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

#include "engine/crash.h"

/* Under the server's lock: the one refiner of the process's one server. */
static pthread_t thread;
static int started; /* thread must be joined */
static int alive;   /* it waits for work or parses */
static int quit;
static lsp_refine *job; /* to parse, or being parsed */
static pthread_cond_t wake = PTHREAD_COND_INITIALIZER;

static void *refiner_main(void *arg) {
  lsp_server *S = arg;
#if defined(__linux__)
  /* Below the worker, as clangd runs its background work: where the cores
   * are busy the edit's analysis comes first (Linux: a nice per thread). */
  (void)setpriority(PRIO_PROCESS, (id_t)syscall(SYS_gettid), 10);
#endif
  pthread_mutex_lock(&S->lock);
  for (;;) {
    while (!job && !quit) pthread_cond_wait(&wake, &S->lock);
    if (quit) break;
    lsp_refine *r = job;
    pthread_mutex_unlock(&S->lock);
    hl_crash what;
    int crashed = hl_crash_run(lsp_refine_parse, r, &what);
    pthread_mutex_lock(&S->lock);
    lsp_refine_parsed(r, crashed ? &what : NULL);
    job = NULL;
    pthread_cond_broadcast(&S->wake);
    /* What libclang kept on this thread points into the abandoned frames. */
    if (crashed) break;
  }
  alive = 0;
  pthread_mutex_unlock(&S->lock);
  return NULL;
}

int lsp_refiner_run(lsp_server *S, lsp_refine *r) {
  if (!alive) {
    /* The one a crash ended (it no longer takes the lock). */
    if (started) pthread_join(thread, NULL);
    started = 0;
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    /* libclang parses on the calling thread (crash.h). */
    pthread_attr_setstacksize(&attr, HL_CRASH_STACK_SIZE);
    int rc = pthread_create(&thread, &attr, refiner_main, S);
    pthread_attr_destroy(&attr);
    if (rc) return -1;
    started = alive = 1;
  }
  job = r;
  pthread_cond_signal(&wake);
  return 0;
}

int lsp_refiner_busy(lsp_server *S) {
  (void)S;
  return job != NULL;
}

void lsp_refiner_stop(lsp_server *S) {
  pthread_mutex_lock(&S->lock);
  quit = 1;
  pthread_cond_signal(&wake);
  pthread_mutex_unlock(&S->lock);
  if (started) pthread_join(thread, NULL);
  started = alive = 0;
}
