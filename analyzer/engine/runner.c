#include "engine/runner.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "engine/crash.h"
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
  unsigned active; /* workers running */
  pthread_mutex_t lock;
  pthread_cond_t idle; /* signalled when active falls to 0 */
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
    if (S->progress) fprintf(stderr, "[%zu/%zu] %s\n", i + 1, S->jobs->n, hl_display_path(S->jobs->v[i].file));
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

typedef struct job_step {
  shared *S;
  size_t i;
  CXIndex index;
  FILE *log;
  char **buf;
  size_t *len;
} job_step;

static void job_step_run(void *arg) {
  job_step *j = arg;
  run_job(j->S, j->i, j->index, j->log, j->buf, j->len);
}

/* Job i under the crash guard: 1 when it crashed. Its log and result are
 * then abandoned where the crash left them (a stream locked mid-write, a
 * half-built result) and replaced by the one message that says so; the
 * unit is treated as one that did not parse (exit status 3). */
static int guarded_job(shared *S, size_t i, CXIndex index, char **buf, size_t *len) {
  FILE *log = hl_xmemstream(buf, len);
  job_step step = {S, i, index, log, buf, len};
  hl_crash what;
  if (!hl_crash_run(job_step_run, &step, &what)) {
    fclose(log);
    return 0;
  }
  char *said = hl_crash_describe(&what);
  *buf = hl_xasprintf(
      "heaplint: error: %s: not analyzed: the analysis crashed (%s); its findings are lost, the "
      "other units are analyzed (please report it with the file)\n",
      hl_display_path(S->jobs->v[i].file), said);
  *len = strlen(*buf);
  free(said);
  memset(&S->results[i], 0, sizeof S->results[i]);
  S->results[i].result = HL_NOT_PARSED;
  return 1;
}

static int start_worker(shared *S);

static void *worker(void *arg) {
  shared *S = arg;
  CXIndex index = clang_createIndex(0, 0);
  int crashed = 0;
  while (!crashed) {
    pthread_mutex_lock(&S->lock);
    size_t i = S->next_job++;
    pthread_mutex_unlock(&S->lock);
    if (i >= S->jobs->n) break;
    char *buf;
    size_t len;
    crashed = guarded_job(S, i, index, &buf, &len);
    pthread_mutex_lock(&S->lock);
    S->logs[i] = buf;
    S->loglens[i] = len;
    S->done[i] = 1;
    flush_in_order(S);
    pthread_mutex_unlock(&S->lock);
  }
  /* After a crash, what libclang and LLVM keep for this thread may point
   * into the abandoned frames: the thread ends, its index abandoned with
   * the unit, and a new one takes its place (this one goes on, with a new
   * index, only when none can be started). */
  if (crashed && start_worker(S) != 0) return worker(arg);
  if (!crashed) clang_disposeIndex(index);
  pthread_mutex_lock(&S->lock);
  if (--S->active == 0) pthread_cond_signal(&S->idle);
  pthread_mutex_unlock(&S->lock);
  return NULL;
}

/* A detached worker with the stack libclang parses with (it parses on its
 * caller's thread: engine/crash.h). Returns 0, or an error number. */
static int start_worker(shared *S) {
  pthread_attr_t attr;
  pthread_t t;
  pthread_attr_init(&attr);
  pthread_attr_setstacksize(&attr, HL_CRASH_STACK_SIZE);
  pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
  pthread_mutex_lock(&S->lock);
  S->active++;
  pthread_mutex_unlock(&S->lock);
  int rc = pthread_create(&t, &attr, worker, S);
  pthread_attr_destroy(&attr);
  if (rc) {
    pthread_mutex_lock(&S->lock);
    S->active--;
    pthread_mutex_unlock(&S->lock);
  }
  return rc;
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
  pthread_cond_init(&S.idle, NULL);
  /* Before any worker starts: a unit whose analysis crashes is reported
   * and the others go on (without the handlers a crash still ends the run,
   * as it always did). */
  hl_crash_init();
  if (threads == 0) threads = hl_processors();
  if (threads > jobs->n) threads = jobs->n ? (unsigned)jobs->n : 1;
  /* Every worker is a thread of its own (a crashed one is replaced); a
   * thread that cannot be started only means fewer workers, and with none
   * the calling thread does the work. */
  unsigned started = 0;
  for (unsigned t = 0; t < threads; t++) started += start_worker(&S) == 0;
  if (!started) {
    S.active = 1;
    worker(&S);
  }
  pthread_mutex_lock(&S.lock);
  while (S.active) pthread_cond_wait(&S.idle, &S.lock);
  pthread_mutex_unlock(&S.lock);
  pthread_cond_destroy(&S.idle);
  pthread_mutex_destroy(&S.lock);
  free(S.logs);
  free(S.loglens);
  free(S.done);
}
