#include "lsp/project.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "input/jobs.h"
#include "util/util.h"

typedef struct db {
  char *json;   /* its compile_commands.json */
  hl_jobs jobs; /* every C++ entry */
} db;

typedef struct includer {
  char *header;
  char *unit; /* the includer's file, or NULL: none */
} includer;

struct lsp_project {
  char *db_dir;
  hl_strv before, after;
  db *dbs;
  size_t n, cap;
  includer *inc;
  size_t ninc, capinc;
};

lsp_project *lsp_project_new(const char *db_dir, const hl_strv *before, const hl_strv *after) {
  lsp_project *P = hl_xcalloc(1, sizeof *P);
  P->db_dir = db_dir ? hl_abspath(db_dir) : NULL;
  for (size_t i = 0; i < before->n; i++) hl_strv_add(&P->before, before->v[i]);
  for (size_t i = 0; i < after->n; i++) hl_strv_add(&P->after, after->v[i]);
  return P;
}

void lsp_project_forget(lsp_project *P) {
  for (size_t i = 0; i < P->n; i++) {
    free(P->dbs[i].json);
    hl_jobs_free(&P->dbs[i].jobs);
  }
  P->n = 0;
  for (size_t i = 0; i < P->ninc; i++) {
    free(P->inc[i].header);
    free(P->inc[i].unit);
  }
  P->ninc = 0;
}

void lsp_project_files(const lsp_project *P, hl_strv *out) {
  for (size_t i = 0; i < P->n; i++) hl_strv_add(out, P->dbs[i].json);
}

void lsp_project_free(lsp_project *P) {
  if (!P) return;
  lsp_project_forget(P);
  free(P->dbs);
  free(P->inc);
  free(P->db_dir);
  hl_strv_free(&P->before);
  hl_strv_free(&P->after);
  free(P);
}

static int is_file(const char *path) {
  struct stat st;
  return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

static char *dir_of(const char *path) {
  const char *slash = strrchr(path, '/');
  return slash ? hl_xstrndup(path, (size_t)(slash - path) + (slash == path)) : hl_xstrdup(".");
}

/* The compile_commands.json for path, or NULL. */
static char *find_db(const lsp_project *P, const char *path) {
  if (P->db_dir)
    return hl_ends_with(P->db_dir, "compile_commands.json") ? hl_xstrdup(P->db_dir)
                                                            : hl_xasprintf("%s/compile_commands.json", P->db_dir);
  char *d = dir_of(path);
  char *found = NULL;
  while (!found) {
    const char *base = strcmp(d, "/") ? d : "";
    char *here = hl_xasprintf("%s/compile_commands.json", base),
         *below = hl_xasprintf("%s/build/compile_commands.json", base);
    if (is_file(here))
      found = hl_xstrdup(here);
    else if (is_file(below))
      found = hl_xstrdup(below);
    free(here);
    free(below);
    if (found || !strcmp(d, "/")) break;
    char *up = dir_of(d);
    free(d);
    d = up;
  }
  free(d);
  return found;
}

static db *load(lsp_project *P, const char *json, hl_strv *msgs) {
  for (size_t i = 0; i < P->n; i++)
    if (!strcmp(P->dbs[i].json, json)) return &P->dbs[i];
  db d = {hl_xstrdup(json), {0}};
  hl_strv errs = {0};
  hl_jobs_from_db(&d.jobs, json, NULL, 0, &errs);
  for (size_t i = 0; i < errs.n; i++) hl_strv_add(msgs, errs.v[i]);
  hl_strv_free(&errs);
  hl_jobs_extra_args(&d.jobs, P->before.v, P->before.n, P->after.v, P->after.n);
  HL_PUSH(P->dbs, P->n, P->cap, d);
  return &P->dbs[P->n - 1];
}

/* The job of a unit of d that includes path, or NULL: same stem and
 * directory first, then same stem, then any. */
static const hl_job *find_includer(lsp_project *P, const db *d, const char *path) {
  for (size_t i = 0; i < P->ninc; i++)
    if (!strcmp(P->inc[i].header, path)) {
      for (size_t k = 0; P->inc[i].unit && k < d->jobs.n; k++)
        if (!strcmp(d->jobs.v[k].file, P->inc[i].unit)) return &d->jobs.v[k];
      return NULL;
    }
  long k = hl_jobs_includer(&d->jobs, path);
  const hl_job *found = k >= 0 ? &d->jobs.v[k] : NULL;
  includer memo = {hl_xstrdup(path), found ? hl_xstrdup(found->file) : NULL};
  HL_PUSH(P->inc, P->ninc, P->capinc, memo);
  return found;
}

void lsp_project_units(lsp_project *P, const char *root, hl_strv *msgs, const hl_job ***units, size_t *n) {
  if (root) {
    char *in_root = hl_xasprintf("%s/.", root), *json = find_db(P, in_root);
    if (json) load(P, json, msgs);
    free(in_root);
    free(json);
  }
  size_t cap = 0;
  *n = 0;
  free(*units);
  *units = NULL;
  hl_strv seen = {0};
  for (size_t i = 0; i < P->n; i++)
    for (size_t k = 0; k < P->dbs[i].jobs.n; k++) {
      const hl_job *j = &P->dbs[i].jobs.v[k];
      if (hl_strv_add_unique(&seen, j->file)) HL_PUSH(*units, *n, cap, j);
    }
  hl_strv_free(&seen);
}

static void fallback(const lsp_project *P, const char *path, const hl_config *cfg, hl_job *job, char **how) {
  memset(job, 0, sizeof *job);
  job->file = hl_xstrdup(path);
  job->source = hl_xstrdup(path);
  job->lang = HL_LANG_CXX;
  int has_x = 0;
  for (size_t i = 0; i < P->before.n; i++) hl_job_arg(job, P->before.v[i]);
  if (cfg->has_fallback) {
    for (size_t i = 0; i < cfg->fallback_flags.n; i++) {
      has_x |= hl_starts_with(cfg->fallback_flags.v[i], "-x");
      hl_job_arg(job, cfg->fallback_flags.v[i]);
    }
    /* Relative -I and files in the flags are relative to the configuration. */
    job->directory = dir_of(cfg->path);
    hl_job_arg(job, "-working-directory");
    hl_job_arg(job, job->directory);
    *how = hl_xasprintf("the fallback-flags of %s", cfg->path);
  } else {
    hl_job_arg(job, "-std=c++17");
    *how = hl_xstrdup("-std=c++17 (no fallback-flags in a .heaplint.yaml)");
  }
  /* A header alone still parses as C++, as on heaplint's command line. */
  if (!has_x && hl_lang_of(path, NULL, 0) != HL_LANG_CXX) {
    hl_job_arg(job, "-x");
    hl_job_arg(job, "c++");
  }
  for (size_t i = 0; i < P->after.n; i++) hl_job_arg(job, P->after.v[i]);
  /* libclang's own headers, wherever the server was started (from / by a
   * service manager or an editor): as every job of the check. */
  hl_job_resource_dir(job);
}

lsp_source lsp_project_job(lsp_project *P, const char *path, const hl_config *cfg, hl_job *job, char **how,
                           hl_strv *msgs) {
  char *json = find_db(P, path);
  if (json) {
    db *d = load(P, json, msgs);
    for (size_t i = 0; i < d->jobs.n; i++)
      if (!strcmp(d->jobs.v[i].file, path)) {
        hl_job_copy(job, &d->jobs.v[i]);
        *how = json;
        return LSP_FROM_DB;
      }
    const hl_job *inc = find_includer(P, d, path);
    if (inc) {
      hl_job_copy(job, inc);
      *how = hl_xasprintf("the command of %s in %s, which includes it", inc->file, json);
      free(json);
      return LSP_FROM_INCLUDER;
    }
    free(json);
  }
  fallback(P, path, cfg, job, how);
  return LSP_FROM_FALLBACK;
}
