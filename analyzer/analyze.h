/* analyze: one translation unit, start to end — parse it with libclang
 * (saying why when it cannot be), detect its standard library and target,
 * select the profiles, walk its AST once dispatching every cursor of the
 * user's code to the enabled rules, and collect their findings. */
#ifndef HEAPLINT_ANALYZE_H
#define HEAPLINT_ANALYZE_H

#include <clang-c/Index.h>

#include "finding.h"
#include "jobs.h"
#include "profile.h"
#include "typeinfo.h"

struct hl_rule;

typedef struct hl_run {
  CXIndex index;
  const hl_profile_set *profiles;
  const struct hl_rule *const *rules; /* enabled rules, NULL-terminated */
  hl_trait_cache *cache;
  hl_findings *out;
  int verbose;
  hl_msgs warned;                     /* "no profile for ..." said once per library and width */
} hl_run;

typedef enum hl_result {
  HL_ANALYZED,      /* parsed and analyzed */
  HL_NOT_PARSED,    /* libclang could not parse it, or it has compile errors */
} hl_result;

typedef struct hl_tu_summary {
  char *library;    /* "libstdc++", or NULL when no standard library header was included */
  char *arch;       /* "x86_64" */
  int pointer_width;
} hl_tu_summary;

/* Analyzes job; compile errors and libclang failures are printed to stderr
 * (naming the file), findings go to run->out. */
hl_result hl_analyze(hl_run *run, const hl_job *job, hl_tu_summary *summary);

#endif
