#include "engine/ahead.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "engine/ast.h"
#include "engine/crash.h"
#include "util/util.h"

/* One thread parses ahead for the whole process, the parses in the order
 * asked: a thread per parse left each its own malloc arena and stack,
 * which the server's memory kept (tests/lsp/protocol.py's open/close
 * cycles grew by 48 MiB over 50 files). */

enum { QUEUED, RUNNING, DONE };

struct hl_ahead {
  int state;   /* under lock */
  int dropped; /* under lock: the thread frees it when it is over */
  hl_ahead *next;
  CXIndex index;
  char *source;
  char **args;
  int nargs;
  struct CXUnsavedFile *files;
  unsigned nfiles;
  unsigned options;
  CXTranslationUnit tu; /* NULL: failed, or crashed (abandoned then) */
};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t wake = PTHREAD_COND_INITIALIZER; /* the thread waits on it for work */
static pthread_cond_t over = PTHREAD_COND_INITIALIZER; /* takers wait on it */
static hl_ahead *queue, **queue_end = &queue;
static int running; /* the thread is there */
static int parsing; /* it runs a parse ... */
static int dropped; /* ... which nobody will take */

static void ahead_free(hl_ahead *a) {
  for (int i = 0; i < a->nargs; i++) free(a->args[i]);
  free(a->args);
  hl_unsaved_free(a->files, a->nfiles);
  free(a->source);
  free(a);
}

static void dispose(hl_ahead *a) {
  if (a->tu) clang_disposeTranslationUnit(a->tu);
  if (a->index) clang_disposeIndex(a->index);
  ahead_free(a);
}

static void parse_step(void *arg) {
  hl_ahead *a = arg;
  hl_crash_step("parsing ahead for the trait questions", NULL);
  a->index = hl_index_new_kept();
  if (clang_parseTranslationUnit2(a->index, a->source, (const char *const *)a->args, a->nargs, a->files, a->nfiles,
                                  a->options, &a->tu) != CXError_Success)
    a->tu = NULL;
}

/* With the lock held: the next parse queued, taken off the queue. */
static hl_ahead *dequeue(void) {
  hl_ahead *a = queue;
  queue = a->next;
  if (!queue) queue_end = &queue;
  a->next = NULL;
  return a;
}

static void *ahead_main(void *arg) {
  (void)arg;
  pthread_mutex_lock(&lock);
  for (;;) {
    while (!queue) pthread_cond_wait(&wake, &lock);
    hl_ahead *a = dequeue();
    a->state = RUNNING;
    parsing = 1;
    pthread_mutex_unlock(&lock);
    hl_crash what;
    /* After a crash the unit and its index are abandoned (crash.h), and
     * this thread ends with what libclang kept on it: the next parse
     * starts another. */
    int crashed = hl_crash_run(parse_step, a, &what);
    if (crashed) a->tu = NULL, a->index = NULL;
    pthread_mutex_lock(&lock);
    a->state = DONE;
    if (a->dropped) {
      pthread_mutex_unlock(&lock);
      dispose(a);
      pthread_mutex_lock(&lock);
    }
    parsing = dropped = 0;
    pthread_cond_broadcast(&over);
    if (crashed) break;
  }
  running = 0;
  pthread_mutex_unlock(&lock);
  return NULL;
}

/* With the lock held: the thread is there, or -1. */
static int start_thread(void) {
  if (running) return 0;
  pthread_t t;
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  /* libclang parses on the calling thread (crash.h). */
  pthread_attr_setstacksize(&attr, HL_CRASH_STACK_SIZE);
  pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
  int rc = pthread_create(&t, &attr, ahead_main, NULL);
  pthread_attr_destroy(&attr);
  if (rc) return -1;
  running = 1;
  return 0;
}

hl_ahead *hl_ahead_start(const char *source, const char *const *args, int nargs, const struct CXUnsavedFile *files,
                         unsigned nfiles, unsigned options) {
  hl_ahead *a = hl_xcalloc(1, sizeof *a);
  a->source = hl_xstrdup(source);
  a->nargs = nargs;
  a->args = hl_xcalloc(nargs ? (size_t)nargs : 1, sizeof *a->args);
  for (int i = 0; i < nargs; i++) a->args[i] = hl_xstrdup(args[i]);
  a->nfiles = nfiles;
  a->files = hl_unsaved_copy(files, nfiles);
  a->options = options;
  pthread_mutex_lock(&lock);
  if (start_thread()) {
    pthread_mutex_unlock(&lock);
    ahead_free(a);
    return NULL;
  }
  *queue_end = a;
  queue_end = &a->next;
  pthread_cond_signal(&wake);
  pthread_mutex_unlock(&lock);
  return a;
}

/* With the lock held: takes a off the queue when it waits there. */
static int unqueue(hl_ahead *a) {
  for (hl_ahead **p = &queue; *p; p = &(*p)->next)
    if (*p == a) {
      *p = a->next;
      if (!a->next) queue_end = p;
      return 1;
    }
  return 0;
}

CXTranslationUnit hl_ahead_take(hl_ahead *a, CXIndex *index) {
  pthread_mutex_lock(&lock);
  /* Not started yet: the caller parses sooner itself than after the
   * parses queued before. */
  if (a->state == QUEUED && unqueue(a)) {
    pthread_mutex_unlock(&lock);
    ahead_free(a);
    *index = NULL;
    return NULL;
  }
  while (a->state != DONE) pthread_cond_wait(&over, &lock);
  pthread_mutex_unlock(&lock);
  CXTranslationUnit tu = a->tu;
  /* A failed parse's index goes with it (dispose). */
  *index = tu ? a->index : NULL;
  a->tu = NULL;
  if (tu) a->index = NULL;
  dispose(a);
  return tu;
}

void hl_ahead_drop(hl_ahead *a) {
  pthread_mutex_lock(&lock);
  if (a->state == QUEUED && unqueue(a)) {
    pthread_mutex_unlock(&lock);
    ahead_free(a);
    return;
  }
  int done = a->state == DONE;
  a->dropped = !done;
  if (!done) dropped = 1;
  pthread_mutex_unlock(&lock);
  if (done) dispose(a);
}

void hl_ahead_wait_dropped(void) {
  pthread_mutex_lock(&lock);
  while (parsing && dropped) pthread_cond_wait(&over, &lock);
  pthread_mutex_unlock(&lock);
}

int hl_ahead_busy(void) {
  pthread_mutex_lock(&lock);
  int busy = parsing || queue;
  pthread_mutex_unlock(&lock);
  return busy;
}

CXIndex hl_index_new_kept(void) {
#if CINDEX_VERSION_MINOR >= 64
  CXIndexOptions o;
  memset(&o, 0, sizeof o);
  o.Size = sizeof o;
  o.StorePreamblesInMemory = 1;
  CXIndex index = clang_createIndexWithOptions(&o);
  if (index) return index;
#endif
  return clang_createIndex(0, 0);
}
