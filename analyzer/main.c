/* heaplint: the command-line tool. Reads the command line, builds the job
 * list and each job's configuration, analyzes the translation units (in
 * parallel), then filters the findings (NOLINT, baseline), hands them to
 * one emitter and prints a one-line summary on stderr.
 *
 * Exit status (also in --help and docs/cli.md): 0 ran; 1 errors, or
 * warnings with --werror; 2 usage or input error; 3 a translation unit
 * could not be parsed. When several apply, the highest wins. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <clang-c/Index.h>

#include "engine/rule.h"
#include "engine/analyze.h"
#include "report/baseline.h"
#include "calibrate/calibrate.h"
#include "input/cli.h"
#include "input/config.h"
#include "report/emit.h"
#include "report/fixes.h"
#include "input/jobs.h"
#include "input/profile.h"
#include "engine/runner.h"
#include "report/source.h"
#include "report/suppress.h"
#include "util/util.h"

enum { EXIT_RAN = 0, EXIT_FINDINGS = 1, EXIT_INPUT = 2, EXIT_PARSE = 3, EXIT_UNFIXED = 4 };

static void print_version(void) {
  CXString v = clang_getClangVersion();
  printf("heaplint %s (%s)\n", HEAPLINT_VERSION, clang_getCString(v));
  clang_disposeString(v);
}

static void list_rules(void) {
  for (size_t i = 0; hl_rules[i]; i++) printf("%-16s %s\n", hl_rules[i]->id, hl_rules[i]->summary);
}

static int load_profiles(const hl_options *o, hl_profile_set *set) {
  char *err = NULL;
  char *dir = o->profile_dir ? hl_xstrdup(o->profile_dir) : hl_profiles_default_dir();
  int rc = hl_profiles_load_dir(set, dir, &err);
  for (size_t i = 0; !rc && i < o->profiles.n; i++) rc = hl_profiles_add_extra(set, o->profiles.v[i], &err);
  /* A profile naming a rule heaplint does not have is a typo, not a wish. */
  for (size_t i = 0; !rc && i < set->nbase + set->nextra; i++) {
    const hl_profile *p = i < set->nbase ? set->base[i] : set->extra[i - set->nbase];
    for (size_t k = 0; !rc && k < p->nwrappers; k++)
      if (!hl_rule_find(p->wrappers[k].rule)) {
        err = hl_xasprintf("%s: wrapper '%s' names an unknown rule '%s' (see heaplint --list-rules)", p->path,
                           p->wrappers[k].name, p->wrappers[k].rule);
        rc = -1;
      }
  }
  if (rc) {
    fprintf(stderr, "heaplint: error: %s\n", err);
    free(err);
  }
  free(dir);
  return rc;
}

static void add_unique(hl_msgs *m, const char *s) {
  for (size_t i = 0; i < m->n; i++)
    if (!strcmp(m->v[i], s)) return;
  hl_msgs_add(m, "%s", s);
}

/* Everything written to stdout reached it (a full disk, a closed pipe, a
 * file over quota would otherwise pass silently with exit status 0). */
static int stdout_ok(void) {
  if (fflush(stdout) == 0 && !ferror(stdout)) return 1;
  fprintf(stderr, "heaplint: error: cannot write to standard output: %s\n", strerror(errno));
  return 0;
}

static const char merge_usage[] =
    "usage: heaplint merge-sarif [-o <file>] <log.sarif>...\n"
    "\n"
    "Joins the SARIF logs of heaplint's shards (--shard=k/n --format=sarif) into\n"
    "one: the rules' union, every result once, in file and line order, and every\n"
    "shard's notifications. Written to stdout, or with -o through a temporary\n"
    "file and a rename.\n";

static int merge_sarif(int argc, char **argv) {
  char *err = NULL;
  const char *output = NULL;
  char **logs = hl_xcalloc((size_t)argc, sizeof *logs);
  size_t nlogs = 0;
  int rc = EXIT_RAN;
  for (int i = 2; i < argc; i++) {
    int matched = 0;
    const char *v = hl_option_value(argc, argv, &i, "-o", &matched);
    if (matched) {
      if (!v || !*v) {
        fprintf(stderr, "heaplint: error: merge-sarif: option '-o' needs a value\n");
        rc = EXIT_INPUT;
        goto out;
      }
      output = v;
    } else if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
      fputs(merge_usage, stdout);
      rc = stdout_ok() ? EXIT_RAN : EXIT_INPUT;
      goto out;
    } else if (!strcmp(argv[i], "--")) {
      while (++i < argc) logs[nlogs++] = argv[i];
    } else if (argv[i][0] == '-' && argv[i][1]) {
      fprintf(stderr, "heaplint: error: merge-sarif: unknown option '%s' (see heaplint merge-sarif --help)\n", argv[i]);
      rc = EXIT_INPUT;
      goto out;
    } else {
      logs[nlogs++] = argv[i];
    }
  }
  if (!nlogs) {
    fprintf(stderr, "heaplint: error: usage: heaplint merge-sarif [-o <file>] <log.sarif>...\n");
    rc = EXIT_INPUT;
    goto out;
  }
  char *buf = NULL;
  size_t len = 0;
  FILE *out = output ? open_memstream(&buf, &len) : stdout;
  if (!out) {
    fprintf(stderr, "heaplint: error: %s: cannot write: %s\n", output, strerror(errno));
    rc = EXIT_INPUT;
    goto out;
  }
  if (hl_sarif_merge(out, logs, nlogs, &err)) {
    fprintf(stderr, "heaplint: error: %s\n", err);
    free(err);
    err = NULL;
    rc = EXIT_INPUT;
  }
  if (!output) {
    if (rc == EXIT_RAN && !stdout_ok()) rc = EXIT_INPUT; /* else already said */
  } else {
    if (fclose(out) != 0 && rc == EXIT_RAN) {
      fprintf(stderr, "heaplint: error: %s: cannot write: %s\n", output, strerror(errno));
      rc = EXIT_INPUT;
    }
    if (rc == EXIT_RAN && hl_write_file_atomic(output, buf, len, &err)) {
      fprintf(stderr, "heaplint: error: %s\n", err);
      free(err);
      rc = EXIT_INPUT;
    }
    free(buf);
  }
out:
  free(logs);
  return rc;
}

/* The report, on stdout or into -o's file (never half-written). */
static int emit(const hl_options *o, const hl_findings *all, hl_sources *S, const hl_emit_info *info) {
  char *buf = NULL;
  size_t len = 0;
  FILE *out = o->output ? open_memstream(&buf, &len) : stdout;
  if (!out) {
    fprintf(stderr, "heaplint: error: %s: cannot write the report: %s\n", o->output, strerror(errno));
    return -1;
  }
  int rc = 0;
  if (!strcmp(o->format, "sarif")) rc = hl_emit_sarif(out, all, info);
  else if (!strcmp(o->format, "json")) rc = hl_emit_json(out, all, info);
  else hl_emit_text(out, all, S);
  if (!o->output) return stdout_ok() && rc == 0 ? 0 : -1;
  if (fclose(out) != 0) rc = -1;
  char *err = NULL;
  if (rc != 0) {
    fprintf(stderr, "heaplint: error: %s: cannot write the report: %s\n", o->output, strerror(errno));
  } else if (hl_write_file_atomic(o->output, buf, len, &err)) {
    fprintf(stderr, "heaplint: error: %s\n", err);
    free(err);
    rc = -1;
  }
  free(buf);
  return rc;
}

int main(int argc, char **argv) {
  if (argc > 1 && !strcmp(argv[1], "merge-sarif")) return merge_sarif(argc, argv);
  if (argc > 1 && !strcmp(argv[1], "calibrate")) return hl_calibrate_main(argc - 1, argv + 1);
  hl_options o;
  char *err = NULL;
  if (hl_cli_parse(argc, argv, &o, &err)) {
    fprintf(stderr, "heaplint: error: %s\n", err);
    free(err);
    hl_cli_free(&o);
    return EXIT_INPUT;
  }
  if (o.help || o.version || o.list_rules) {
    if (o.help) fputs(hl_cli_usage, stdout);
    else if (o.version) print_version();
    else list_rules();
    hl_cli_free(&o);
    return stdout_ok() ? EXIT_RAN : EXIT_INPUT;
  }
  /* Paths are made relative to the current directory from many threads:
   * learn it once, first. */
  hl_display_path("");

  int status = EXIT_RAN;
  hl_profile_set profiles = {0};
  hl_jobs jobs = {0};
  hl_msgs errs = {0};
  hl_configs *configs = hl_configs_new(o.config_file);
  char *root = hl_abspath(o.source_root ? o.source_root : ".");
  const hl_config **job_config = NULL;
  hl_tu_result *results = NULL;
  if (load_profiles(&o, &profiles)) {
    status = EXIT_INPUT;
    goto done;
  }
  /* A baseline that cannot be used stops the run before the analysis, as a
   * bad configuration does: not every finding printed, then exit 2. */
  if (o.baseline && hl_baseline_check(o.baseline, &err)) {
    fprintf(stderr, "heaplint: error: %s\n", err);
    free(err);
    status = EXIT_INPUT;
    goto done;
  }
  int db_unusable = 0;
  /* After "--" the command line is the compile command, as in clang-tidy;
   * -p is then only a hint a build system passes along. */
  if (o.build_path && !o.dashdash)
    db_unusable = hl_jobs_from_db(&jobs, o.build_path, o.files.v, o.files.n, &errs) != 0;
  else
    hl_jobs_from_args(&jobs, o.files.v, o.files.n, o.flags.v, o.flags.n, &errs);
  for (size_t i = 0; i < errs.n; i++) fprintf(stderr, "heaplint: error: %s\n", errs.v[i]);
  if (errs.n || db_unusable) status = EXIT_INPUT;
  hl_jobs_extra_args(&jobs, o.extra_before.v, o.extra_before.n, o.extra_after.v, o.extra_after.n);
  if (o.shard_n) hl_jobs_shard(&jobs, o.shard_k, o.shard_n);

  /* Every job's configuration, before any analysis: a bad one stops the run. */
  job_config = hl_xcalloc(jobs.n ? jobs.n : 1, sizeof *job_config);
  for (size_t i = 0; i < jobs.n; i++)
    if (hl_config_for(configs, jobs.v[i].file, &job_config[i], &err)) {
      fprintf(stderr, "heaplint: error: %s\n", err);
      free(err);
      status = EXIT_INPUT;
      goto done;
    }
  if (o.dump_config) {
    const char *ids[64];
    size_t n = 0;
    for (; hl_rules[n] && n < 63; n++) ids[n] = hl_rules[n]->id;
    ids[n] = NULL;
    const hl_config *c = NULL;
    /* No file: the configuration of the source root itself, its own
     * .heaplint.yaml included (a path inside it, for the walk up). */
    char *inside = hl_xasprintf("%s/", root);
    int bad = jobs.n == 0 && hl_config_for(configs, inside, &c, &err);
    free(inside);
    if (bad) {
      fprintf(stderr, "heaplint: error: %s\n", err);
      free(err);
      status = EXIT_INPUT;
      goto done;
    }
    for (size_t i = 0; i < (jobs.n ? jobs.n : 1); i++)
      hl_config_dump(stdout, jobs.n ? job_config[i] : c, jobs.n ? jobs.v[i].file : root, ids);
    if (!stdout_ok()) status = EXIT_INPUT;
    goto done;
  }

  hl_run run;
  memset(&run, 0, sizeof run);
  run.profiles = &profiles;
  run.verbose = o.verbose;
  pthread_mutex_init(&run.lock, NULL);
  results = hl_xcalloc(jobs.n ? jobs.n : 1, sizeof *results);
  hl_run_jobs(&run, &jobs, job_config, o.jobs, isatty(STDERR_FILENO), results);
  pthread_mutex_destroy(&run.lock);
  hl_msgs_free(&run.warned);

  hl_findings findings = {0};
  size_t analyzed = 0, failed = 0;
  hl_msgs targets = {0}, failed_files = {0}, main_files = {0};
  for (size_t i = 0; i < jobs.n; i++) {
    hl_tu_result *r = &results[i];
    if (r->result == HL_ANALYZED) {
      hl_sb t = {0};
      hl_sb_printf(&t, "%s, %s", r->library ? r->library : "no standard library", r->arch);
      if (r->nprofiles > 1) {
        hl_sb_puts(&t, "; profiles: ");
        for (size_t k = 0; k < r->nprofiles; k++) hl_sb_printf(&t, "%s%s", k ? ", " : "", r->profiles[k]);
      }
      add_unique(&targets, hl_sb_str(&t));
      hl_sb_free(&t);
      /* A file the database lists twice (two configurations) is one file. */
      size_t before = main_files.n;
      add_unique(&main_files, jobs.v[i].file);
      analyzed += main_files.n > before;
    } else {
      size_t before = failed_files.n;
      add_unique(&failed_files, jobs.v[i].file);
      failed += failed_files.n > before;
    }
    hl_findings_take(&findings, &r->findings);
  }

  hl_sources *S = hl_sources_new();
  hl_findings_finish(&findings);
  size_t nolint = hl_suppress(&findings, S, main_files.v, main_files.n);
  hl_findings_finish(&findings);
  hl_findings_fingerprint(&findings, S, root);
  /* The sites not decided are no findings: out of the baseline, the counts
   * and the text report. -v lists them; json and sarif carry them with
   * --report-undecided. */
  hl_findings undecided = {0};
  size_t kept = 0;
  for (size_t i = 0; i < findings.n; i++) {
    if (findings.v[i]->undecided) HL_PUSH(undecided.v, undecided.n, undecided.cap, findings.v[i]);
    else findings.v[kept++] = findings.v[i];
  }
  findings.n = kept;
  hl_msgs reasons = {0};
  size_t *per_reason = hl_xcalloc(undecided.n ? undecided.n : 1, sizeof *per_reason);
  for (size_t i = 0; i < undecided.n; i++) {
    const hl_finding *f = undecided.v[i];
    size_t r = 0;
    while (r < reasons.n && strcmp(reasons.v[r], f->undecided)) r++;
    if (r == reasons.n) hl_msgs_add(&reasons, "%s", f->undecided);
    per_reason[r]++;
    if (o.verbose)
      fprintf(stderr, "%s:%u:%u: remark: %s: %s\n", hl_display_path(f->loc.file), f->loc.line, f->loc.col, f->rule,
              f->message);
  }
  size_t nundecided = undecided.n;
  if (o.write_baseline && hl_baseline_write(o.write_baseline, &findings, root, &err)) {
    fprintf(stderr, "heaplint: error: %s\n", err);
    free(err);
    status = EXIT_INPUT;
  }
  long in_baseline = 0;
  if (o.baseline && (in_baseline = hl_baseline_apply(o.baseline, &findings, root, &err)) < 0) {
    fprintf(stderr, "heaplint: error: %s\n", err);
    free(err);
    status = EXIT_INPUT;
    in_baseline = 0;
  }

  hl_rule_info infos[64];
  size_t ninfos = 0;
  for (; hl_rules[ninfos] && ninfos < 64; ninfos++)
    infos[ninfos] = (hl_rule_info){hl_rules[ninfos]->id, hl_rules[ninfos]->summary, hl_rules[ninfos]->description};
  hl_emit_info info = {HEAPLINT_VERSION, root, infos, ninfos, analyzed, failed, (const char *const *)failed_files.v};
  if (o.report_undecided && strcmp(o.format, "text")) {
    hl_findings_take(&findings, &undecided);
    hl_findings_finish(&findings);
  }
  if (emit(&o, &findings, S, &info)) status = EXIT_INPUT;
  hl_sources_free(S);
  if (o.export_fixes) {
    char *build = hl_abspath(o.build_path ? o.build_path : ".");
    if (hl_fixes_export(o.export_fixes, &findings, jobs.n ? jobs.v[0].file : "", build, &err)) {
      fprintf(stderr, "heaplint: error: %s\n", err);
      free(err);
      status = EXIT_INPUT;
    }
    free(build);
  }
  hl_fix_result fixed = {0};
  if (o.fix) hl_fixes_apply(&findings, stderr, &fixed);

  size_t warnings = 0, errors = 0;
  for (size_t i = 0; i < findings.n; i++) {
    warnings += findings.v[i]->severity == HL_SEV_WARNING;
    errors += findings.v[i]->severity == HL_SEV_ERROR;
  }
  if (!o.quiet) {
    hl_sb line = {0};
    hl_sb_printf(&line, "%zu warning%s", warnings, warnings == 1 ? "" : "s");
    if (errors) hl_sb_printf(&line, " and %zu error%s", errors, errors == 1 ? "" : "s");
    hl_sb_printf(&line, " in %zu file%s", analyzed, analyzed == 1 ? "" : "s");
    if (targets.n) {
      hl_sb_puts(&line, " (");
      for (size_t i = 0; i < targets.n; i++) hl_sb_printf(&line, "%s%s", i ? "; " : "", targets.v[i]);
      hl_sb_puts(&line, ")");
    }
    if (nundecided) {
      hl_sb_printf(&line, "; %zu site%s not decided: ", nundecided, nundecided == 1 ? "" : "s");
      for (size_t r = 0; r < reasons.n; r++) hl_sb_printf(&line, "%s%s (%zu)", r ? ", " : "", reasons.v[r], per_reason[r]);
      if (!o.verbose) hl_sb_puts(&line, "; -v lists them");
    }
    if (nolint) hl_sb_printf(&line, "; %zu suppressed by NOLINT", nolint);
    if (in_baseline) hl_sb_printf(&line, "; %ld in the baseline", in_baseline);
    if (o.fix)
      hl_sb_printf(&line, "; %zu fixed in %zu file%s%s", fixed.findings_fixed, fixed.files_written,
                   fixed.files_written == 1 ? "" : "s", fixed.findings_skipped ? ", some not (see above)" : "");
    if (failed) hl_sb_printf(&line, "; %zu file%s could not be parsed", failed, failed == 1 ? "" : "s");
    fprintf(stderr, "%s\n", hl_sb_str(&line));
    hl_sb_free(&line);
  }

  if (status == EXIT_RAN && failed) status = EXIT_PARSE;
  if (status == EXIT_RAN && fixed.findings_skipped) status = EXIT_UNFIXED;
  if (status == EXIT_RAN && (errors || (warnings && o.werror))) status = EXIT_FINDINGS;

  hl_msgs_free(&targets);
  hl_msgs_free(&failed_files);
  hl_msgs_free(&main_files);
  hl_msgs_free(&reasons);
  free(per_reason);
  hl_findings_free(&undecided);
  hl_findings_free(&findings);
done:
  for (size_t i = 0; results && i < jobs.n; i++) hl_tu_result_free(&results[i]);
  free(results);
  free(job_config);
  free(root);
  hl_configs_free(configs);
  hl_msgs_free(&errs);
  hl_jobs_free(&jobs);
  hl_profiles_free(&profiles);
  hl_cli_free(&o);
  return status;
}
