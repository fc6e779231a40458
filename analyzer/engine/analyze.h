/* analyze: one translation unit, start to end — parse it with libclang
 * (saying why when it cannot be), detect its standard library and target,
 * select the profiles, walk its AST once dispatching every cursor of the
 * user's code to the enabled rules, and collect their findings. */
#ifndef HEAPLINT_ANALYZE_H
#define HEAPLINT_ANALYZE_H

#include <clang-c/Index.h>
#include <pthread.h>
#include <stdio.h>

#include "input/config.h"
#include "engine/finding.h"
#include "input/jobs.h"
#include "input/profile.h"
#include "engine/typeinfo.h"
#include "util/strv.h"

struct hl_rule;

/* What every translation unit of a run shares. Workers run in parallel:
 * lock guards warned. Nothing a rule judges by is shared: a unit's verdicts
 * depend on that unit alone, not on the order or the workers. */
typedef struct hl_run {
  const hl_profile_set *profiles;
  int verbose;
  pthread_mutex_t lock;
  hl_strv warned;                     /* "no profile for ..." said once per library and width */
} hl_run;

typedef enum hl_result {
  HL_ANALYZED,      /* parsed and analyzed (compile_errors says whether it has errors) */
  HL_NOT_PARSED,    /* libclang could not parse it */
} hl_result;

typedef struct hl_tu_result {
  hl_result result;
  char *library;    /* "libstdc++", or NULL when no standard library header was included */
  char *arch;       /* "x86_64" */
  int pointer_width;
  hl_findings findings;
  unsigned compile_errors; /* its errors (among the findings when they have a place) */
  char **profiles;  /* the profiles that decided, base first (file names) */
  size_t nprofiles;
} hl_tu_result;

/* Analyzes job with index (one per thread), under the job's config.
 * libclang failures, compile errors without a place and remarks go to log,
 * naming the file; findings (and located compile errors) to res, with the
 * config's severities and header filter applied. */
void hl_analyze(hl_run *run, CXIndex index, const hl_job *job, const hl_config *cfg, FILE *log, hl_tu_result *res);
void hl_tu_result_free(hl_tu_result *res);

#endif
