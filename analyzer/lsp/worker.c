#include "lsp/worker.h"

#include <errno.h>
#if defined(__GLIBC__)
#include <malloc.h>
#endif
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include <clang-c/Index.h>

#include "engine/analyze.h"
#include "input/config.h"
#include "input/jobs.h"
#include "lsp/diagnostics.h"
#include "lsp/hover.h"
#include "lsp/project.h"
#include "lsp/snapshot.h"
#include "report/pipeline.h"
#include "report/source.h"
#include "util/util.h"

struct lsp_unitstate {
  hl_job job;                /* what unit was parsed from (an includer's, for a header) */
  int has_job;
  hl_tu *unit;             /* NULL until parsed, and after a failed reparse */
  hl_strv reads;             /* the files its last parse read, sorted (snapshot.h) */
};

/* A file's state on disk, to see whether it changed. */
typedef struct stamp {
  char *path;
  int exists;
  struct timespec mtime;
  off_t size;
} stamp;

typedef struct worker {
  lsp_server *S;
  CXIndex index;
  hl_configs *configs;
  lsp_project *project;
  hl_run run;
  hl_strv told;              /* files whose compile command was said (once) */
  stamp *stamps;             /* every configuration, profile and database read */
  size_t nstamps, capstamps;
} worker;

/* A kept unit reparses only its main file after the preamble (the
 * #includes at the top), which it precompiles at the first parse. */
static unsigned parse_options(void) {
  return (clang_defaultEditingTranslationUnitOptions() & ~(unsigned)CXTranslationUnit_CacheCompletionResults) |
         CXTranslationUnit_CreatePreambleOnFirstParse;
}

static void forget_unit(lsp_doc *d) {
  lsp_unitstate *u = d->unit;
  if (!u) return;
  hl_tu_free(u->unit);
  if (u->has_job) hl_job_free(&u->job);
  hl_strv_free(&u->reads);
  free(u);
  d->unit = NULL;
}

void lsp_doc_free(lsp_doc *d) {
  if (!d) return;
  forget_unit(d);
  free(d->uri);
  free(d->path);
  lsp_text_free(&d->text);
  lsp_result_free(d->result);
  free(d);
}

static void stamp_of(stamp *s) {
  struct stat st;
  s->exists = stat(s->path, &st) == 0;
  s->mtime = s->exists ? st.st_mtim : (struct timespec){0, 0};
  s->size = s->exists ? st.st_size : 0;
}

/* Stamps the files read since the last time. */
static void stamp_new(worker *W) {
  hl_strv files = {0}, profiles = {0};
  hl_configs_files(W->configs, &files, &profiles);
  for (size_t i = 0; i < profiles.n; i++) hl_strv_add(&files, profiles.v[i]);
  lsp_project_files(W->project, &files);
  for (size_t i = 0; i < files.n; i++) {
    size_t k = 0;
    while (k < W->nstamps && strcmp(W->stamps[k].path, files.v[i])) k++;
    if (k < W->nstamps) continue;
    stamp s = {hl_xstrdup(files.v[i]), 0, {0, 0}, 0};
    stamp_of(&s);
    HL_PUSH(W->stamps, W->nstamps, W->capstamps, s);
  }
  hl_strv_free(&files);
  hl_strv_free(&profiles);
}

static int stamps_changed(worker *W) {
  for (size_t i = 0; i < W->nstamps; i++) {
    stamp now = {W->stamps[i].path, 0, {0, 0}, 0};
    stamp_of(&now);
    const stamp *was = &W->stamps[i];
    if (now.exists != was->exists || now.size != was->size || now.mtime.tv_sec != was->mtime.tv_sec ||
        now.mtime.tv_nsec != was->mtime.tv_nsec)
      return 1;
  }
  return 0;
}

static void stamps_clear(worker *W) {
  for (size_t i = 0; i < W->nstamps; i++) free(W->stamps[i].path);
  W->nstamps = 0;
}

/* Says once per file where its compile command comes from when it is not
 * its own entry of a compile database. */
static void tell(worker *W, const lsp_doc *d, lsp_source from, const char *how) {
  if (from == LSP_FROM_DB || !hl_strv_add_unique(&W->told, d->path)) return;
  if (from == LSP_FROM_INCLUDER)
    lsp_log(W->S, 3, "%s: not in a compile database; analyzed with %s", d->path, how);
  else
    lsp_log(W->S, 3, "%s: no compile command in a compile database; analyzed with the fallback flags, %s", d->path,
            how);
}

/* d's unit parsed over the snapshot: reparsed when its compile command is
 * the same as last time, else parsed afresh. NULL after saying why on log. */
static hl_tu *unit_for(worker *W, lsp_doc *d, const hl_config *cfg, const lsp_snapshot *sn, FILE *log) {
  if (!d->unit) d->unit = hl_xcalloc(1, sizeof *d->unit);
  lsp_unitstate *u = d->unit;
  hl_job job;
  char *how = NULL;
  hl_strv msgs = {0};
  lsp_source from = lsp_project_job(W->project, d->path, cfg, &job, &how, &msgs);
  for (size_t i = 0; i < msgs.n; i++) lsp_log(W->S, 2, "%s", msgs.v[i]);
  hl_strv_free(&msgs);
  tell(W, d, from, how);
  free(how);
  if (u->unit && hl_job_same(&u->job, &job)) {
    hl_job_free(&job);
    if (hl_tu_reparse(u->unit, sn->files, sn->n, log) == 0) return u->unit;
    hl_tu_free(u->unit);
    u->unit = NULL;
    return NULL;
  }
  hl_tu_free(u->unit);
  if (u->has_job) hl_job_free(&u->job);
  u->job = job;
  u->has_job = 1;
  u->unit = hl_tu_parse(W->index, &u->job, sn->files, sn->n, parse_options(), log);
  return u->unit;
}

/* d's unit parsed over every open document it reads: one it reads that
 * sn lacked (an #include just typed, a header opened since) is added and
 * the unit parsed again, until none is new (each round adds what the
 * last one's new headers include; a few are enough). Keeps the files it
 * read for the next snapshot. NULL after a failed reparse. */
static hl_tu *read_open_documents(worker *W, lsp_doc *d, lsp_snapshot *sn, FILE *log) {
  lsp_unitstate *u = d->unit;
  for (int round = 0; u->unit && round < 4; round++) {
    /* Listing the files costs 10 to 20 ms on a unit of 175 headers
     * (libclang reads its preamble's source locations): only worth it when
     * an open document might be missing. */
    pthread_mutex_lock(&W->S->lock);
    int all_in = sn->n >= W->S->ndocs;
    pthread_mutex_unlock(&W->S->lock);
    if (all_in) break;
    hl_strv_free(&u->reads);
    hl_tu_files(u->unit, &u->reads);
    lsp_paths_sort(&u->reads);
    pthread_mutex_lock(&W->S->lock);
    unsigned added = lsp_snapshot_add(W->S, d, &u->reads, sn);
    pthread_mutex_unlock(&W->S->lock);
    if (!added) break;
    if (hl_tu_reparse(u->unit, sn->files, sn->n, log)) {
      hl_tu_free(u->unit);
      u->unit = NULL;
    }
  }
  return u->unit;
}

/* The compile errors the document does not show at their place (in a
 * header it includes, or with no place at all: those are in log), as one
 * error diagnostic at its top; NULL when there are none. */
static char *errors_elsewhere(const lsp_doc *d, const hl_tu_result *res, const char *log) {
  unsigned shown = 0;
  hl_sb b = {0};
  for (size_t i = 0; i < res->findings.n; i++) {
    const hl_finding *f = res->findings.v[i];
    if (!hl_finding_is_compile_error(f)) continue;
    if (!strcmp(f->loc.file, d->path)) shown++;
    else hl_sb_printf(&b, "%s:%u:%u: error: %s\n", hl_display_path(f->loc.file), f->loc.line, f->loc.col, f->message);
  }
  if (shown >= res->compile_errors) {
    hl_sb_free(&b);
    return NULL;
  }
  hl_sb m = {0};
  hl_sb_printf(&m, "heaplint: the translation unit has %u compile error%s outside this file; what libclang recovered "
                   "is analyzed, and no fix is offered:\n%s%s",
               res->compile_errors - shown, res->compile_errors - shown == 1 ? "" : "s", hl_sb_str(&b), log);
  hl_sb_free(&b);
  return hl_sb_take(&m);
}

/* The report stage for one document: NOLINT over the text analyzed, then
 * the findings and layouts in the document itself. */
static void report(worker *W, const lsp_doc *d, const lsp_snapshot *sn, hl_tu_result *res, const char *log,
                   lsp_result *r) {
  hl_sources *src = hl_sources_new();
  for (unsigned i = 0; i < sn->n; i++)
    hl_sources_put(src, sn->files[i].Filename, sn->files[i].Contents, sn->files[i].Length);
  char *main_file = d->unit->job.file;
  hl_findings_settle(&res->findings, src, &main_file, 1);
  char *elsewhere = errors_elsewhere(d, res, log);
  if (elsewhere) lsp_result_add_failure(r, elsewhere);
  free(elsewhere);
  lsp_conv *c = lsp_conv_new(src, W->S->enc, sn->paths, sn->uris, sn->ndocs);
  for (size_t i = 0; i < res->findings.n; i++) {
    const hl_finding *f = res->findings.v[i];
    if (!f->undecided && !strcmp(f->loc.file, d->path)) lsp_result_add_finding(r, f, c, &W->S->opt);
  }
  for (size_t i = 0; i < res->layouts.n; i++)
    if (!strcmp(res->layouts.v[i]->loc.file, d->path)) lsp_result_add_layout(r, res->layouts.v[i], c);
  lsp_conv_free(c);
  hl_sources_free(src);
}

static lsp_result *analyze(worker *W, lsp_doc *d, lsp_snapshot *sn) {
  lsp_result *r = hl_xcalloc(1, sizeof *r);
  r->gen = sn->gen;
  r->version = sn->version;
  if (sn->lost) {
    lsp_result_add_failure(r, "heaplint: not analyzed: the editor sent a change whose range ends before it starts, "
                              "which heaplint refused, so its copy of this file is not the editor's text; reopen the "
                              "file");
    return r;
  }
  char *buf;
  size_t len;
  FILE *log = hl_xmemstream(&buf, &len);
  const hl_config *cfg = NULL;
  char *err = NULL;
  hl_tu_result res;
  memset(&res, 0, sizeof res);
  res.result = HL_NOT_PARSED;
  hl_tu *u = NULL;
  if (hl_config_for(W->configs, d->path, &cfg, &err)) {
    fprintf(log, "heaplint: error: %s\n", err);
    free(err);
  } else if ((u = unit_for(W, d, cfg, sn, log)) && (u = read_open_documents(W, d, sn, log))) {
    hl_tu_analyze(&W->run, u, cfg, log, &res);
  }
  fclose(log);
  if (res.result == HL_ANALYZED) {
    report(W, d, sn, &res, buf, r);
    /* What the analysis said besides (no profile for a library, a type
     * query that failed) goes to the log, as the CLI's stderr. */
    if (len) lsp_log(W->S, 2, "%s", buf);
  } else {
    lsp_result_add_failure(r, buf);
  }
  hl_tu_result_free(&res);
  free(buf);
  stamp_new(W);
  return r;
}

/* With the lock held: the result of d's analysis of sn, unless d changed
 * (or closed) meanwhile — a newer analysis is then due. */
static void store(lsp_server *S, lsp_doc *d, const lsp_snapshot *sn, lsp_result *r) {
  if (d->closed || d->gen != sn->gen) {
    lsp_result_free(r);
    return;
  }
  lsp_result_free(d->result);
  d->result = r;
  lsp_notify(S, "textDocument/publishDiagnostics", lsp_publish_params(d->uri, r));
  lsp_waiting_answer(S, d, NULL);
}

/* With the lock held: the document whose analysis is due first, or NULL
 * with *until the time the next one is (0: none is pending). */
static lsp_doc *next_due(lsp_server *S, double *until) {
  lsp_doc *first = NULL;
  for (size_t i = 0; i < S->ndocs; i++) {
    lsp_doc *d = S->docs[i];
    if (d->pending && d->analyzed && (!first || d->due < first->due)) first = d;
  }
  *until = first ? first->due : 0;
  return first && first->due <= lsp_now() ? first : NULL;
}

static void sleep_until(lsp_server *S, double until) {
  if (until <= 0) {
    pthread_cond_wait(&S->wake, &S->lock);
    return;
  }
  struct timespec t;
  t.tv_sec = (time_t)until;
  t.tv_nsec = (long)((until - (double)t.tv_sec) * 1e9);
  pthread_cond_timedwait(&S->wake, &S->lock, &t);
}

/* With the lock held (released meanwhile): frees the closed documents,
 * and gives the memory of their units back to the system, as clangd does
 * (--malloc-trim): glibc's malloc keeps what a freed unit held (tens of
 * MiB) otherwise, and the server's resident size would stay at its
 * highest. */
static void free_closed(lsp_server *S) {
  lsp_doc **v = S->closed;
  size_t n = S->nclosed;
  S->closed = NULL;
  S->nclosed = S->capclosed = 0;
  pthread_mutex_unlock(&S->lock);
  for (size_t i = 0; i < n; i++) lsp_doc_free(v[i]);
  free(v);
#if defined(__GLIBC__)
  malloc_trim(0);
#endif
  pthread_mutex_lock(&S->lock);
}

/* The configurations of --config-file, else of each file's .heaplint.yaml:
 * with no other command-line layer, nothing here can be refused. */
static hl_configs *configs_new(const lsp_server *S) {
  hl_config_cli cli = {S->opt.config_file, NULL, NULL, NULL, NULL, NULL, -1};
  char *err = NULL;
  hl_configs *C = hl_configs_new(&cli, &err);
  if (!C) {
    fprintf(stderr, "heaplint lsp: fatal: %s\n", err);
    abort();
  }
  return C;
}

/* With the lock held (released meanwhile): reads the configurations and
 * databases again when asked to, or when one changed on disk. */
static void refresh(worker *W) {
  lsp_server *S = W->S;
  int force = S->reload;
  S->reload = S->recheck = 0;
  pthread_mutex_unlock(&S->lock);
  if (force || stamps_changed(W)) {
    hl_configs_free(W->configs);
    W->configs = configs_new(S);
    lsp_project_forget(W->project);
    stamps_clear(W);
  }
  pthread_mutex_lock(&S->lock);
}

/* The index, with its preambles kept in memory (libclang 17 and later): a
 * server that ends at once on exit (or is killed) leaves no preamble-*.pch
 * files in the temporary directory. */
static CXIndex new_index(void) {
#if CINDEX_VERSION_MINOR >= 64
  CXIndexOptions o;
  memset(&o, 0, sizeof o);
  o.Size = sizeof o;
  o.StorePreamblesInMemory = 1;
  CXIndex index = clang_createIndexWithOptions(&o);
  if (index) return index;
#endif
  return clang_createIndex(0, 0);
}

static void *worker_main(void *arg) {
  worker *W = arg;
  lsp_server *S = W->S;
  W->index = new_index();
  pthread_mutex_lock(&S->lock);
  while (!S->quit) {
    double until;
    lsp_doc *d;
    if (S->nclosed) {
      free_closed(S);
    } else if (S->reload || S->recheck) {
      refresh(W);
    } else if (!(d = next_due(S, &until))) {
      sleep_until(S, until);
    } else {
      lsp_snapshot sn;
      lsp_snapshot_take(S, d, d->unit ? &d->unit->reads : NULL, &sn);
      d->pending = 0;
      S->analyzing = 1;
      pthread_mutex_unlock(&S->lock);
      lsp_result *r = analyze(W, d, &sn);
      pthread_mutex_lock(&S->lock);
      S->analyzing = 0;
      store(S, d, &sn, r);
      lsp_snapshot_free(&sn);
    }
  }
  pthread_mutex_unlock(&S->lock);
  return NULL;
}

int lsp_worker_start(lsp_server *S, const hl_profile_set *profiles) {
  worker *W = hl_xcalloc(1, sizeof *W);
  W->S = S;
  W->configs = configs_new(S);
  W->project = lsp_project_new(S->opt.db_dir, &S->opt.extra_before, &S->opt.extra_after);
  W->run.profiles = profiles;
  W->run.layouts = 1;
  pthread_mutex_init(&W->run.lock, NULL);
  S->worker_state = W;
  if (pthread_create(&S->worker, NULL, worker_main, W)) return -1;
  S->worker_started = 1;
  return 0;
}

int lsp_worker_stop(lsp_server *S) {
  worker *W = S->worker_state;
  if (!W) return 0;
  pthread_mutex_lock(&S->lock);
  S->quit = 1;
  int busy = S->analyzing;
  pthread_cond_signal(&S->wake);
  pthread_mutex_unlock(&S->lock);
  if (busy) return -1;
  if (S->worker_started) pthread_join(S->worker, NULL);
  /* Everything the worker kept, now that it is gone. */
  for (size_t i = 0; i < S->nclosed; i++) lsp_doc_free(S->closed[i]);
  S->nclosed = 0;
  for (size_t i = 0; i < S->ndocs; i++) forget_unit(S->docs[i]);
  if (W->index) clang_disposeIndex(W->index);
  hl_configs_free(W->configs);
  lsp_project_free(W->project);
  pthread_mutex_destroy(&W->run.lock);
  hl_strv_free(&W->run.warned);
  hl_strv_free(&W->told);
  stamps_clear(W);
  free(W->stamps);
  free(W);
  S->worker_state = NULL;
  return 0;
}
