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
  int record_inputs;                  /* fill hl_tu_result's inputs (for a result cache) */
  pthread_mutex_t lock;
  hl_strv warned;                     /* "no profile for ..." said once per library and width */
} hl_run;

typedef enum hl_result {
  HL_ANALYZED,      /* parsed and analyzed */
  HL_NOT_PARSED,    /* libclang could not parse it, or it has compile errors */
} hl_result;

/* A file the unit read: its absolute path and the FNV-1a hash and size of
 * the text libclang parsed. */
typedef struct hl_tu_input {
  char *path;
  unsigned long long size, hash;
} hl_tu_input;

typedef struct hl_tu_result {
  hl_result result;
  char *library;    /* "libstdc++", or NULL when no standard library header was included */
  char *arch;       /* "x86_64" */
  int pointer_width;
  int unprofiled;   /* the library has no profile for this width: hl_warn_unprofiled says so */
  hl_findings findings;
  char **profiles;  /* the profiles that decided, base first (file names) */
  size_t nprofiles;
  /* With run->record_inputs, of an analyzed unit: every file it read, the
   * main file first, each once; and the time (CLOCK_REALTIME, ns) before
   * it read them. */
  hl_tu_input *inputs;
  size_t ninputs;
  long long read_at;
} hl_tu_result;

/* Analyzes job with index (one per thread), under the job's config.
 * Compile errors, libclang failures and remarks go to log, naming the
 * file; findings to res, with the config's severities and header filter
 * applied. */
void hl_analyze(hl_run *run, CXIndex index, const hl_job *job, const hl_config *cfg, FILE *log, hl_tu_result *res);
void hl_tu_result_free(hl_tu_result *res);

/* The warning that job's library has no profile for its target width (its
 * wrappers are not checked), when res says so: once per library and width
 * in a run, naming the first unit it applies to. Called in job order, so
 * that "first" does not depend on the threads. */
void hl_warn_unprofiled(hl_run *run, const hl_job *job, const hl_tu_result *res, FILE *log);

#endif
