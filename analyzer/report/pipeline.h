/* pipeline: the report stage of 'heaplint check' — from the findings of
 * every translation unit to the exit status: order and deduplicate them,
 * drop what NOLINT and the baseline suppress, fingerprint them, write the
 * baseline, hand them to the one emitter --format chose (stdout or -o),
 * export or apply the fixes, and print the one-line summary on stderr.
 *
 * Exit status (also in --help and docs/cli.md): 0 ran; 1 errors, or
 * warnings with --werror; 2 usage or input error; 3 a translation unit
 * could not be parsed; 4 --fix left fixes unapplied. When several apply,
 * the first of 2, 3, 4, 1 wins (the earliest problem found is the one
 * said). */
#ifndef HEAPLINT_REPORT_PIPELINE_H
#define HEAPLINT_REPORT_PIPELINE_H

#include <stddef.h>

#include "input/cli.h"
#include "report/emit.h"
#include "report/finding.h"
#include "util/strv.h"
#include "util/util.h"

enum { HL_EXIT_RAN = 0, HL_EXIT_FINDINGS = 1, HL_EXIT_INPUT = 2, HL_EXIT_PARSE = 3, HL_EXIT_UNFIXED = 4 };

/* What the analysis gives the report stage. */
typedef struct hl_pipeline_in {
  hl_findings findings;       /* every translation unit's (the stage takes them) */
  size_t analyzed, failed;    /* files */
  hl_strv targets;            /* "libstdc++, x86_64": each once, for the summary */
  hl_strv failed_files;       /* the files that could not be parsed */
  hl_strv main_files;         /* the files analyzed */
  const char *root;           /* the source root, absolute */
  const char *first_file;     /* the first job's file ("" when none), for --export-fixes */
  const hl_rule_info *rules;  /* every rule heaplint has */
  size_t nrules;
  int cached;                 /* a result cache was in use */
  size_t cache_hits, cache_misses; /* units restored from it, units analyzed */
} hl_pipeline_in;

/* Runs the stage under the options o; status is the run's so far (an input
 * error found before the analysis). Returns the exit status. Frees in. */
int hl_pipeline_run(const hl_options *o, hl_pipeline_in *in, int status);

#endif
