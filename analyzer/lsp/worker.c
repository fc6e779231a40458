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

#include "engine/ahead.h"
#include "engine/crash.h"
#include "input/config.h"
#include "lsp/analysis.h"
#include "lsp/cached.h"
#include "lsp/diagnostics.h"
#include "lsp/project.h"
#include "lsp/refiner.h"
#include "lsp/snapshot.h"
#include "util/util.h"

/* A file's state on disk, to see whether it changed. */
typedef struct stamp {
  char *path;
  int exists;
  struct timespec mtime;
  off_t size;
} stamp;

/* How often a workspace/diagnostic is answered when nothing was saved
 * since the last answer (s): a client such as VS Code asks again as soon
 * as it has one, and each answer reads every unit's cache entry. */
#define WORKSPACE_PULL_INTERVAL 30.0

typedef struct worker {
  lsp_analyzer A;
  stamp *stamps; /* every configuration, profile and database read */
  size_t nstamps, capstamps;
  int pulled;                 /* a workspace/diagnostic was answered ... */
  double pulled_at;           /* ... at this time (lsp_now) */
  unsigned long pulled_saves; /* ... after this many saves */
  lsp_doc *refining;          /* the document whose refine parses elsewhere (one at a time), or NULL */
} worker;

static void stamp_of(stamp *s) {
  struct stat st;
  s->exists = stat(s->path, &st) == 0;
  s->mtime = s->exists ? st.st_mtim : (struct timespec){0, 0};
  s->size = s->exists ? st.st_size : 0;
}

/* Stamps the files read since the last time. */
static void stamp_new(worker *W) {
  hl_strv files = {0}, profiles = {0};
  hl_configs_files(W->A.configs, &files, &profiles);
  for (size_t i = 0; i < profiles.n; i++) hl_strv_add(&files, profiles.v[i]);
  lsp_project_files(W->A.project, &files);
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

/* With the lock held: the document whose analysis is due first — of a
 * new text, or the refine of its fast result (*refine; when refines is
 * set), which an edit puts off — or NULL with *until the time the next
 * one is (0: none is pending). */
static lsp_doc *next_due(lsp_server *S, int refines, double *until, int *refine) {
  lsp_doc *first = NULL;
  double at = 0;
  *refine = 0;
  for (size_t i = 0; i < S->ndocs; i++) {
    lsp_doc *d = S->docs[i];
    if (!d->analyzed || (!d->pending && !(d->refine && refines))) continue;
    double when = d->pending ? d->due : d->refine_due;
    if (!first || when < at) {
      first = d;
      at = when;
      *refine = !d->pending;
    }
  }
  *until = first ? at : 0;
  return first && at <= lsp_now() ? first : NULL;
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
static void free_closed(worker *W) {
  lsp_server *S = W->A.S;
  lsp_doc **v = S->closed;
  size_t n = S->nclosed;
  S->closed = NULL;
  S->nclosed = S->capclosed = 0;
  /* Disposing units, and waiting for a parse ahead: an exit meanwhile
   * ends the server at once, as during an analysis. */
  S->analyzing = 1;
  /* A document whose refine's parse runs is left to refined(), which
   * frees it once the parse is over: waiting for that parse, at a lower
   * priority, would hold up the edits of the others. */
  int parsing = W->refining && lsp_refine_state(W->refining) == LSP_REFINE_PARSING;
  pthread_mutex_unlock(&S->lock);
  for (size_t i = 0; i < n; i++) {
    if (v[i] == W->refining) {
      if (parsing) continue;
      W->refining = NULL;
    }
    lsp_unit_forget(v[i]);
    lsp_doc_free(v[i]);
  }
  free(v);
  /* A parse ahead for a unit just freed (a file closed soon after it was
   * opened) frees its own when it is over: at most one parse to wait. */
  hl_ahead_wait_dropped();
#if defined(__GLIBC__)
  malloc_trim(0);
#endif
  pthread_mutex_lock(&S->lock);
  S->analyzing = 0;
}

/* The configurations of --config-file or --config, else of each file's
 * .heaplint.yaml, under the command line's layer (--checks, the filters):
 * refused only for what the command line says, which hl_lsp_main has
 * checked before the worker starts. */
static hl_configs *configs_new(const lsp_server *S) {
  char *err = NULL;
  hl_configs *C = hl_configs_new(&S->opt.cli.config, S->opt.rules, &err);
  if (!C) {
    fprintf(stderr, "heaplint lsp: fatal: %s\n", err);
    abort();
  }
  return C;
}

/* With the lock held (released meanwhile): reads the configurations and
 * databases again when asked to, or when one changed on disk. */
static void refresh(worker *W) {
  lsp_server *S = W->A.S;
  int force = S->reload;
  S->reload = S->recheck = 0;
  pthread_mutex_unlock(&S->lock);
  if (force || stamps_changed(W)) {
    hl_configs_free(W->A.configs);
    W->A.configs = configs_new(S);
    /* The plans read the configurations too. */
    lsp_apis_free(W->A.apis);
    W->A.apis = NULL;
    lsp_project_forget(W->A.project);
    stamps_clear(W);
  }
  pthread_mutex_lock(&S->lock);
}

typedef struct analysis {
  lsp_analyzer *A;
  lsp_doc *d;
  int fast;
  lsp_snapshot *sn;
  lsp_result *r;
} analysis;

static void analysis_step(void *arg) {
  analysis *a = arg;
  a->r = lsp_analyze(a->A, a->d, a->fast, a->sn);
}

static int same_diagnostics(const lsp_result *a, const lsp_result *b) {
  if (a->nitems != b->nitems) return 0;
  for (size_t i = 0; i < a->nitems; i++)
    if (!json_equal(a->items[i].diagnostic, b->items[i].diagnostic)) return 0;
  return 1;
}

/* With the lock held: stores r, the full unit's analysis of the text
 * whose fast result d shows. The same diagnostics: r replaces that result
 * silently (its code actions and hovers are the full unit's); others are
 * published, and d's edits parse in full from now on. Dropped when the
 * text changed meanwhile (its own fast result is refined later). */
static void refine_store(lsp_server *S, lsp_doc *d, lsp_result *r) {
  if (d->closed || d->gen != r->gen || !d->result || d->result->gen != r->gen) {
    lsp_result_free(r);
  } else if (same_diagnostics(d->result, r)) {
    if (S->err) fprintf(S->err, "heaplint lsp: %s: refined: the same diagnostics\n", d->path);
    r->id = d->result->id;
    lsp_result_free(d->result);
    d->result = r;
  } else {
    lsp_log(S, 3,
            "%s: the analysis that parses every function body found what the fast one did not (a value "
            "stored in a header's template, say): its edits are analyzed that way from now on",
            d->path);
    lsp_unit_set_incomplete(d);
    lsp_result_store(S, d, r);
  }
}

typedef struct refine_begin {
  lsp_analyzer *A;
  lsp_doc *d;
  lsp_snapshot *sn;
  lsp_refine *r;
} refine_begin;

static void refine_begin_step(void *arg) {
  refine_begin *b = arg;
  b->r = lsp_refine_begin(b->A, b->d, b->sn);
}

/* With the lock held (released meanwhile): starts the refine of d over
 * sn, its parse on the refiner's thread (here when none can start: the
 * next round walks it either way). Returns 0 when the refine is to be
 * analyzed here instead (lsp_refine_begin), sn untouched; 1 when it
 * started; 2 when starting it, or its parse run here, crashed. */
static int refine_elsewhere(worker *W, lsp_doc *d, lsp_snapshot *sn) {
  lsp_server *S = W->A.S;
  S->analyzing = 1;
  pthread_mutex_unlock(&S->lock);
  /* Under the crash guard, as the analysis it starts (it finds the
   * file's compile command): a crash costs this refine, not the server. */
  refine_begin b = {&W->A, d, sn, NULL};
  hl_crash what;
  int crashed = hl_crash_run(refine_begin_step, &b, &what);
  if (crashed) {
    char *why = hl_crash_describe(&what);
    lsp_log(S, 1, "%s: starting its refine crashed (%s); it is not refined", d->path, why);
    free(why);
    lsp_snapshot_free(sn);
  }
  lsp_analysis_notes(&W->A);
  (void)pthread_mutex_lock(&S->lock);
  S->analyzing = 0;
  if (crashed) return 2;
  lsp_refine *r = b.r;
  if (!r) return 0;
  W->refining = d;
  /* Stopping: nothing is parsed (the unit is freed as it is). */
  if (S->quit) {
    lsp_refine_parsed(r, NULL);
    return 1;
  }
  if (lsp_refiner_run(S, r) == 0) return 1;
  S->analyzing = 1;
  pthread_mutex_unlock(&S->lock);
  crashed = hl_crash_run(lsp_refine_parse, r, &what);
  (void)pthread_mutex_lock(&S->lock);
  S->analyzing = 0;
  lsp_refine_parsed(r, crashed ? &what : NULL);
  return crashed ? 2 : 1;
}

typedef struct refine_end {
  lsp_analyzer *A;
  lsp_doc *d;
  int crashed;
  lsp_result *r;
} refine_end;

static void refine_end_step(void *arg) {
  refine_end *e = arg;
  e->r = lsp_refine_end(e->A, e->d, &e->crashed);
}

/* With the lock held (released meanwhile): the walk of d's refine, whose
 * parse is over, under the crash guard, and its result stored. Returns 1
 * when the walk crashed. */
static int finish_refine(worker *W, lsp_doc *d) {
  lsp_server *S = W->A.S;
  W->refining = NULL;
  S->analyzing = 1;
  pthread_mutex_unlock(&S->lock);
  refine_end e = {&W->A, d, 0, NULL};
  hl_crash what;
  int crashed = hl_crash_run(refine_end_step, &e, &what);
  if (crashed) e.r = lsp_refine_crashed(&W->A, d, &what);
  lsp_analysis_notes(&W->A);
  stamp_new(W);
  /* As in analyze_due: a crash may have left the lock taken. */
  (void)pthread_mutex_lock(&S->lock);
  S->analyzing = 0;
  if (e.r && !crashed && !e.crashed)
    refine_store(S, d, e.r);
  else if (e.r)
    lsp_result_store(S, d, e.r);
  return crashed;
}

/* With the lock held (released meanwhile): analyzes d under the crash
 * guard (its new text, or the refine of its fast result), and stores the
 * result. Returns 1 when the analysis crashed. */
static int analyze_due(worker *W, lsp_doc *d, int refine) {
  lsp_server *S = W->A.S;
  lsp_snapshot sn;
  lsp_snapshot_take(S, d, lsp_unit_reads(d), &sn);
  if (!refine) d->pending = 0;
  d->refine = 0;
  int elsewhere = refine ? refine_elsewhere(W, d, &sn) : 0;
  if (elsewhere) return elsewhere == 2;
  /* lsp_analyze parses in full a file whose fast unit a refine found incomplete. */
  int fast = !refine && S->opt.fast_first;
  S->analyzing = 1;
  pthread_mutex_unlock(&S->lock);
  analysis a = {&W->A, d, fast, &sn, NULL};
  hl_crash what;
  int crashed = hl_crash_run(analysis_step, &a, &what);
  if (crashed) a.r = lsp_analysis_crashed(&W->A, d, &sn, &what);
  lsp_analysis_notes(&W->A);
  stamp_new(W);
  /* The analysis takes the lock (to add an open document it reads): a
   * crash there left it taken by this thread, which the lock, checking
   * errors, answers with EDEADLK. */
  (void)pthread_mutex_lock(&S->lock);
  S->analyzing = 0;
  /* The debounce's history: the reparses of the kept unit (a first parse
   * also builds the preamble). */
  double reparse = crashed ? -1 : lsp_unit_reparse(d);
  if (reparse >= 0 && !refine) lsp_doc_took(d, reparse);
  if (refine && !crashed) {
    refine_store(S, d, a.r);
  } else {
    int current = !d->closed && d->gen == a.r->gen;
    lsp_result_store(S, d, a.r);
    if (!crashed && current && lsp_unit_was_fast(d)) {
      d->refine = 1;
      d->refine_due = lsp_now() + (double)S->opt.refine_ms / 1000.0;
    }
  }
  lsp_snapshot_free(&sn);
  return crashed;
}

/* With the lock held (released meanwhile): answers the workspace/diagnostic
 * requests (cached.h), leaving out the files open now. */
static void answer_pulls(worker *W) {
  lsp_server *S = W->A.S;
  lsp_pull *v = S->pulls;
  size_t n = S->npulls;
  S->pulls = NULL;
  S->npulls = S->cappulls = 0;
  char **open = hl_xcalloc(S->ndocs + 1, sizeof *open);
  size_t nopen = S->ndocs;
  for (size_t i = 0; i < nopen; i++) open[i] = hl_xstrdup(S->docs[i]->path);
  pthread_mutex_unlock(&S->lock);
  for (size_t i = 0; i < n; i++) {
    lsp_reply(S, v[i].id, lsp_cached_reports(&W->A, v[i].params, open, nopen));
    json_decref(v[i].id);
    json_decref(v[i].params);
  }
  for (size_t i = 0; i < nopen; i++) free(open[i]);
  free(open);
  free(v);
  stamp_new(W);
  pthread_mutex_lock(&S->lock);
}

/* With the lock held: whether the workspace/diagnostic requests are
 * answered now — the first, and after a save (the check may have run, a
 * file changed); else once WORKSPACE_PULL_INTERVAL has passed, which
 * moves *until (the next document's due time, 0: none) forward to then. */
static int pulls_due(worker *W, double *until) {
  lsp_server *S = W->A.S;
  double due = W->pulled_at + WORKSPACE_PULL_INTERVAL;
  if (!W->pulled || S->saves != W->pulled_saves || lsp_now() >= due) {
    W->pulled = 1;
    W->pulled_at = lsp_now();
    W->pulled_saves = S->saves;
    return 1;
  }
  if (*until <= 0 || due < *until) *until = due;
  return 0;
}

/* With the lock held: the document whose refine's parse is over, for its
 * walk, or NULL. A refine that an analysis needing the full unit dropped
 * (analysis.c: it waited for the parse) is forgotten here. */
static lsp_doc *refined(worker *W) {
  if (!W->refining) return NULL;
  int state = lsp_refine_state(W->refining);
  if (W->refining->closed) {
    /* Closed during its refine's parse (free_closed): freed once it is over. */
    if (state != LSP_REFINE_PARSING) {
      lsp_server *S = W->A.S;
      HL_PUSH(S->closed, S->nclosed, S->capclosed, W->refining);
      W->refining = NULL;
    }
    return NULL;
  }
  if (state == LSP_REFINE_NONE) W->refining = NULL;
  return state == LSP_REFINE_PARSED ? W->refining : NULL;
}

static void *worker_main(void *arg);

/* A thread running the worker, with the stack libclang's own parse thread
 * would have: libclang parses on it (engine/crash.h). */
static int start_thread(worker *W, pthread_t *thread) {
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  pthread_attr_setstacksize(&attr, HL_CRASH_STACK_SIZE);
  int rc = pthread_create(thread, &attr, worker_main, W);
  pthread_attr_destroy(&attr);
  return rc ? -1 : 0;
}

/* With the lock held: after a crash, a new thread takes the worker's
 * place, so that what libclang and LLVM keep per thread (the crash
 * recovery context of a parse the crash left, the pretty stack trace)
 * dies with this one. Returns 0, or -1 when no thread can be started
 * (this one goes on). */
static int hand_over(worker *W) {
  pthread_t next;
  if (start_thread(W, &next)) return -1;
  pthread_detach(pthread_self());
  W->A.S->worker = next;
  return 0;
}

static void *worker_main(void *arg) {
  worker *W = arg;
  lsp_server *S = W->A.S;
  if (!W->A.index) W->A.index = hl_index_new_kept();
  pthread_mutex_lock(&S->lock);
  int handed_over = 0;
  while (!S->quit && !handed_over) {
    double until;
    int refine;
    lsp_doc *d;
    if (S->nclosed) {
      free_closed(W);
    } else if (S->reload || S->recheck) {
      refresh(W);
    } else if ((d = refined(W))) {
      if (finish_refine(W, d) && !S->quit) handed_over = hand_over(W) == 0;
    } else if ((d = next_due(S, !W->refining, &until, &refine))) {
      if (analyze_due(W, d, refine) && !S->quit) handed_over = hand_over(W) == 0;
    } else if (S->npulls && pulls_due(W, &until)) {
      answer_pulls(W);
    } else {
      sleep_until(S, until);
    }
  }
  pthread_mutex_unlock(&S->lock);
  return NULL;
}

int lsp_worker_start(lsp_server *S, const hl_profile_set *profiles) {
  worker *W = hl_xcalloc(1, sizeof *W);
  W->A.S = S;
  W->A.configs = configs_new(S);
  W->A.project = lsp_project_new(S->opt.cli.build_path, &S->opt.cli.extra_before, &S->opt.cli.extra_after);
  W->A.run.profiles = profiles;
  W->A.run.layouts = 1;
  pthread_mutex_init(&W->A.run.lock, NULL);
  S->worker_state = W;
  if (start_thread(W, &S->worker)) return -1;
  S->worker_started = 1;
  return 0;
}

int lsp_worker_stop(lsp_server *S) {
  worker *W = S->worker_state;
  if (!W) return 0;
  pthread_mutex_lock(&S->lock);
  S->quit = 1;
  /* A refine's parse on the refiner's thread is a parse too. */
  int busy = S->analyzing || lsp_refiner_busy(S);
  pthread_cond_signal(&S->wake);
  /* The thread now: after a crash, another took the place of the first. */
  pthread_t thread = S->worker;
  pthread_mutex_unlock(&S->lock);
  if (busy) return -1;
  if (S->worker_started) pthread_join(thread, NULL);
  lsp_refiner_stop(S);
  /* Everything the worker kept, now that it is gone. */
  for (size_t i = 0; i < S->nclosed; i++) {
    lsp_unit_forget(S->closed[i]);
    lsp_doc_free(S->closed[i]);
  }
  S->nclosed = 0;
  for (size_t i = 0; i < S->ndocs; i++) lsp_unit_forget(S->docs[i]);
  if (W->A.index) clang_disposeIndex(W->A.index);
  hl_configs_free(W->A.configs);
  lsp_apis_free(W->A.apis);
  lsp_project_free(W->A.project);
  pthread_mutex_destroy(&W->A.run.lock);
  hl_strv_free(&W->A.run.warned);
  hl_strv_free(&W->A.told);
  free(W->A.notes);
  stamps_clear(W);
  free(W->stamps);
  free(W);
  S->worker_state = NULL;
  return 0;
}
