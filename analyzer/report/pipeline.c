#include "report/pipeline.h"

#include "report/apis.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "report/apis.h"
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
  size_t total; /* sites stays with them only until json or sarif takes them */
  hl_strv reasons;
  size_t *count; /* per reason */
} undecided;

struct hl_pipeline {
  const hl_options *o;
  const char *root;
  int stream;
  int colour;
  int status;
  hl_sources *S;
  hl_output out;
  FILE *f;          /* the report's stream, NULL when it cannot be written */
  hl_strcount seen; /* every finding given so far, by hl_finding_key */
  hl_strcount fingerprints;
  hl_baseline *baseline;
  hl_findings all;  /* the findings reported */
  hl_findings held; /* those the baseline held back, for --write-baseline */
  size_t nolint, in_baseline;
  undecided u;
  const hl_line_filter *lines;
};

/* The undecided sites of a unit out of found, into u; -v lists them, in
 * clang's format. */
static void take_undecided(hl_findings *found, undecided *u, int verbose) {
  size_t kept = 0;
  for (size_t i = 0; i < found->n; i++) {
    hl_finding *f = found->v[i];
    if (!f->undecided) {
      found->v[kept++] = f;
      continue;
    }
    if (verbose)
      fprintf(stderr, "%s:%u:%u: remark: %s: %s\n", hl_display_path(f->loc.file), f->loc.line, f->loc.col, f->rule,
              f->message);
    size_t r = hl_str_index(f->undecided, (const char *const *)u->reasons.v, u->reasons.n);
    if (r == u->reasons.n) {
      hl_strv_add(&u->reasons, f->undecided);
      u->count = hl_xrealloc(u->count, u->reasons.n * sizeof *u->count);
      u->count[r] = 0;
    }
    u->count[r]++;
    u->total++;
    hl_findings_add(&u->sites, f);
  }
  found->n = kept;
}

/* "; 3 sites not decided: template-dependent (2), unnamed type (1)" */
static void undecided_summary(const undecided *u, int verbose, hl_sb *line) {
  if (!u->total) return;
  hl_sb_printf(line, "; %zu site%s not decided: ", u->total, u->total == 1 ? "" : "s");
  for (size_t r = 0; r < u->reasons.n; r++)
    hl_sb_printf(line, "%s%s (%zu)", r ? ", " : "", u->reasons.v[r], u->count[r]);
  if (!verbose) hl_sb_puts(line, "; -v lists them");
}

static void undecided_free(undecided *u) {
  hl_findings_free(&u->sites);
  hl_strv_free(&u->reasons);
  free(u->count);
}

size_t hl_findings_settle(hl_findings *all, hl_sources *S, char *const *main_files, size_t nmain) {
  /* Deduplicated first, so that a header's finding suppressed by NOLINT is
   * counted once; ordered again after, for the errors hl_suppress adds
   * (an unmatched NOLINTBEGIN). */
  hl_findings errors = {0};
  hl_findings_finish(all);
  size_t nolint = hl_suppress(all, S, main_files, nmain, &errors);
  hl_findings_take(all, &errors);
  hl_findings_finish(all);
  return nolint;
}

/* -line-filter and --diff: only findings on the lines they name. A compile
 * error is always shown, as clang-tidy shows it whatever the filters. */
static void drop_filtered_lines(hl_findings *all, const hl_line_filter *lines) {
  if (!lines) return;
  size_t kept = 0;
  for (size_t i = 0; i < all->n; i++) {
    hl_finding *f = all->v[i];
    if (hl_finding_is_compile_error(f) || hl_line_filter_passes(lines, f->loc.file, f->loc.line))
      all->v[kept++] = f;
    else
      hl_finding_free(f);
  }
  all->n = kept;
}

/* --color: always, never, or (auto) when the report goes to a terminal
 * that has colours and NO_COLOR (no-color.org) is not set. */
static int use_colour(const hl_options *o) {
  if (o->color >= 0) return o->color;
  const char *no = getenv("NO_COLOR"), *term = getenv("TERM");
  return !o->output && isatty(STDOUT_FILENO) && !(no && *no) && term && *term && strcmp(term, "dumb");
}

hl_pipeline *hl_pipeline_new(const hl_options *o, const char *root, const hl_line_filter *lines) {
  hl_pipeline *P = hl_xcalloc(1, sizeof *P);
  P->o = o;
  P->root = root;
  P->lines = lines;
  P->stream = !strcmp(o->format, "text");
  P->colour = use_colour(o);
  P->S = hl_sources_new();
  P->f = hl_output_open(&P->out, o->output, "the report");
  if (!P->f) P->status = HL_EXIT_INPUT;
  char *err = NULL;
  if (o->baseline && !(P->baseline = hl_baseline_load(o->baseline, &err))) P->status = input_error(err);
  return P;
}

int hl_pipeline_streams(const hl_pipeline *P) { return P->stream; }

/* Drops from found what an earlier unit gave already: a header's finding
 * is reported (and suppressed, and counted) once. */
static void drop_seen(hl_pipeline *P, hl_findings *found) {
  size_t kept = 0;
  for (size_t i = 0; i < found->n; i++) {
    char *key = hl_finding_key(found->v[i]);
    size_t *n = hl_strcount_at(&P->seen, key);
    free(key);
    if ((*n)++)
      hl_finding_free(found->v[i]);
    else
      found->v[kept++] = found->v[i];
  }
  found->n = kept;
}

/* Orders and deduplicates a unit's findings, suppresses what NOLINT says
 * (errors for unmatched NOLINTBEGIN added), takes out the undecided sites,
 * fingerprints them and drops what the baseline records. */
static void filter(hl_pipeline *P, hl_findings *found, char *const *files, size_t nfiles) {
  hl_findings errors = {0};
  hl_findings_finish(found);
  drop_seen(P, found);
  P->nolint += hl_suppress(found, P->S, files, nfiles, &errors);
  hl_findings_finish(&errors);
  drop_seen(P, &errors);
  hl_findings_take(found, &errors);
  hl_findings_finish(found);
  drop_filtered_lines(found, P->lines);
  take_undecided(found, &P->u, P->o->verbose);
  hl_findings_fingerprint(found, P->S, P->root, &P->fingerprints);
  if (P->baseline)
    P->in_baseline += hl_baseline_filter(P->baseline, found, P->root, P->o->write_baseline ? &P->held : NULL);
}

void hl_pipeline_unit(hl_pipeline *P, hl_findings *found, char *const *files, size_t nfiles) {
  filter(P, found, files, nfiles);
  if (P->stream && P->f) {
    hl_emit_text(P->f, found, P->S, P->colour);
    fflush(P->f);
  }
  hl_findings_take(&P->all, found);
}

/* --write-baseline: every finding but NOLINT's, the baseline's own too,
 * fingerprinted in file, line and column order whatever order the units
 * came in. */
static void write_baseline(hl_pipeline *P) {
  hl_findings every = {0};
  for (size_t i = 0; i < P->all.n; i++)
    if (!P->all.v[i]->whole_project) hl_findings_add(&every, P->all.v[i]);
  for (size_t i = 0; i < P->held.n; i++) hl_findings_add(&every, P->held.v[i]);
  hl_findings_finish(&every);
  hl_findings_fingerprint(&every, P->S, P->root, NULL);
  char *err = NULL;
  if (hl_baseline_write(P->o->write_baseline, &every, P->root, &err)) P->status = input_error(err);
  free(every.v);
}

/* The report, unless streamed: on stdout or into -o's file (never
 * half-written). */
static void emit(hl_pipeline *P, const hl_emit_info *info) {
  const hl_options *o = P->o;
  int rc = 0;
  if (!P->f) return;
  if (!strcmp(o->format, "sarif"))
    rc = hl_emit_sarif(P->f, &P->all, info, P->S);
  else if (!strcmp(o->format, "json"))
    rc = hl_emit_json(P->f, &P->all, info);
  else if (!P->stream)
    hl_emit_text(P->f, &P->all, P->S, P->colour);
  if (rc && o->output)
    fprintf(stderr, "heaplint: error: %s: cannot write the report: %s\n", o->output, strerror(errno));
  if (hl_output_close(&P->out, rc == 0)) P->status = HL_EXIT_INPUT;
}

/* The findings whose fix --fix applies (fixable), and those it applies
 * only with --fix-errors, their unit having compile errors. */
typedef struct fix_counts {
  size_t now, with_errors;
} fix_counts;

static fix_counts count_fixable(const hl_findings *all, const hl_options *o) {
  fix_counts n = {0, 0};
  for (size_t i = 0; i < all->n; i++) {
    const hl_finding *f = all->v[i];
    if (!f->nedits || f->severity == HL_SEV_NOTE) continue;
    if (f->unit_has_errors && !o->fix_errors)
      n.with_errors++;
    else
      n.now++;
  }
  return n;
}

/* "; 5 fixable with --fix, 1 more with --fix-errors", as ruff and
 * clang-tidy say what their fix would do; nothing after --fix, whose
 * clause says what it did. */
static void fixable_summary(const fix_counts *n, const hl_options *o, hl_sb *line) {
  if (o->fix) return;
  if (n->now) hl_sb_printf(line, "; %zu fixable with --fix", n->now);
  if (n->with_errors)
    hl_sb_printf(line, n->now ? ", %zu more with --fix-errors" : "; %zu fixable with --fix-errors", n->with_errors);
}

/* "3 warnings in 2 files (libstdc++, x86_64); 1 suppressed by NOLINT; 2
 * fixable with --fix; cache: 2 hits, 0 misses" */
static void summary(const hl_pipeline *P, const hl_pipeline_in *in, size_t warnings, size_t errors,
                    const fix_counts *fixable, const hl_fix_result *fixed) {
  const hl_options *o = P->o;
  hl_sb line = {0};
  hl_sb_printf(&line, "%zu warning%s", warnings, warnings == 1 ? "" : "s");
  if (errors) hl_sb_printf(&line, " and %zu error%s", errors, errors == 1 ? "" : "s");
  hl_sb_printf(&line, " in %zu file%s", in->analyzed, in->analyzed == 1 ? "" : "s");
  if (in->targets.n) {
    hl_sb_puts(&line, " (");
    for (size_t i = 0; i < in->targets.n; i++) hl_sb_printf(&line, "%s%s", i ? "; " : "", in->targets.v[i]);
    hl_sb_puts(&line, ")");
  }
  undecided_summary(&P->u, o->verbose, &line);
  if (P->nolint) hl_sb_printf(&line, "; %zu suppressed by NOLINT", P->nolint);
  if (P->in_baseline) hl_sb_printf(&line, "; %zu in the baseline", P->in_baseline);
  fixable_summary(fixable, o, &line);
  if (o->fix)
    hl_sb_printf(&line, "; %zu fixed in %zu file%s%s", fixed->findings_fixed, fixed->files_written,
                 fixed->files_written == 1 ? "" : "s", fixed->findings_skipped ? ", some not (see above)" : "");
  if (in->with_errors)
    hl_sb_printf(&line, "; %zu file%s with compile errors", in->with_errors, in->with_errors == 1 ? "" : "s");
  if (in->failed) hl_sb_printf(&line, "; %zu file%s could not be parsed", in->failed, in->failed == 1 ? "" : "s");
  if (in->cached)
    hl_sb_printf(&line, "; cache: %zu hit%s, %zu miss%s", in->cache_hits, in->cache_hits == 1 ? "" : "s",
                 in->cache_misses, in->cache_misses == 1 ? "" : "es");
  hl_apis_print(stderr, in->apis, in->napis, o->verbose);
  fprintf(stderr, "%s\n", hl_sb_str(&line));
  hl_sb_free(&line);
}

/* --fix: nothing from a translation unit with compile errors (what libclang
 * recovered of it may not be what the code means), unless --fix-errors; as
 * clang-tidy, which says so. */
static void apply_fixes(const hl_options *o, const hl_findings *all, const hl_pipeline_in *in, hl_fix_result *fixed) {
  hl_findings some = {0};
  for (size_t i = 0; i < all->n; i++)
    if (!all->v[i]->unit_has_errors || o->fix_errors) hl_findings_add(&some, all->v[i]);
  for (size_t i = 0; i < in->error_files.n && !o->fix_errors; i++)
    fprintf(stderr,
            "heaplint: note: %s: it has compile errors: no fix from it is applied (--fix-errors applies them)\n",
            hl_display_path(in->error_files.v[i]));
  hl_fixes_apply(&some, in->fix_check.check ? &in->fix_check : NULL, stderr, fixed);
  free(some.v);
}

static void pipeline_free(hl_pipeline *P) {
  undecided_free(&P->u);
  hl_sources_free(P->S);
  hl_strcount_free(&P->seen);
  hl_strcount_free(&P->fingerprints);
  hl_baseline_free(P->baseline);
  hl_findings_free(&P->all);
  hl_findings_free(&P->held);
  free(P);
}

void hl_pipeline_discard(hl_pipeline *P) {
  if (P->f) hl_output_close(&P->out, 0);
  pipeline_free(P);
}

static void pipeline_in_free(hl_pipeline_in *in) {
  hl_strv_free(&in->targets);
  hl_strv_free(&in->failed_files);
  hl_strv_free(&in->error_files);
  hl_strv_free(&in->main_files);
  hl_findings_free(&in->findings);
  hl_api_figures_free(in->apis, in->napis);
}

int hl_pipeline_finish(hl_pipeline *P, hl_pipeline_in *in, int status) {
  const hl_options *o = P->o;
  if (in->findings.n || !P->stream) hl_pipeline_unit(P, &in->findings, in->main_files.v, in->main_files.n);
  if (o->write_baseline) write_baseline(P);
  if (o->report_undecided && strcmp(o->format, "text")) hl_findings_take(&P->all, &P->u.sites);
  /* The order of the documents, of the exported fixes and of --fix's
   * messages, streamed or not. */
  hl_findings_finish(&P->all);
  fix_counts fixable = count_fixable(&P->all, o);
  hl_emit_info info = {HEAPLINT_VERSION, o->docs_url,  P->root,    in->rules,
                       in->nrules,       in->analyzed, in->failed, (const char *const *)in->failed_files.v,
                       in->apis,         in->napis,    fixable.now};
  emit(P, &info);
  if (o->export_fixes) {
    char *err = NULL;
    char *build = hl_abspath(o->build_path ? o->build_path : ".");
    if (hl_fixes_export(o->export_fixes, &P->all, in->first_file, build, &err)) P->status = input_error(err);
    free(build);
  }
  hl_fix_result fixed = {0};
  if (o->fix) apply_fixes(o, &P->all, in, &fixed);

  size_t warnings = 0, errors = 0;
  for (size_t i = 0; i < P->all.n; i++) {
    warnings += P->all.v[i]->severity == HL_SEV_WARNING;
    errors += P->all.v[i]->severity == HL_SEV_ERROR;
  }
  if (!o->quiet) summary(P, in, warnings, errors, &fixable, &fixed);
  if (status == HL_EXIT_RAN) status = P->status;
  if (status == HL_EXIT_RAN && (in->failed || in->with_errors)) status = HL_EXIT_PARSE;
  if (status == HL_EXIT_RAN && fixed.findings_skipped) status = HL_EXIT_UNFIXED;
  if (status == HL_EXIT_RAN && (errors || (warnings && o->werror))) status = HL_EXIT_FINDINGS;
  pipeline_free(P);
  pipeline_in_free(in);
  return status;
}
