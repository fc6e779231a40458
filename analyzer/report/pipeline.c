#include "report/pipeline.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/baseline.h"
#include "report/fixes.h"
#include "report/source.h"
#include "report/suppress.h"
#include "util/output.h"

/* Says err (and frees it); the run ends with an input error. */
static int input_error(char *err) {
  fprintf(stderr, "heaplint: error: %s\n", err);
  free(err);
  return HL_EXIT_INPUT;
}

/* The sites heaplint saw but did not decide, taken out of the findings:
 * they are no findings (out of the baseline, the counts and the text
 * report); -v lists them, json and sarif carry them with
 * --report-undecided, the summary counts them by reason. */
typedef struct undecided {
  hl_findings sites;
  size_t total;   /* sites stays with them only until json or sarif takes them */
  hl_strv reasons;
  size_t *count;  /* per reason */
} undecided;

static void take_undecided(hl_findings *all, undecided *u) {
  size_t kept = 0;
  for (size_t i = 0; i < all->n; i++) {
    if (all->v[i]->undecided) HL_PUSH(u->sites.v, u->sites.n, u->sites.cap, all->v[i]);
    else all->v[kept++] = all->v[i];
  }
  all->n = kept;
  u->total = u->sites.n;
  u->count = hl_xcalloc(u->sites.n ? u->sites.n : 1, sizeof *u->count);
  for (size_t i = 0; i < u->sites.n; i++) {
    size_t r = 0;
    while (r < u->reasons.n && strcmp(u->reasons.v[r], u->sites.v[i]->undecided)) r++;
    if (r == u->reasons.n) hl_strv_add(&u->reasons, u->sites.v[i]->undecided);
    u->count[r]++;
  }
}

/* -v: each in clang's format, a header's once. */
static void list_undecided(const undecided *u) {
  for (size_t i = 0; i < u->sites.n; i++) {
    const hl_finding *f = u->sites.v[i];
    fprintf(stderr, "%s:%u:%u: remark: %s: %s\n", hl_display_path(f->loc.file), f->loc.line, f->loc.col, f->rule,
            f->message);
  }
}

/* "; 3 sites not decided: template-dependent (2), unnamed type (1)" */
static void undecided_summary(const undecided *u, int verbose, hl_sb *line) {
  if (!u->total) return;
  hl_sb_printf(line, "; %zu site%s not decided: ", u->total, u->total == 1 ? "" : "s");
  for (size_t r = 0; r < u->reasons.n; r++) hl_sb_printf(line, "%s%s (%zu)", r ? ", " : "", u->reasons.v[r], u->count[r]);
  if (!verbose) hl_sb_puts(line, "; -v lists them");
}

static void undecided_free(undecided *u) {
  hl_findings_free(&u->sites);
  hl_strv_free(&u->reasons);
  free(u->count);
}

/* Orders, deduplicates, suppresses (NOLINT, then the baseline) and
 * fingerprints the findings; takes out the undecided sites; writes
 * --write-baseline. */
static int filter(const hl_options *o, hl_pipeline_in *in, hl_sources *S, size_t *nolint, long *in_baseline,
                  undecided *u, int status) {
  char *err = NULL;
  hl_findings *all = &in->findings;
  /* Deduplicated first, so that a header's finding suppressed by NOLINT is
   * counted once; ordered again after, for the errors hl_suppress adds
   * (an unmatched NOLINTBEGIN). */
  hl_findings_finish(all);
  *nolint = hl_suppress(all, S, in->main_files.v, in->main_files.n);
  hl_findings_finish(all);
  hl_findings_fingerprint(all, S, in->root);
  take_undecided(all, u);
  if (o->write_baseline && hl_baseline_write(o->write_baseline, all, in->root, &err)) status = input_error(err);
  *in_baseline = 0;
  if (o->baseline && (*in_baseline = hl_baseline_apply(o->baseline, all, in->root, &err)) < 0) {
    status = input_error(err);
    *in_baseline = 0;
  }
  return status;
}

/* The report, on stdout or into -o's file (never half-written). */
static int emit(const hl_options *o, const hl_findings *all, hl_sources *S, const hl_emit_info *info) {
  hl_output out;
  FILE *f = hl_output_open(&out, o->output, "the report");
  if (!f) return -1;
  int rc = 0;
  if (!strcmp(o->format, "sarif")) rc = hl_emit_sarif(f, all, info);
  else if (!strcmp(o->format, "json")) rc = hl_emit_json(f, all, info);
  else hl_emit_text(f, all, S);
  if (rc && o->output) fprintf(stderr, "heaplint: error: %s: cannot write the report: %s\n", o->output, strerror(errno));
  return hl_output_close(&out, rc == 0);
}

/* "3 warnings in 2 files (libstdc++, x86_64); 1 suppressed by NOLINT" */
static void summary(const hl_pipeline_in *in, const hl_options *o, size_t warnings, size_t errors, size_t nolint,
                    long in_baseline, const undecided *u, const hl_fix_result *fixed) {
  hl_sb line = {0};
  hl_sb_printf(&line, "%zu warning%s", warnings, warnings == 1 ? "" : "s");
  if (errors) hl_sb_printf(&line, " and %zu error%s", errors, errors == 1 ? "" : "s");
  hl_sb_printf(&line, " in %zu file%s", in->analyzed, in->analyzed == 1 ? "" : "s");
  if (in->targets.n) {
    hl_sb_puts(&line, " (");
    for (size_t i = 0; i < in->targets.n; i++) hl_sb_printf(&line, "%s%s", i ? "; " : "", in->targets.v[i]);
    hl_sb_puts(&line, ")");
  }
  undecided_summary(u, o->verbose, &line);
  if (nolint) hl_sb_printf(&line, "; %zu suppressed by NOLINT", nolint);
  if (in_baseline) hl_sb_printf(&line, "; %ld in the baseline", in_baseline);
  if (o->fix)
    hl_sb_printf(&line, "; %zu fixed in %zu file%s%s", fixed->findings_fixed, fixed->files_written,
                 fixed->files_written == 1 ? "" : "s", fixed->findings_skipped ? ", some not (see above)" : "");
  if (in->failed) hl_sb_printf(&line, "; %zu file%s could not be parsed", in->failed, in->failed == 1 ? "" : "s");
  if (in->cached)
    hl_sb_printf(&line, "; cache: %zu hit%s, %zu miss%s", in->cache_hits, in->cache_hits == 1 ? "" : "s",
                 in->cache_misses, in->cache_misses == 1 ? "" : "es");
  fprintf(stderr, "%s\n", hl_sb_str(&line));
  hl_sb_free(&line);
}

int hl_pipeline_run(const hl_options *o, hl_pipeline_in *in, int status) {
  hl_findings *all = &in->findings;
  hl_sources *S = hl_sources_new();
  size_t nolint;
  long in_baseline;
  undecided u;
  memset(&u, 0, sizeof u);
  status = filter(o, in, S, &nolint, &in_baseline, &u, status);
  if (o->verbose) list_undecided(&u);
  if (o->report_undecided && strcmp(o->format, "text")) {
    hl_findings_take(all, &u.sites);
    hl_findings_finish(all);
  }
  hl_emit_info info = {HEAPLINT_VERSION, in->root,         in->rules,
                       in->nrules,       in->analyzed,     in->failed,
                       (const char *const *)in->failed_files.v};
  if (emit(o, all, S, &info)) status = HL_EXIT_INPUT;
  hl_sources_free(S);
  if (o->export_fixes) {
    char *err = NULL;
    char *build = hl_abspath(o->build_path ? o->build_path : ".");
    if (hl_fixes_export(o->export_fixes, all, in->first_file, build, &err)) status = input_error(err);
    free(build);
  }
  hl_fix_result fixed = {0};
  if (o->fix) hl_fixes_apply(all, stderr, &fixed);

  size_t warnings = 0, errors = 0;
  for (size_t i = 0; i < all->n; i++) {
    warnings += all->v[i]->severity == HL_SEV_WARNING;
    errors += all->v[i]->severity == HL_SEV_ERROR;
  }
  if (!o->quiet) summary(in, o, warnings, errors, nolint, in_baseline, &u, &fixed);
  undecided_free(&u);

  if (status == HL_EXIT_RAN && in->failed) status = HL_EXIT_PARSE;
  if (status == HL_EXIT_RAN && fixed.findings_skipped) status = HL_EXIT_UNFIXED;
  if (status == HL_EXIT_RAN && (errors || (warnings && o->werror))) status = HL_EXIT_FINDINGS;

  hl_strv_free(&in->targets);
  hl_strv_free(&in->failed_files);
  hl_strv_free(&in->main_files);
  hl_findings_free(all);
  return status;
}
