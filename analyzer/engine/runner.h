/* runner: analyzes the jobs on worker threads, each with its own libclang
 * index, and prints what each translation unit says on stderr in job
 * order — whatever order the units finish in — with a progress line per
 * unit when stderr is a terminal. Results come back indexed like the jobs,
 * so everything after the run is independent of the number of threads. */
#ifndef HEAPLINT_RUNNER_H
#define HEAPLINT_RUNNER_H

#include "engine/analyze.h"
#include "input/jobs.h"

/* threads: 0 means one per online processor. configs[i] applies to job i. */
void hl_run_jobs(hl_run *run, const hl_jobs *jobs, const hl_config *const *configs, unsigned threads, int progress,
                 hl_tu_result *results);

/* The number of online processors (at least 1). */
unsigned hl_processors(void);

#endif
