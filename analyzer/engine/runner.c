#include "engine/runner.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/util.h"

typedef struct shared {
  hl_run *run;
  const hl_jobs *jobs;
  const hl_config *const *configs;
  hl_tu_result *results;
  const hl_run_hooks *hooks;
  char **logs;
  size_t *loglens;
  char *done;
  size_t next_job, next_print;
  int progress;
  pthread_mutex_t lock;
} shared;

unsigned hl_processors(void) {
  long n = sysconf(_SC_NPROCESSORS_ONLN);
  return n > 0 ? (unsigned)n : 1;
}

static int is_empty_file(const char *path) {
  struct stat st;
  return stat(path, &st) == 0 && S_ISREG(st.st_mode) && st.st_size == 0;
}

/* Prints the logs of the finished units that are next in job order.
 * Called with the lock held. */
static void flush_in_order(shared *S) {
  while (S->next_print < S->jobs->n && S->done[S->next_print]) {
    size_t i = S->next_print++;
    if (S->progress)
      fprintf(stderr, "[%zu/%zu] %s\n", i + 1, S->jobs->n, hl_display_path(S->jobs->v[i].file));
    hl_warn_unprofiled(S->run, &S->jobs->v[i], &S->results[i], stderr);
    if (S->loglens[i]) fwrite(S->logs[i], 1, S->loglens[i], stderr);
    free(S->logs[i]);
    S->logs[i] = NULL;
    fflush(stderr);
    if (S->hooks && S->hooks->done) S->hooks->done(S->hooks->data, i, &S->results[i]);
  }
  fflush(stderr);
}

/* Job i: restored by the hooks, or analyzed (and then shown to them). */
static void run_job(shared *S, size_t i, CXIndex index, FILE *log, char **buf, size_t *len) {
  const hl_job *job = &S->jobs->v[i];
  const hl_run_hooks *H = S->hooks;
  if (is_empty_file(job->file))
    fprintf(log, "heaplint: warning: %s: the file is empty; nothing to analyze\n", hl_display_path(job->file));
  if (H && H->restore && H->restore(H->data, i, &S->results[i], log)) return;
  fflush(log);
  size_t from = *len;
  hl_analyze(S->run, index, job, S->configs[i], log, &S->results[i]);
  fflush(log);
  if (H && H->analyzed) H->analyzed(H->data, i, &S->results[i], *buf + from, *len - from, log);
}

static void *worker(void *arg) {
  shared *S = arg;
  CXIndex index = clang_createIndex(0, 0);
  for (;;) {
    pthread_mutex_lock(&S->lock);
    size_t i = S->next_job++;
    pthread_mutex_unlock(&S->lock);
    if (i >= S->jobs->n) break;
    char *buf;
    size_t len;
    FILE *log = hl_xmemstream(&buf, &len);
    run_job(S, i, index, log, &buf, &len);
    fclose(log);
    pthread_mutex_lock(&S->lock);
    S->logs[i] = buf;
    S->loglens[i] = len;
    S->done[i] = 1;
    flush_in_order(S);
    pthread_mutex_unlock(&S->lock);
  }
  clang_disposeIndex(index);
  return NULL;
}

void hl_run_jobs(hl_run *run, const hl_jobs *jobs, const hl_config *const *configs, unsigned threads, int progress,
                 hl_tu_result *results, const hl_run_hooks *hooks) {
  shared S;
  memset(&S, 0, sizeof S);
  S.run = run;
  S.jobs = jobs;
  S.configs = configs;
  S.results = results;
  S.hooks = hooks;
  S.logs = hl_xcalloc(jobs->n ? jobs->n : 1, sizeof *S.logs);
  S.loglens = hl_xcalloc(jobs->n ? jobs->n : 1, sizeof *S.loglens);
  S.done = hl_xcalloc(jobs->n ? jobs->n : 1, 1);
  S.progress = progress;
  pthread_mutex_init(&S.lock, NULL);
  if (threads == 0) threads = hl_processors();
  if (threads > jobs->n) threads = jobs->n ? (unsigned)jobs->n : 1;
  pthread_t *tids = hl_xcalloc(threads, sizeof *tids);
  unsigned started = 0;
  /* The calling thread is a worker too; a thread that cannot be started
   * only means fewer workers. */
  for (unsigned t = 1; t < threads; t++)
    if (pthread_create(&tids[started], NULL, worker, &S) == 0) started++;
  worker(&S);
  for (unsigned t = 0; t < started; t++) pthread_join(tids[t], NULL);
  pthread_mutex_destroy(&S.lock);
  free(tids);
  free(S.logs);
  free(S.loglens);
  free(S.done);
}
