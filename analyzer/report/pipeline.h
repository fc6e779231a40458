/* pipeline: the report stage of 'heaplint check' — from the findings of
 * every translation unit to the exit status: order and deduplicate them,
 * drop what NOLINT and the baseline suppress, fingerprint them, write the
 * baseline, hand them to the one emitter --format chose (stdout or -o),
 * export or apply the fixes, and print the one-line summary on stderr.
 *
 * Findings come in unit by unit, in job order. The text report is
 * streamed: each unit's findings are written when it comes in (sorted
 * within the unit; a header's finding with the first unit that reports
 * it), so that a CI log moves (-o's file still appears whole at the end).
 * JSON and SARIF are documents, written at the end in file, line and
 * column order.
 *
 * Exit status (also in --help and docs/cli.md): 0 ran; 1 errors, or
 * warnings with --werror; 2 usage or input error; 3 a translation unit
 * has compile errors or could not be parsed; 4 --fix left fixes unapplied. When several apply,
 * the first of 2, 3, 4, 1 wins (the earliest problem found is the one
 * said). */
#ifndef HEAPLINT_REPORT_PIPELINE_H
#define HEAPLINT_REPORT_PIPELINE_H

#include <stddef.h>

#include "input/cli.h"
#include "input/linefilter.h"
#include "report/emit.h"
#include "report/fixes.h"
#include "report/finding.h"
#include "util/strv.h"
#include "util/util.h"

enum { HL_EXIT_RAN = 0, HL_EXIT_FINDINGS = 1, HL_EXIT_INPUT = 2, HL_EXIT_PARSE = 3, HL_EXIT_UNFIXED = 4 };

/* What the analysis gives the report stage at the end. */
typedef struct hl_pipeline_in {
  hl_findings findings;      /* the units' not yet given to hl_pipeline_unit */
  size_t analyzed, failed;   /* files */
  size_t with_errors;        /* files analyzed despite compile errors */
  hl_strv targets;           /* "libstdc++, x86_64": each once, for the summary */
  hl_strv failed_files;      /* the files that could not be parsed */
  hl_strv error_files;       /* the files with compile errors (analyzed as far as they parsed) */
  hl_strv main_files;        /* the files analyzed */
  const char *root;          /* the source root, absolute */
  const char *first_file;    /* the first job's file ("" when none), for --export-fixes */
  const hl_rule_info *rules; /* every rule heaplint has */
  size_t nrules;
  int cached;                      /* a result cache was in use */
  size_t cache_hits, cache_misses; /* units restored from it, units analyzed */
  hl_api_figure *apis;             /* the project index's APIs that receive allocating values */
  size_t napis;
  hl_fix_check fix_check; /* --fix checks the fixed text with it first (check NULL: not) */
} hl_pipeline_in;

/* The findings as every front end shows them: ordered, deduplicated, and
 * without those NOLINT suppresses (in the files of the findings and in
 * main_files, read through S), with an error for each unmatched NOLINT
 * region. Returns how many NOLINT suppressed. The check then fingerprints
 * and applies the baseline; the language server publishes them. */
struct hl_sources;
size_t hl_findings_settle(hl_findings *all, struct hl_sources *S, char *const *main_files, size_t nmain);

typedef struct hl_pipeline hl_pipeline;

/* The stage under the options o; root: the source root, absolute; lines:
 * -line-filter's or --diff's lines, the only ones reported (NULL: all). */
hl_pipeline *hl_pipeline_new(const hl_options *o, const char *root, const hl_line_filter *lines);
/* Whether the report is streamed: each unit's findings are to be given as
 * soon as the units before it are done. */
int hl_pipeline_streams(const hl_pipeline *P);
/* Takes the findings of one unit (or, not streaming, of all at once) whose
 * main files are files; printed at once when streaming. */
void hl_pipeline_unit(hl_pipeline *P, hl_findings *found, char *const *files, size_t nfiles);
/* The end of the stage: in's findings too, the report, the fixes, the
 * summary; status is the run's so far (an input error found before the
 * analysis). Returns the exit status. Frees P and in. */
int hl_pipeline_finish(hl_pipeline *P, hl_pipeline_in *in, int status);
/* Or the end of a run that must write nothing more (an output found to be
 * an input): -o's file is not written, no baseline, no fixes. Frees P. */
void hl_pipeline_discard(hl_pipeline *P);

#endif
