/* runner: analyzes the jobs on worker threads, each with its own libclang
 * index, and prints what each translation unit says on stderr in job
 * order — whatever order the units finish in — with a progress line per
 * unit when stderr is a terminal. Results come back indexed like the jobs,
 * so everything after the run is independent of the number of threads;
 * hooks let a caller restore a job's result instead of analyzing it (the
 * result cache) and see each job as soon as the jobs before it are done
 * (the streamed report). */
#ifndef HEAPLINT_RUNNER_H
#define HEAPLINT_RUNNER_H

#include "engine/analyze.h"
#include "input/jobs.h"

/* What a caller adds around each job (any of them may be NULL). restore
 * and analyzed run on the worker threads, at the same time for different
 * jobs; done runs in job order, one job at a time. */
typedef struct hl_run_hooks {
  void *data;
  /* Before job i is analyzed: fill *res from elsewhere (a result cache),
   * writing its messages to log, and return 1; or return 0 to analyze it.
   * Messages it writes either way go to the job's log. */
  int (*restore)(void *data, size_t i, hl_tu_result *res, FILE *log);
  /* Job i was analyzed (not restored); text holds what the analysis said
   * (len bytes, not NUL-terminated: it is log's buffer, which writing to
   * log may move). */
  void (*analyzed)(void *data, size_t i, const hl_tu_result *res, const char *text, size_t len, FILE *log);
  /* Job i and every job before it are done, and job i's log is printed. */
  void (*done)(void *data, size_t i, hl_tu_result *res);
} hl_run_hooks;

/* threads: 0 means one per online processor. configs[i] applies to job i.
 * hooks may be NULL. Each job runs under engine/crash.h's guard: a unit
 * whose analysis crashes (libclang, a rule, a stack overflow) gets one
 * error saying so and the result HL_NOT_PARSED, its thread is replaced,
 * and the other jobs are analyzed. */
void hl_run_jobs(hl_run *run, const hl_jobs *jobs, const hl_config *const *configs, unsigned threads, int progress,
                 hl_tu_result *results, const hl_run_hooks *hooks);

/* The number of online processors (at least 1). */
unsigned hl_processors(void);

#endif
