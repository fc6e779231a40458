/* heaplint: the command-line tool. Reads the command line, builds the job
 * list, analyzes each translation unit, then hands the deduplicated findings
 * to the emitter and prints a one-line summary on stderr.
 *
 * Exit status (also in --help and docs/cli.md): 0 ran; 1 warnings with
 * --werror; 2 usage or input error; 3 a translation unit could not be parsed.
 * When several apply, the highest wins. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <clang-c/Index.h>

#include "../rules/rule.h"
#include "analyze.h"
#include "cli.h"
#include "emit.h"
#include "jobs.h"
#include "profile.h"
#include "util.h"

enum { EXIT_RAN = 0, EXIT_FINDINGS = 1, EXIT_INPUT = 2, EXIT_PARSE = 3 };

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

static int is_empty_file(const char *path) {
  struct stat st;
  return stat(path, &st) == 0 && S_ISREG(st.st_mode) && st.st_size == 0;
}

static void add_unique(hl_msgs *m, const char *s) {
  for (size_t i = 0; i < m->n; i++)
    if (!strcmp(m->v[i], s)) return;
  hl_msgs_add(m, "%s", s);
}

int main(int argc, char **argv) {
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
    return EXIT_RAN;
  }

  int status = EXIT_RAN;
  hl_profile_set profiles = {0};
  hl_jobs jobs = {0};
  hl_msgs errs = {0};
  if (load_profiles(&o, &profiles)) {
    status = EXIT_INPUT;
    goto done;
  }
  int db_unusable = 0;
  if (o.build_path)
    db_unusable = hl_jobs_from_db(&jobs, o.build_path, o.files.v, o.files.n, &errs) != 0;
  else
    hl_jobs_from_args(&jobs, o.files.v, o.files.n, o.flags.v, o.flags.n, &errs);
  for (size_t i = 0; i < errs.n; i++) fprintf(stderr, "heaplint: error: %s\n", errs.v[i]);
  if (errs.n || db_unusable) status = EXIT_INPUT;
  hl_jobs_extra_args(&jobs, o.extra_before.v, o.extra_before.n, o.extra_after.v, o.extra_after.n);

  hl_findings findings = {0};
  hl_run run;
  memset(&run, 0, sizeof run);
  run.index = clang_createIndex(0, 0);
  run.profiles = &profiles;
  run.rules = hl_rules;
  run.cache = hl_trait_cache_new();
  run.out = &findings;
  run.verbose = o.verbose;

  size_t analyzed = 0, failed = 0;
  hl_msgs targets = {0};
  for (size_t i = 0; i < jobs.n; i++) {
    const hl_job *job = &jobs.v[i];
    if (is_empty_file(job->file))
      fprintf(stderr, "heaplint: warning: %s: the file is empty; nothing to analyze\n", hl_display_path(job->file));
    hl_tu_summary sum;
    if (hl_analyze(&run, job, &sum) == HL_ANALYZED) {
      analyzed++;
      char *t = hl_xasprintf("%s, %s", sum.library ? sum.library : "no standard library", sum.arch);
      add_unique(&targets, t);
      free(t);
    } else {
      failed++;
    }
    free(sum.library);
    free(sum.arch);
  }

  hl_findings_finish(&findings);
  hl_emit_text(stdout, &findings);
  fflush(stdout);

  size_t warnings = findings.n;
  hl_sb line = {0};
  hl_sb_printf(&line, "%zu warning%s in %zu file%s", warnings, warnings == 1 ? "" : "s", analyzed,
               analyzed == 1 ? "" : "s");
  if (targets.n) {
    hl_sb_puts(&line, " (");
    for (size_t i = 0; i < targets.n; i++) hl_sb_printf(&line, "%s%s", i ? "; " : "", targets.v[i]);
    hl_sb_puts(&line, ")");
  }
  if (failed) hl_sb_printf(&line, "; %zu file%s could not be parsed", failed, failed == 1 ? "" : "s");
  fprintf(stderr, "%s\n", hl_sb_str(&line));
  hl_sb_free(&line);

  if (status == EXIT_RAN && failed) status = EXIT_PARSE;
  if (status == EXIT_RAN && warnings && o.werror) status = EXIT_FINDINGS;

  hl_msgs_free(&targets);
  hl_msgs_free(&run.warned);
  hl_trait_cache_free(run.cache);
  hl_findings_free(&findings);
  clang_disposeIndex(run.index);
done:
  hl_msgs_free(&errs);
  hl_jobs_free(&jobs);
  hl_profiles_free(&profiles);
  hl_cli_free(&o);
  return status;
}
