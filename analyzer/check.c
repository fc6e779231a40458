#include "check.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <clang-c/Index.h>

#include "cache/cache.h"
#include "engine/analyze.h"
#include "engine/inst/instances.h"
#include "rules/registry.h"
#include "engine/runner.h"
#include "input/cli.h"
#include "input/config.h"
#include "input/gitdiff.h"
#include "input/jobs.h"
#include "input/linefilter.h"
#include "input/profile.h"
#include "index/db.h"
#include "report/baseline.h"
#include "report/pipeline.h"
#include "util/output.h"
#include "util/util.h"

/* Everything one run holds, freed in one place. */
typedef struct check {
  hl_options o;
  hl_rule_info *rules; /* every rule heaplint has */
  const char **ids;    /* their ids, NULL-terminated */
  size_t nrules;
  hl_profile_set profiles;
  hl_jobs jobs;
  hl_configs *configs;
  const hl_config **job_config; /* parallel to jobs */
  char *root;                   /* the source root, absolute */
  hl_tu_result *results;        /* parallel to jobs */
  hl_line_filter lines;         /* -line-filter, or --diff's changed lines */
  hl_strv changed;              /* --diff: the files with changed lines */
  hl_cache **job_cache;         /* parallel to jobs: the result cache, or NULL */
  hl_cache **caches;            /* each directory's once */
  char **cache_dirs;
  size_t ncaches;
  hl_cache_stats cache_stats;
  hl_pipeline *report; /* the report stage, which takes each unit's findings */
  char *docs_url;      /* the default of --docs-url */
  hl_api_figure *apis; /* the project index's per-API figures, for the report */
  size_t napis;
} check;

static void print_version(void) {
  CXString v = clang_getClangVersion();
  printf("heaplint %s (%s)\n", HEAPLINT_VERSION, clang_getCString(v));
  printf("%s\n", hl_instances_status());
  clang_disposeString(v);
}

/* The rule list, built once: for --list-rules, --dump-config and SARIF. */
static void list_rules(check *c) {
  while (hl_rules[c->nrules]) c->nrules++;
  c->rules = hl_xcalloc(c->nrules ? c->nrules : 1, sizeof *c->rules);
  c->ids = hl_xcalloc(c->nrules + 1, sizeof *c->ids);
  for (size_t i = 0; i < c->nrules; i++) {
    c->rules[i] = (hl_rule_info){hl_rules[i]->id, hl_rule_summary(hl_rules[i]), hl_rule_description(hl_rules[i])};
    c->ids[i] = hl_rules[i]->id;
  }
}

/* Says err (and frees it); returns the input error's exit status. */
static int input_error(char *err) {
  fprintf(stderr, "heaplint: error: %s\n", err);
  free(err);
  return HL_EXIT_INPUT;
}

static int load_profiles(const hl_options *o, hl_profile_set *set) {
  char *err = NULL;
  int rc = hl_profiles_load(set, o->profile_dir, o->profiles.v, o->profiles.n, hl_rules, &err);
  if (rc) input_error(err);
  return rc;
}

/* The job list, from the compile database or the command line. Problems
 * with some files are said and make the run an input error, but the other
 * files are still analyzed. */
static int make_jobs(check *c) {
  const hl_options *o = &c->o;
  hl_strv errs = {0};
  int db_unusable = 0;
  /* After "--" the command line is the compile command, as in clang-tidy;
   * -p is then only a hint a build system passes along. */
  /* --diff with no file named: the changed C++ files (headers too, as
   * clang-tidy-diff names them), through the database like named files. */
  char *const *files = o->files.v;
  size_t nfiles = o->files.n;
  if (o->diff && !nfiles) files = c->changed.v, nfiles = c->changed.n;
  if (o->diff && !nfiles) {
    fprintf(stderr, "heaplint: no C++ file has changed lines in 'git diff -U0 %s'\n",
            o->diff_ref ? o->diff_ref : "HEAD");
  } else if (o->build_path && !o->dashdash) {
    db_unusable = hl_jobs_from_db(&c->jobs, o->build_path, files, nfiles, &errs) != 0;
  } else {
    hl_jobs_from_args(&c->jobs, files, nfiles, o->flags.v, o->flags.n, &errs);
  }
  for (size_t i = 0; i < errs.n; i++) fprintf(stderr, "heaplint: error: %s\n", errs.v[i]);
  int status = errs.n || db_unusable ? HL_EXIT_INPUT : HL_EXIT_RAN;
  hl_strv_free(&errs);
  hl_jobs_extra_args(&c->jobs, o->extra_before.v, o->extra_before.n, o->extra_after.v, o->extra_after.n);
  hl_jobs_remove_args(&c->jobs, o->remove_args.v, o->remove_args.n);
  if (o->shard_n) hl_jobs_shard(&c->jobs, o->shard_k, o->shard_n);
  return status;
}

/* Every job's configuration, before any analysis: a bad one stops the run. */
static int configure(check *c) {
  char *err = NULL;
  c->job_config = hl_xcalloc(c->jobs.n ? c->jobs.n : 1, sizeof *c->job_config);
  int any = 0;
  for (size_t i = 0; i < c->jobs.n; i++) {
    if (hl_config_for(c->configs, c->jobs.v[i].file, &c->job_config[i], &err)) return input_error(err);
    for (size_t k = 0; k < c->nrules && !any; k++) any = hl_config_enabled(c->job_config[i], c->ids[k]);
  }
  /* As clang-tidy: a run with every rule off is a mistake, unless said. */
  if (c->jobs.n && !any && !c->o.allow_no_checks && !c->o.dump_config)
    return input_error(
        hl_xstrdup("no checks enabled: the configuration and -checks turn every rule off "
                   "(--allow-no-checks runs anyway)"));
  return HL_EXIT_RAN;
}

/* --dump-config: each job's configuration, or with no file that of the
 * source root itself, its own .heaplint.yaml included. */
static int dump_config(check *c) {
  char *err = NULL;
  const hl_config *cfg = NULL;
  /* A path inside the root, for the walk up. */
  char *inside = hl_xasprintf("%s/", c->root);
  int bad = c->jobs.n == 0 && hl_config_for(c->configs, inside, &cfg, &err);
  free(inside);
  if (bad) return input_error(err);
  for (size_t i = 0; i < (c->jobs.n ? c->jobs.n : 1); i++)
    hl_config_dump(stdout, c->jobs.n ? c->job_config[i] : cfg, c->jobs.n ? c->jobs.v[i].file : c->root, c->ids);
  return hl_stdout_ok() ? HL_EXIT_RAN : HL_EXIT_INPUT;
}

/* The configuration -list-checks, -explain-config and -verify-config read,
 * as clang-tidy: the first file's, else the current directory's. */
static int first_config(check *c, const hl_config **cfg) {
  char *err = NULL;
  char *abs = hl_abspath(c->o.files.n ? c->o.files.v[0] : "dummy");
  int bad = hl_config_for(c->configs, abs, cfg, &err);
  free(abs);
  if (bad) input_error(err);
  return bad;
}

/* -list-checks, -explain-config and -verify-config, in clang-tidy's words. */
static int describe_config(check *c) {
  const hl_config *cfg;
  if (first_config(c, &cfg)) return HL_EXIT_INPUT;
  if (c->o.verify_config) {
    if (hl_config_verify(cfg, c->ids)) return HL_EXIT_FINDINGS;
    printf("No config errors detected.\n");
    return hl_stdout_ok() ? HL_EXIT_RAN : HL_EXIT_INPUT;
  }
  size_t enabled = 0;
  for (size_t i = 0; i < c->nrules; i++) enabled += hl_config_enabled(cfg, c->ids[i]);
  if (!enabled && !c->o.allow_no_checks) {
    fprintf(stderr, "No checks enabled.\n");
    return HL_EXIT_INPUT;
  }
  if (c->o.list_checks) printf("Enabled checks:");
  for (size_t i = 0; i < c->nrules; i++) {
    const char *where;
    if (!hl_config_enabled_by(cfg, c->ids[i], &where)) continue;
    if (c->o.list_checks)
      printf("\n    %s", c->ids[i]);
    else
      printf("'%s' is enabled in the %s.\n", c->ids[i], hl_display_path(where));
  }
  if (c->o.list_checks) printf("\n\n");
  return hl_stdout_ok() ? HL_EXIT_RAN : HL_EXIT_INPUT;
}

/* -line-filter, or --diff's changed lines (and files). */
static int line_filter(check *c) {
  char *err = NULL;
  int bad = c->o.diff ? hl_git_diff(c->o.diff_ref, &c->lines, &c->changed, &err)
                      : c->o.line_filter && hl_line_filter_parse(&c->lines, c->o.line_filter, &err);
  if (bad) return input_error(err);
  /* Only what heaplint analyzes: a changed README is no translation unit. */
  size_t out = 0;
  for (size_t i = 0; i < c->changed.n; i++) {
    const char *f = c->changed.v[i];
    if ((hl_lang_of(f, NULL, 0) == HL_LANG_CXX || hl_ends_with(f, ".h")) && access(f, F_OK) == 0)
      c->changed.v[out++] = c->changed.v[i];
    else
      free(c->changed.v[i]);
  }
  c->changed.n = out;
  if (c->changed.v) c->changed.v[out] = NULL;
  return HL_EXIT_RAN;
}

/* The cache in dir, opened once; NULL (said once) when it cannot be used:
 * the run goes on without it. */
static hl_cache *cache_for(check *c, const char *dir) {
  for (size_t i = 0; i < c->ncaches; i++)
    if (!strcmp(c->cache_dirs[i], dir)) return c->caches[i];
  char *err = NULL;
  CXString v = clang_getClangVersion();
  char *tool = hl_xasprintf("heaplint %s (%s)", HEAPLINT_VERSION, clang_getCString(v));
  clang_disposeString(v);
  hl_cache *C = hl_cache_open(dir, c->o.cache_max_size ? c->o.cache_max_size : HL_CACHE_DEFAULT_MAX, tool, &c->profiles,
                              c->o.verbose, &err);
  free(tool);
  if (!C) {
    fprintf(stderr, "heaplint: warning: %s; running without the result cache\n", err);
    free(err);
  }
  c->caches = hl_xrealloc(c->caches, (c->ncaches + 1) * sizeof *c->caches);
  c->cache_dirs = hl_xrealloc(c->cache_dirs, (c->ncaches + 1) * sizeof *c->cache_dirs);
  c->caches[c->ncaches] = C;
  c->cache_dirs[c->ncaches++] = hl_xstrdup(dir);
  return C;
}

/* --cache-dir (or $HEAPLINT_CACHE_DIR) for every job, else its config's;
 * none under --check-instances, which must analyze every unit (a restored
 * one would compare nothing). */
static int open_caches(check *c) {
  char *given = c->o.cache_dir ? hl_abspath(c->o.cache_dir) : NULL;
  int any = 0;
  c->job_cache = hl_xcalloc(c->jobs.n ? c->jobs.n : 1, sizeof *c->job_cache);
  for (size_t i = 0; i < c->jobs.n; i++) {
    const char *dir = c->o.check_instances ? NULL : given ? given : c->job_config[i]->cache_dir;
    if (dir) any |= (c->job_cache[i] = cache_for(c, dir)) != NULL;
  }
  free(given);
  return any;
}

static int restore_hook(void *data, size_t i, hl_tu_result *res, FILE *log) {
  check *c = data;
  return c->job_cache[i] && hl_cache_restore(c->job_cache[i], &c->jobs.v[i], c->job_config[i], res, log);
}

static void analyzed_hook(void *data, size_t i, const hl_tu_result *res, const char *text, size_t len, FILE *log) {
  check *c = data;
  if (c->job_cache[i]) hl_cache_store(c->job_cache[i], &c->jobs.v[i], c->job_config[i], res, text, len, log);
}

/* Whether f is at one of job's headers, or one of its notes is (a
 * template's store: the finding is at the call that instantiates it). */
static int in_only(const hl_finding *f, const hl_job *job) {
  for (size_t k = 0; k < job->nonly; k++) {
    if (f->loc.file && !strcmp(f->loc.file, job->only[k])) return 1;
    for (size_t n = 0; n < f->nnotes; n++)
      if (f->notes[n].loc.file && !strcmp(f->notes[n].loc.file, job->only[k])) return 1;
  }
  return 0;
}

/* A header named alone is analyzed through a unit that includes it
 * (engine/job.h): of that unit's findings, those in the header (or with
 * a note there) and the compile errors. */
static void keep_only(hl_findings *fs, const hl_job *job) {
  if (!job->nonly) return;
  size_t kept = 0;
  for (size_t i = 0; i < fs->n; i++) {
    int keep = hl_finding_is_compile_error(fs->v[i]) || in_only(fs->v[i], job);
    if (keep)
      fs->v[kept++] = fs->v[i];
    else
      hl_finding_free(fs->v[i]);
  }
  fs->n = kept;
}

/* In job order: a streamed report takes the unit's findings now. */
static void done_hook(void *data, size_t i, hl_tu_result *res) {
  check *c = data;
  keep_only(&res->findings, &c->jobs.v[i]);
  if (res->result == HL_ANALYZED && hl_pipeline_streams(c->report))
    hl_pipeline_unit(c->report, &res->findings, &c->jobs.v[i].file, 1);
  /* A worker thread wrote: the reason of a failure is its errno. */
  hl_stdout_check();
}

static void analyze_all(check *c) {
  hl_run run;
  memset(&run, 0, sizeof run);
  run.profiles = &c->profiles;
  run.verbose = c->o.verbose;
  run.check_instances = c->o.check_instances;
  /* The files each unit read: for the cache, and to check that no output
   * is one of them (read_outputs). */
  run.record_inputs = open_caches(c) || c->o.output || c->o.write_baseline || c->o.export_fixes || c->o.fix;
  run.summaries = !hl_options_no_index(&c->o);
  pthread_mutex_init(&run.lock, NULL);
  c->results = hl_xcalloc(c->jobs.n ? c->jobs.n : 1, sizeof *c->results);
  hl_run_hooks hooks = {c, restore_hook, analyzed_hook, done_hook};
  hl_run_jobs(&run, &c->jobs, c->job_config, c->o.jobs, isatty(STDERR_FILENO), c->results, &hooks);
  pthread_mutex_destroy(&run.lock);
  hl_strv_free(&run.warned);
  for (size_t i = 0; i < c->ncaches; i++)
    if (c->caches[i]) hl_cache_finish(c->caches[i], &c->cache_stats);
}

/* The index's file: --index, else the first result cache's directory's
 * index.sqlite, else none (NULL: in memory, for this run). */
static char *index_path(check *c) {
  if (c->o.index) return hl_xstrdup(c->o.index);
  for (size_t i = 0; i < c->ncaches; i++)
    if (c->caches[i]) return hl_xasprintf("%s/index.sqlite", c->cache_dirs[i]);
  return NULL;
}

/* The summary of job i: its result's, or with --link-only the index's. */
static hl_summary *summary_of(check *c, hl_index *X, size_t i, hl_summary **owned, char **err) {
  *owned = NULL;
  if (!c->o.link_only) return c->results[i].summary;
  return *owned = hl_index_zones(X, c->jobs.v[i].file, err);
}

/* Every enabled rule's link step over each unit of the run, once per file,
 * judged by the unit's config. */
static int link_units(check *c, hl_index *X, hl_findings *out) {
  hl_index_lookup ix = hl_index_lookups(X);
  hl_strcount done = {0}; /* a hash: a database of 10,000 units is linked in linear time */
  for (size_t i = 0; i < c->jobs.n; i++) {
    char *err = NULL;
    hl_summary *owned,
        *s = (*hl_strcount_at(&done, c->jobs.v[i].file))++ == 0 ? summary_of(c, X, i, &owned, &err) : NULL;
    if (err) {
      fprintf(stderr, "heaplint: error: %s\n", err);
      free(err);
      hl_strcount_free(&done);
      return HL_EXIT_INPUT;
    }
    hl_findings found = {0};
    for (size_t r = 0; s && hl_rules[r]; r++)
      if (hl_rules[r]->link && hl_config_enabled(c->job_config[i], hl_rules[r]->id)) hl_rules[r]->link(&ix, s, &found);
    hl_apply_config(c->job_config[i], &c->jobs.v[i], &found);
    hl_findings_take(out, &found);
    hl_findings_free(&found);
    if (s) hl_summary_free(owned);
  }
  hl_strcount_free(&done);
  return HL_EXIT_RAN;
}

/* The rules' project-wide plans (API rewrites), in a run over the whole
 * compile database only: what they decide stands on every unit, and a run
 * over some files leaves the others' summaries as old as the index's. */
static void plan_project(check *c, hl_index *X, hl_findings *out) {
  if (c->o.files.n || !c->o.build_path || !c->jobs.n) return;
  hl_index_lookup ix = hl_index_lookups(X);
  /* The configuration nearest each declaration's file; the run's first
   * unit's when that one cannot be read (the units' own were read). */
  hl_config_policy pd = {c->configs, c->job_config[0]};
  hl_plan_policy policy = hl_config_plan_policy(&pd);
  hl_findings found = {0};
  for (size_t r = 0; hl_rules[r]; r++)
    if (hl_rules[r]->plan && hl_config_enabled(c->job_config[0], hl_rules[r]->id))
      hl_rules[r]->plan(&ix, &policy, &found);
  hl_apply_config(c->job_config[0], &c->jobs.v[0], &found);
  hl_findings_take(out, &found);
  hl_findings_free(&found);
}

/* The per-API figures of the run's units. */
static int run_apis(check *c, hl_index *X, char **err) {
  hl_strv units = {0};
  hl_strcount seen = {0};
  for (size_t i = 0; i < c->jobs.n; i++)
    if ((*hl_strcount_at(&seen, c->jobs.v[i].file))++ == 0) hl_strv_add(&units, c->jobs.v[i].file);
  hl_strcount_free(&seen);
  int rc = hl_index_apis(X, units.v, units.n, &c->apis, &c->napis, err);
  hl_strv_free(&units);
  return rc;
}

/* The run's summaries into the project index, then (unless this run is a
 * shard: a slice cannot judge what crosses into the others) the link step:
 * its findings into out. */
static int index_and_link(check *c, hl_findings *out) {
  char *path = index_path(c), *err = NULL;
  hl_index *X = hl_index_open(path, &err);
  free(path);
  int rc = X ? 0 : -1;
  if (X && !c->o.link_only) {
    rc = hl_index_begin(X, &err);
    for (size_t i = 0; !rc && i < c->jobs.n; i++)
      if (c->results[i].summary) rc = hl_index_put(X, c->jobs.v[i].file, c->results[i].summary, &err);
    if (!rc) rc = hl_index_commit(X, &err);
  }
  if (rc) {
    fprintf(stderr, "heaplint: error: %s\n", err);
    free(err);
    hl_index_close(X, &err);
    return HL_EXIT_INPUT;
  }
  int status = c->o.shard_n ? HL_EXIT_RAN : link_units(c, X, out);
  if (status == HL_EXIT_RAN && !c->o.shard_n) plan_project(c, X, out);
  if (status == HL_EXIT_RAN && !c->o.shard_n && run_apis(c, X, &err)) {
    fprintf(stderr, "heaplint: error: %s\n", err);
    free(err);
    err = NULL;
    status = HL_EXIT_INPUT;
  }
  if (hl_index_close(X, &err)) {
    fprintf(stderr, "heaplint: error: %s\n", err);
    free(err);
    status = HL_EXIT_INPUT;
  }
  return status;
}

/* No output may be a file the units read (a header of theirs): checked
 * now, before anything is written, as the files are now. */
static int outputs_read(check *c) {
  char **read = NULL, **units = NULL;
  size_t n = 0, cap = 0, capu = 0, nu = 0;
  for (size_t i = 0; i < c->jobs.n; i++)
    for (size_t k = 0; k < c->results[i].ninputs; k++) {
      HL_PUSH(read, n, cap, c->results[i].inputs[k].path);
      HL_PUSH(units, nu, capu, c->jobs.v[i].file);
    }
  char *err = NULL;
  int rc = hl_cli_check_outputs_read(&c->o, read, units, n, &err);
  free(read);
  free(units);
  if (rc) input_error(err);
  return rc;
}

/* ---- --fix's check of API rewrites ---- */

/* Whether unit i read one of files (unknown: it may have). */
static int reads_any(const check *c, size_t i, char *const *files, size_t n) {
  const hl_tu_result *r = &c->results[i];
  if (!r->ninputs) return 1;
  for (size_t k = 0; k < r->ninputs; k++)
    for (size_t j = 0; j < n; j++)
      if (!strcmp(r->inputs[k].path, files[j])) return 1;
  return 0;
}

/* Whether finding f edits a file unit i read. */
static int edits_unit(const check *c, size_t i, const hl_finding *f) {
  for (size_t k = 0; k < f->nedits; k++)
    if (reads_any(c, i, &f->edits[k].file, 1)) return 1;
  return 0;
}

/* Whether unit i compiles over the text t: 1, or 0 with *first (to free). */
static int unit_compiles(check *c, CXIndex index, size_t i, const hl_fix_texts *t, char **first) {
  struct CXUnsavedFile *unsaved = hl_xcalloc(t->n ? t->n : 1, sizeof *unsaved);
  for (size_t j = 0; j < t->n; j++)
    unsaved[j] = (struct CXUnsavedFile){t->files[j], t->texts[j], (unsigned long)t->lens[j]};
  int rc = hl_tu_compiles(index, &c->jobs.v[i], unsaved, (unsigned)t->n, first, stderr);
  free(unsaved);
  if (rc && !*first) *first = hl_xstrdup("libclang could not parse it");
  return rc == 0;
}

/* The units an API rewrite may break: each once, analyzed without errors
 * (or, with --link-only, known only from the index), reading a file t
 * changes. */
static void units_reached(check *c, const hl_fix_texts *t, hl_strv *done, size_t **out, size_t *n) {
  size_t cap = 0;
  for (size_t i = 0; i < c->jobs.n; i++) {
    const hl_tu_result *r = &c->results[i];
    if (!hl_strv_add_unique(done, c->jobs.v[i].file) || r->compile_errors || !reads_any(c, i, t->files, t->n)) continue;
    if (!c->o.link_only && r->result != HL_ANALYZED) continue;
    HL_PUSH(*out, *n, cap, i);
  }
}

/* Whether findings a and b are applied together (hl_finding.together). */
static int together(const hl_finding *a, const hl_finding *b) {
  return a == b || (a->together && b->together && !strcmp(a->together, b->together));
}

/* Blames k's rewrite (and those applied with it) for unit i's error: why
 * gets msg for each. Returns how many. */
static size_t blame(const hl_findings *all, const char *skipped, size_t k, const char *msg, char **why) {
  size_t n = 0;
  for (size_t m = 0; m < all->n; m++)
    if (!skipped[m] && !why[m] && together(all->v[m], all->v[k])) {
      why[m] = hl_xstrdup(msg);
      n++;
    }
  return n;
}

/* Whether rewrite k is to be tried for unit i: live, editing what it
 * reads, and the first of those applied with it (the others are the same
 * trial). */
static int candidate(const check *c, size_t i, const hl_findings *all, const char *skipped, char **why, size_t k) {
  const hl_finding *f = all->v[k];
  if (!f->whole_project || skipped[k] || why[k] || !edits_unit(c, i, f)) return 0;
  for (size_t m = 0; m < k; m++)
    if (all->v[m]->whole_project && !skipped[m] && !why[m] && together(all->v[m], f)) return 0;
  return 1;
}

/* Parses unit i with the API rewrites of k's group only (without 0), or
 * with all but those (without 1), the units' own fixes kept: 1 when it
 * compiles, else 0 with *err (to free). */
static int trial(check *c, CXIndex index, size_t i, const hl_findings *all, const char *skipped, const hl_fix_render *r,
                 size_t k, int without, char **err) {
  char *mask = hl_xmalloc(all->n);
  for (size_t m = 0; m < all->n; m++)
    mask[m] = skipped[m] || (all->v[m]->whole_project && together(all->v[m], all->v[k]) == without);
  hl_fix_texts t = {0};
  r->render(r->state, mask, &t);
  int ok = unit_compiles(c, index, i, &t, err);
  hl_fix_texts_free(&t);
  free(mask);
  return ok;
}

/* The candidates for unit i (candidate()), the rewrite that keeps the
 * fewest allocating values inline first (its notes name them), then in
 * order; (size_t)-1 ends the list (caller frees). */
static size_t *by_weight(const check *c, size_t i, const hl_findings *all, const char *skipped, char **why) {
  size_t *v = hl_xcalloc(all->n + 1, sizeof *v), n = 0;
  for (size_t k = 0; k < all->n; k++) {
    if (!candidate(c, i, all, skipped, why, k)) continue;
    size_t at = n++;
    while (at > 0 && all->v[v[at - 1]]->nnotes > all->v[k]->nnotes) {
      v[at] = v[at - 1];
      at--;
    }
    v[at] = k;
  }
  v[n] = (size_t)-1;
  return v;
}

/* Unit i does not compile with the API rewrites: blames each that breaks
 * it alone; when none does (an interaction: a lambda that captures one
 * retyped wrapper grows past another's capacity), the one whose absence
 * lets it compile and that keeps the fewest values inline; when none
 * does, all that edit what it reads. Returns how many are blamed. */
static size_t blame_unit(check *c, CXIndex index, size_t i, const hl_findings *all, const char *skipped,
                         const hl_fix_render *r, const char *first, char **why) {
  const char *unit = hl_display_path(c->jobs.v[i].file);
  size_t blamed = 0;
  for (size_t k = 0; k < all->n; k++) {
    char *err = NULL;
    if (candidate(c, i, all, skipped, why, k) && !trial(c, index, i, all, skipped, r, k, 0, &err)) {
      char *msg = hl_xasprintf("with this edit, %s would not compile: %s", unit, err);
      blamed += blame(all, skipped, k, msg, why);
      free(msg);
    }
    free(err);
  }
  size_t *order = by_weight(c, i, all, skipped, why);
  for (size_t o = 0; order[o] != (size_t)-1 && !blamed; o++) {
    char *err = NULL;
    size_t k = order[o];
    if (trial(c, index, i, all, skipped, r, k, 1, &err)) {
      char *msg =
          hl_xasprintf("with the other API rewrites, %s would not compile (%s); without this one it does", unit, first);
      blamed += blame(all, skipped, k, msg, why);
      free(msg);
    }
    free(err);
  }
  free(order);
  for (size_t k = 0; k < all->n && !blamed; k++)
    if (all->v[k]->whole_project && !skipped[k] && !why[k] && edits_unit(c, i, all->v[k]))
      why[k] = hl_xasprintf("with the API rewrites together, %s would not compile: %s", unit, first);
  return blamed;
}

/* The fixed text of every unit an API rewrite reaches, parsed before it is
 * written. A unit that then has an error is parsed again to find the
 * rewrites to drop (blame_unit), with the error; the units' own fixes
 * stay. Other fixes are the units' own, not checked. */
static size_t check_api_fixes(void *data, const hl_findings *all, const char *skipped, const hl_fix_render *r,
                              char **why) {
  check *c = data;
  size_t live = 0, dropped = 0, *units = NULL, nunits = 0;
  for (size_t i = 0; i < all->n; i++) live += all->v[i]->whole_project && !skipped[i];
  if (!live) return 0;
  hl_fix_texts t = {0};
  r->render(r->state, skipped, &t);
  hl_strv done = {0};
  units_reached(c, &t, &done, &units, &nunits);
  CXIndex index = clang_createIndex(0, 0);
  for (size_t u = 0; u < nunits; u++) {
    size_t i = units[u];
    char *first = NULL;
    if (unit_compiles(c, index, i, &t, &first)) continue;
    blame_unit(c, index, i, all, skipped, r, first, why);
    for (size_t k = 0; k < all->n; k++) dropped += why[k] != NULL;
    free(first);
    if (dropped) break; /* the next round parses again without them */
  }
  clang_disposeIndex(index);
  hl_strv_free(&done);
  free(units);
  hl_fix_texts_free(&t);
  return dropped;
}

/* The translation units' results, as the report stage takes them. */
/* Adds s to v unless seen says it is there: 1 when added. */
static int add_once(hl_strv *v, hl_strcount *seen, const char *s) {
  if ((*hl_strcount_at(seen, s))++) return 0;
  hl_strv_add(v, s);
  return 1;
}

static void gather(check *c, hl_pipeline_in *in) {
  memset(in, 0, sizeof *in);
  /* One per list: a unit's file is in each once, found by hash. */
  hl_strcount main_seen = {0}, error_seen = {0}, failed_seen = {0};
  in->apis = c->apis;
  in->napis = c->napis;
  c->apis = NULL;
  c->napis = 0;
  for (size_t i = 0; i < c->jobs.n; i++) {
    hl_tu_result *r = &c->results[i];
    if (c->o.link_only) {
      /* Judged over the index: nothing was parsed. */
      in->analyzed += add_once(&in->main_files, &main_seen, c->jobs.v[i].file);
    } else if (r->result == HL_ANALYZED) {
      hl_sb t = {0};
      hl_sb_printf(&t, "%s, %s", r->library ? r->library : "no C++ standard library header included", r->arch);
      if (r->nprofiles > 1) {
        hl_sb_puts(&t, "; profiles: ");
        for (size_t k = 0; k < r->nprofiles; k++) hl_sb_printf(&t, "%s%s", k ? ", " : "", r->profiles[k]);
      }
      hl_strv_add_unique(&in->targets, hl_sb_str(&t));
      hl_sb_free(&t);
      /* A file the database lists twice (two configurations) is one file. */
      in->analyzed += add_once(&in->main_files, &main_seen, c->jobs.v[i].file);
      if (r->compile_errors) in->with_errors += add_once(&in->error_files, &error_seen, c->jobs.v[i].file);
    } else {
      in->failed += add_once(&in->failed_files, &failed_seen, c->jobs.v[i].file);
    }
    keep_only(&r->findings, &c->jobs.v[i]);
    hl_findings_take(&in->findings, &r->findings);
  }
  hl_strcount_free(&main_seen);
  hl_strcount_free(&error_seen);
  hl_strcount_free(&failed_seen);
  in->root = c->root;
  in->first_file = c->jobs.n ? c->jobs.v[0].file : "";
  in->rules = c->rules;
  in->nrules = c->nrules;
  for (size_t i = 0; i < c->ncaches; i++) in->cached |= c->caches[i] != NULL;
  in->cache_hits = c->cache_stats.hits;
  in->cache_misses = c->cache_stats.misses;
  in->fix_check = (hl_fix_check){c, check_api_fixes};
}

/* Input, then analysis, then the report; stops at the first input error
 * that leaves nothing to analyze. */
static int run(check *c) {
  char *err = NULL;
  if (line_filter(c)) return HL_EXIT_INPUT;
  if (load_profiles(&c->o, &c->profiles)) return HL_EXIT_INPUT;
  /* A baseline that cannot be used stops the run before the analysis, as a
   * bad configuration does: not every finding printed, then exit 2. */
  if (c->o.baseline && hl_baseline_check(c->o.baseline, &err)) return input_error(err);
  int status = make_jobs(c);
  if (configure(c)) return HL_EXIT_INPUT;
  if (hl_cli_check_outputs(&c->o, &c->jobs, c->configs, &c->profiles, &err)) return input_error(err);
  if (c->o.dump_config) {
    int dumped = dump_config(c);
    return dumped != HL_EXIT_RAN ? dumped : status;
  }
  c->report = hl_pipeline_new(&c->o, c->root, &c->lines);
  if (!c->o.link_only)
    analyze_all(c);
  else
    c->results = hl_xcalloc(c->jobs.n ? c->jobs.n : 1, sizeof *c->results);
  hl_findings linked = {0};
  int linked_status = outputs_read(c)              ? HL_EXIT_INPUT
                      : hl_options_no_index(&c->o) ? HL_EXIT_RAN
                                                   : index_and_link(c, &linked);
  if (linked_status != HL_EXIT_RAN) {
    hl_findings_free(&linked);
    hl_pipeline_discard(c->report);
    return linked_status;
  }
  hl_pipeline_in in;
  gather(c, &in);
  hl_findings_take(&in.findings, &linked);
  hl_findings_free(&linked);
  return hl_pipeline_finish(c->report, &in, status);
}

static void check_free(check *c) {
  for (size_t i = 0; c->results && i < c->jobs.n; i++) hl_tu_result_free(&c->results[i]);
  free(c->results);
  for (size_t i = 0; i < c->ncaches; i++) {
    hl_cache_free(c->caches[i]);
    free(c->cache_dirs[i]);
  }
  free(c->caches);
  free(c->cache_dirs);
  free(c->job_cache);
  free(c->job_config);
  free(c->root);
  free(c->docs_url);
  hl_api_figures_free(c->apis, c->napis);
  hl_configs_free(c->configs);
  hl_jobs_free(&c->jobs);
  hl_profiles_free(&c->profiles);
  for (size_t i = 0; i < c->nrules; i++) {
    free((char *)c->rules[i].summary);
    free((char *)c->rules[i].description);
  }
  free(c->rules);
  free(c->ids);
  hl_line_filter_free(&c->lines);
  hl_strv_free(&c->changed);
  hl_options_free(&c->o);
}

int hl_check_main(int argc, char **argv) {
  check c;
  memset(&c, 0, sizeof c);
  char *err = NULL;
  int status;
  list_rules(&c);
  if (hl_cli_parse(argc, argv, &c.o, &err)) {
    status = input_error(err);
  } else if (c.o.help || c.o.version || c.o.list_rules) {
    if (c.o.help)
      fputs(hl_cli_usage, stdout);
    else if (c.o.version)
      print_version();
    else
      for (size_t i = 0; i < c.nrules; i++) printf("%-16s %s\n", c.rules[i].id, c.rules[i].summary);
    status = hl_stdout_ok() ? HL_EXIT_RAN : HL_EXIT_INPUT;
  } else {
    /* Paths are made relative to the current directory from many threads:
     * learn it once, first. */
    hl_paths_init();
    for (size_t i = 0; i < c.o.notes.n && !c.o.quiet; i++) fprintf(stderr, "heaplint: note: %s\n", c.o.notes.v[i]);
    c.configs = hl_configs_new(&c.o.config, hl_rules, &err);
    c.root = hl_abspath(c.o.source_root ? c.o.source_root : ".");
    if (!c.o.docs_url) c.o.docs_url = c.docs_url = hl_docs_default_url();
    if (!c.configs)
      status = input_error(err);
    else if (c.o.list_checks || c.o.explain_config || c.o.verify_config)
      status = describe_config(&c);
    else
      status = run(&c);
  }
  check_free(&c);
  return status;
}
