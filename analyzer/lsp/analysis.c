#include "lsp/analysis.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "input/jobs.h"
#include "lsp/apis.h"
#include "lsp/diagnostics.h"
#include "lsp/hover.h"
#include "report/pipeline.h"
#include "report/source.h"
#include "util/util.h"

/* Analyses of a document that crashed in a row before it waits for a save:
 * each leaves one unit's memory behind. */
#define MAX_CRASHES 3

struct lsp_unitstate {
  hl_job job; /* what unit was parsed from (an includer's, for a header) */
  int has_job;
  /* The kept units, NULL until parsed, after a failed reparse, and after
   * a crash: every function body parsed (the check's parse), and the fast
   * one, whose preamble skips the bodies of the functions it declares. */
  hl_tu *unit, *fast;
  int incomplete;      /* a refine found what the fast unit missed: edits parse in full */
  int was_fast;        /* the last analysis used the fast unit */
  hl_strv reads;       /* the files its last parse read, sorted (snapshot.h) */
  int crashes;         /* analyses that crashed in a row */
  unsigned long saves; /* lsp_server.saves at the last crash */
  char *crash;         /* what crashed last */
  int reparsed;        /* the last analysis reparsed the kept unit ... */
  double reparse;      /* ... in this many seconds (-1: it parsed afresh, or failed) */
  /* A refine whose parse of unit runs or ran on the refiner's thread: the
   * worker leaves unit alone until it is over (refine_wait). */
  lsp_refine *refining;
};

/* A refine's parse of the full unit, handed to another thread, and what
 * its walk needs after it. */
struct lsp_refine {
  lsp_server *S;
  lsp_snapshot sn;
  hl_tu **slot;      /* &d->unit->unit: NULL to parse afresh */
  const hl_job *job; /* d->unit->job */
  int questions;     /* the fast unit asked trait questions: the full one will */
  FILE *log;         /* what the parse says, then the walk */
  char *buf;
  size_t len;
  /* under S->lock */
  int parsed;    /* the parse is over ... */
  int crashed;   /* ... and crashed, */
  hl_crash what; /* ... saying this */
};

static void note(lsp_analyzer *A, int type, const char *fmt, ...) HL_PRINTF(3, 4);
static void note(lsp_analyzer *A, int type, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  hl_sb b = {0};
  hl_sb_vprintf(&b, fmt, ap);
  va_end(ap);
  lsp_note n = {type, hl_sb_take(&b)};
  HL_PUSH(A->notes, A->nnotes, A->capnotes, n);
}

void lsp_analysis_notes(lsp_analyzer *A) {
  for (size_t i = 0; i < A->nnotes; i++) {
    lsp_log(A->S, A->notes[i].type, "%s", A->notes[i].text);
    free(A->notes[i].text);
  }
  A->nnotes = 0;
}

double lsp_unit_reparse(const lsp_doc *d) { return d->unit ? d->unit->reparse : -1; }

int lsp_unit_was_fast(const lsp_doc *d) { return d->unit && d->unit->was_fast; }

void lsp_unit_set_incomplete(lsp_doc *d) {
  /* Edits parse in full from now on: the next analysis frees the fast
   * unit (not here: the caller holds the server's lock). */
  if (d->unit) d->unit->incomplete = 1;
}

const hl_strv *lsp_unit_reads(const lsp_doc *d) { return d->unit ? &d->unit->reads : NULL; }

/* Drops u's refine, its parse over (u->unit as it left it: NULL after a
 * failed parse). After a crash the unit is abandoned, and so is the log:
 * the crashed thread may have left it locked. */
static void refine_free(lsp_unitstate *u) {
  lsp_refine *r = u->refining;
  if (r->crashed) {
    hl_tu_abandon(u->unit);
    u->unit = NULL;
  } else {
    fclose(r->log);
    free(r->buf);
  }
  lsp_snapshot_free(&r->sn);
  free(r);
  u->refining = NULL;
}

/* Waits until the parse of u's refine, if one runs elsewhere, is over, and
 * drops the refine: the worker may then use u->unit. Without the server's
 * lock. */
static void refine_wait(lsp_unitstate *u) {
  lsp_refine *r = u->refining;
  if (!r) return;
  pthread_mutex_lock(&r->S->lock);
  while (!r->parsed) pthread_cond_wait(&r->S->wake, &r->S->lock);
  pthread_mutex_unlock(&r->S->lock);
  refine_free(u);
}

void lsp_unit_forget(lsp_doc *d) {
  lsp_unitstate *u = d->unit;
  if (!u) return;
  refine_wait(u);
  hl_tu_free(u->unit);
  hl_tu_free(u->fast);
  if (u->has_job) hl_job_free(&u->job);
  hl_strv_free(&u->reads);
  free(u->crash);
  free(u);
  d->unit = NULL;
}

/* A kept unit reparses only its main file after the preamble (the
 * #includes at the top), which it precompiles at the first parse.
 * KeepGoing, as the check parses (engine/analyze.c's hl_analyze): a fatal
 * error does not end the parse in either front end. The fast unit skips
 * the bodies of the functions its preamble declares, as clangd's preamble
 * does: a reparse then instantiates nothing of the headers' code (on the
 * example's main.cc a reparse takes a quarter of the time), but what
 * follows a value into a header's template body finds nothing there. */
static unsigned parse_options(int fast) {
  unsigned o = (clang_defaultEditingTranslationUnitOptions() & ~(unsigned)CXTranslationUnit_CacheCompletionResults) |
               CXTranslationUnit_CreatePreambleOnFirstParse | CXTranslationUnit_KeepGoing;
  if (fast) o |= CXTranslationUnit_SkipFunctionBodies | CXTranslationUnit_LimitSkipFunctionBodiesToPreamble;
  return o;
}

/* Says once per file where its compile command comes from when it is not
 * its own entry of a compile database. */
static void tell(lsp_analyzer *A, const lsp_doc *d, lsp_source from, const char *how) {
  if (from == LSP_FROM_DB || !hl_strv_add_unique(&A->told, d->path)) return;
  if (from == LSP_FROM_INCLUDER)
    note(A, 3, "%s: not in a compile database; analyzed with %s", d->path, how);
  else
    note(A, 3, "%s: no compile command in a compile database; analyzed with the fallback flags, %s", d->path, how);
}

/* A fresh parse of a full unit, with an index of its own: it may be parsed
 * on the refiner's thread while the worker parses others (worker.c). */
static hl_tu *parse_full(const hl_job *job, const lsp_snapshot *sn, FILE *log) {
  return hl_tu_parse(NULL, job, sn->files, sn->n, parse_options(0), log);
}

/* A fresh parse of u's unit (the fast one when fast). The fast unit's
 * first analysis publishes first, so its trait questions' parse is started
 * beside it (engine/ahead.h). */
static hl_tu *parse(lsp_analyzer *A, lsp_unitstate *u, int fast, const lsp_snapshot *sn, FILE *log) {
  if (fast) return hl_tu_parse_ahead(A->index, &u->job, sn->files, sn->n, parse_options(1), log);
  return parse_full(&u->job, sn, log);
}

/* d's compile command, into *job (to free). */
static void job_of(lsp_analyzer *A, const lsp_doc *d, const hl_config *cfg, hl_job *job) {
  char *how = NULL;
  hl_strv msgs = {0};
  lsp_source from = lsp_project_job(A->project, d->path, cfg, job, &how, &msgs);
  for (size_t i = 0; i < msgs.n; i++) note(A, 2, "%s", msgs.v[i]);
  hl_strv_free(&msgs);
  tell(A, d, from, how);
  free(how);
}

/* d's unit (the fast one when fast) parsed over the snapshot: reparsed
 * when its compile command is the same as last time, else parsed afresh
 * (both units, which share the command, are dropped then). NULL after
 * saying why on log. */
static hl_tu *unit_for(lsp_analyzer *A, lsp_doc *d, int fast, const hl_config *cfg, const lsp_snapshot *sn, FILE *log) {
  lsp_unitstate *u = d->unit;
  hl_tu **slot;
  hl_job job;
  job_of(A, d, cfg, &job);
  /* A header's code is in its includer's preamble, whose bodies the fast
   * unit skips: only a unit's main file is analyzed fast. */
  u->was_fast = fast = fast && !strcmp(job.file, d->path);
  slot = fast ? &u->fast : &u->unit;
  int same = u->has_job && hl_job_same(&u->job, &job);
  /* The full unit, parsed elsewhere for a refine that this text made
   * stale: after that parse. */
  if (!fast || !same) refine_wait(u);
  if (same) {
    hl_job_free(&job);
    if (!*slot) {
      *slot = parse(A, u, fast, sn, log);
      return *slot;
    }
    u->reparsed = 1;
    if (hl_tu_reparse(*slot, sn->files, sn->n, log) == 0) return *slot;
    hl_tu_free(*slot);
    *slot = NULL;
    return NULL;
  }
  /* The units point into the job they were parsed with. */
  hl_tu_free(u->unit);
  hl_tu_free(u->fast);
  u->unit = u->fast = NULL;
  if (u->has_job) hl_job_free(&u->job);
  u->job = job;
  u->has_job = 1;
  *slot = parse(A, u, fast, sn, log);
  return *slot;
}

/* d's unit parsed over every open document it reads: one it reads that
 * sn lacked (an #include just typed, a header opened since) is added and
 * the unit parsed again, until none is new (each round adds what the
 * last one's new headers include; a few are enough). Keeps the files it
 * read for the next snapshot. NULL after a failed reparse. */
static hl_tu *read_open_documents(lsp_analyzer *A, lsp_doc *d, hl_tu **slot, lsp_snapshot *sn, FILE *log) {
  lsp_unitstate *u = d->unit;
  for (int round = 0; *slot && round < 4; round++) {
    /* Listing the files costs 10 to 20 ms on a unit of 175 headers
     * (libclang reads its preamble's source locations): only worth it when
     * an open document might be missing. */
    pthread_mutex_lock(&A->S->lock);
    int all_in = sn->n >= A->S->ndocs;
    pthread_mutex_unlock(&A->S->lock);
    if (all_in) break;
    hl_strv_free(&u->reads);
    hl_tu_files(*slot, &u->reads);
    lsp_paths_sort(&u->reads);
    pthread_mutex_lock(&A->S->lock);
    unsigned added = lsp_snapshot_add(A->S, d, &u->reads, sn);
    pthread_mutex_unlock(&A->S->lock);
    if (!added) break;
    if (hl_tu_reparse(*slot, sn->files, sn->n, log)) {
      hl_tu_free(*slot);
      *slot = NULL;
    }
  }
  return *slot;
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
    if (!strcmp(f->loc.file, d->path))
      shown++;
    else
      hl_sb_printf(&b, "%s:%u:%u: error: %s\n", hl_display_path(f->loc.file), f->loc.line, f->loc.col, f->message);
  }
  if (shown >= res->compile_errors) {
    hl_sb_free(&b);
    return NULL;
  }
  hl_sb m = {0};
  hl_sb_printf(&m,
               "heaplint: the translation unit has %u compile error%s outside this file; what libclang recovered "
               "is analyzed, and no fix is offered:\n%s%s",
               res->compile_errors - shown, res->compile_errors - shown == 1 ? "" : "s", hl_sb_str(&b), log);
  hl_sb_free(&b);
  return hl_sb_take(&m);
}

/* The report stage for one document: NOLINT over the text analyzed, then
 * the findings and layouts in the document itself. */
static void report(lsp_analyzer *A, const lsp_doc *d, const lsp_snapshot *sn, const hl_config *cfg, hl_tu_result *res,
                   const char *log, lsp_result *r) {
  hl_sources *src = hl_sources_new();
  for (unsigned i = 0; i < sn->n; i++)
    hl_sources_put(src, sn->files[i].Filename, sn->files[i].Contents, sn->files[i].Length);
  char *main_file = d->unit->job.file;
  hl_findings_settle(&res->findings, src, &main_file, 1);
  char *elsewhere = errors_elsewhere(d, res, log);
  if (elsewhere) lsp_result_add_failure(r, elsewhere);
  free(elsewhere);
  lsp_conv *c = lsp_conv_new(src, A->S->enc, sn->paths, sn->uris, sn->ndocs);
  for (size_t i = 0; i < res->findings.n; i++) {
    const hl_finding *f = res->findings.v[i];
    if (!f->undecided && !strcmp(f->loc.file, d->path)) lsp_result_add_finding(r, f, c, &A->S->opt);
  }
  for (size_t i = 0; i < res->layouts.n; i++)
    if (!strcmp(res->layouts.v[i]->loc.file, d->path)) lsp_result_add_layout(r, res->layouts.v[i], c);
  lsp_apis_add_hovers(&A->apis, &A->S->opt.cli, cfg, A->configs, d->path, c, r);
  lsp_conv_free(c);
  hl_sources_free(src);
}

/* Whether d waits for a save after crashing too often: r then says so. */
static int suspended(lsp_unitstate *u, const lsp_snapshot *sn, lsp_result *r) {
  if (u->crashes < MAX_CRASHES) return 0;
  if (u->saves != sn->saves) {
    u->crashes = 0;
    return 0;
  }
  char *m = hl_xasprintf(
      "heaplint: not analyzed: its analysis crashed %d times in a row (the last time: %s); it is "
      "analyzed again once a file is saved",
      u->crashes, u->crash);
  lsp_result_add_failure(r, m);
  free(m);
  return 1;
}

/* Whether the reader replaced d's text since sn was taken: the result
 * would be dropped, so the engine need not run. */
static int stale(lsp_analyzer *A, const lsp_doc *d, const lsp_snapshot *sn) {
  pthread_mutex_lock(&A->S->lock);
  int newer = d->gen != sn->gen || d->closed;
  pthread_mutex_unlock(&A->S->lock);
  return newer;
}

/* The engine and the report stage over t, d's unit as parsed over sn
 * (NULL: the parse failed, having said why on log), into r; log (closed
 * here) writes *buf. */
static void analyze_parsed(lsp_analyzer *A, lsp_doc *d, const hl_config *cfg, hl_tu *t, lsp_snapshot *sn, FILE *log,
                           char **buf, size_t *len, lsp_result *r) {
  hl_tu_result res;
  memset(&res, 0, sizeof res);
  res.result = HL_NOT_PARSED;
  if (t && !stale(A, d, sn)) hl_tu_analyze(&A->run, t, cfg, log, &res);
  fclose(log);
  hl_crash_step("reporting", NULL);
  if (res.result == HL_ANALYZED) {
    report(A, d, sn, cfg, &res, *buf, r);
    /* What the analysis said besides (no profile for a library, a type
     * query that failed) goes to the log, as the CLI's stderr. */
    if (*len) note(A, 2, "%s", *buf);
  } else {
    lsp_result_add_failure(r, *buf);
  }
  hl_tu_result_free(&res);
  free(*buf);
  *buf = NULL;
}

static void analyze_unit(lsp_analyzer *A, lsp_doc *d, int fast, lsp_snapshot *sn, lsp_result *r) {
  char *buf;
  size_t len;
  FILE *log = hl_xmemstream(&buf, &len);
  const hl_config *cfg = NULL;
  char *err = NULL;
  hl_tu *u = NULL;
  if (hl_config_for(A->configs, d->path, &cfg, &err)) {
    fprintf(log, "heaplint: error: %s\n", err);
    free(err);
  } else {
    double start = lsp_now();
    d->unit->reparsed = 0;
    if ((u = unit_for(A, d, fast, cfg, sn, log)))
      u = read_open_documents(A, d, d->unit->was_fast ? &d->unit->fast : &d->unit->unit, sn, log);
    d->unit->reparse = u && d->unit->reparsed ? lsp_now() - start : -1;
  }
  analyze_parsed(A, d, cfg, u, sn, log, &buf, &len, r);
}

lsp_result *lsp_analyze(lsp_analyzer *A, lsp_doc *d, int fast, lsp_snapshot *sn) {
  lsp_result *r = hl_xcalloc(1, sizeof *r);
  r->gen = sn->gen;
  r->version = sn->version;
  if (!d->unit) d->unit = hl_xcalloc(1, sizeof *d->unit);
  d->unit->reparse = -1;
  if (sn->lost) {
    lsp_result_add_failure(r,
                           "heaplint: not analyzed: the editor sent a change whose range ends before it starts, "
                           "which heaplint refused, so its copy of this file is not the editor's text; reopen the "
                           "file");
    return r;
  }
  /* Which unit a crash leaves abandoned, until unit_for knows. */
  d->unit->was_fast = fast && !d->unit->incomplete;
  if (d->unit->incomplete && d->unit->fast) {
    hl_tu_free(d->unit->fast);
    d->unit->fast = NULL;
  }
  if (suspended(d->unit, sn, r)) return r;
  analyze_unit(A, d, fast && !d->unit->incomplete, sn, r);
  d->unit->crashes = 0;
  return r;
}

lsp_result *lsp_analysis_crashed(lsp_analyzer *A, lsp_doc *d, const lsp_snapshot *sn, const hl_crash *what) {
  if (!d->unit) d->unit = hl_xcalloc(1, sizeof *d->unit);
  lsp_unitstate *u = d->unit;
  /* Whatever state the crash left the unit it analyzed in: not even
   * disposing it is safe (the other one was not in it). Its parse ahead,
   * on a thread of its own, is let go. */
  hl_tu **crashed = u->was_fast ? &u->fast : &u->unit;
  if (!u->was_fast) refine_wait(u);
  hl_tu_abandon(*crashed);
  *crashed = NULL;
  u->reparse = -1;
  u->crashes++;
  u->saves = sn->saves;
  free(u->crash);
  u->crash = hl_crash_describe(what);
  lsp_result *r = hl_xcalloc(1, sizeof *r);
  r->gen = sn->gen;
  r->version = sn->version;
  char *m = hl_xasprintf(
      "heaplint: the analysis of %s crashed (%s): its diagnostics are lost until it changes, and "
      "its next analysis parses it afresh%s; the other files keep theirs. This is a bug in "
      "heaplint or libclang: please report it with this file",
      hl_display_path(d->path), u->crash,
      u->crashes >= MAX_CRASHES ? " once a file is saved (it crashed three times in a row)" : "");
  lsp_result_add_failure(r, m);
  note(A, 1, "%s: %s", d->path, m);
  free(m);
  return r;
}

lsp_refine *lsp_refine_begin(lsp_analyzer *A, lsp_doc *d, lsp_snapshot *sn) {
  lsp_unitstate *u = d->unit;
  const hl_config *cfg;
  char *err = NULL;
  if (!u || !u->has_job || u->refining || u->incomplete || sn->lost || u->crashes >= MAX_CRASHES) return NULL;
  if (hl_config_for(A->configs, d->path, &cfg, &err)) {
    free(err);
    return NULL;
  }
  /* The same command as the fast unit's, for d itself (not a header's
   * includer): else the full unit is parsed here, after the other is
   * dropped (unit_for). */
  hl_job job;
  job_of(A, d, cfg, &job);
  int same = hl_job_same(&u->job, &job) && !strcmp(job.file, d->path);
  hl_job_free(&job);
  if (!same) return NULL;
  lsp_refine *r = hl_xcalloc(1, sizeof *r);
  r->S = A->S;
  r->sn = *sn;
  memset(sn, 0, sizeof *sn);
  r->slot = &u->unit;
  r->job = &u->job;
  r->questions = hl_tu_asked(u->fast);
  r->log = hl_xmemstream(&r->buf, &r->len);
  u->refining = r;
  return r;
}

void lsp_refine_parse(void *refine) {
  lsp_refine *r = refine;
  if (!*r->slot) {
    *r->slot = parse_full(r->job, &r->sn, r->log);
  } else if (hl_tu_reparse(*r->slot, r->sn.files, r->sn.n, r->log)) {
    hl_tu_free(*r->slot);
    *r->slot = NULL;
  }
  /* The full unit's first trait question is a parse of the whole file
   * (its own memo is empty): here, not in the walk on the worker. */
  if (*r->slot && r->questions) hl_tu_prepare_queries(*r->slot);
}

void lsp_refine_parsed(lsp_refine *r, const hl_crash *crash) {
  r->parsed = 1;
  r->crashed = crash != NULL;
  if (crash) r->what = *crash;
}

int lsp_refine_state(const lsp_doc *d) {
  const lsp_refine *r = d->unit ? d->unit->refining : NULL;
  return !r ? LSP_REFINE_NONE : r->parsed ? LSP_REFINE_PARSED : LSP_REFINE_PARSING;
}

lsp_result *lsp_refine_crashed(lsp_analyzer *A, lsp_doc *d, const hl_crash *what) {
  lsp_unitstate *u = d->unit;
  lsp_refine *r = u->refining;
  if (!r) return NULL;
  /* lsp_analysis_crashed abandons the full unit, with the refine's text. */
  u->refining = NULL;
  u->was_fast = 0;
  lsp_result *res = lsp_analysis_crashed(A, d, &r->sn, what);
  u->refining = r;
  r->crashed = 1;
  refine_free(u);
  return res;
}

lsp_result *lsp_refine_end(lsp_analyzer *A, lsp_doc *d, int *crashed) {
  lsp_unitstate *u = d->unit;
  lsp_refine *r = u->refining;
  *crashed = r->crashed;
  if (r->crashed) return lsp_refine_crashed(A, d, &r->what);
  const hl_config *cfg = NULL;
  char *err = NULL;
  if (stale(A, d, &r->sn) || hl_config_for(A->configs, d->path, &cfg, &err)) {
    free(err);
    refine_free(u);
    return NULL;
  }
  lsp_result *res = hl_xcalloc(1, sizeof *res);
  res->gen = r->sn.gen;
  res->version = r->sn.version;
  u->was_fast = 0;
  hl_tu *t = u->unit ? read_open_documents(A, d, &u->unit, &r->sn, r->log) : NULL;
  analyze_parsed(A, d, cfg, t, &r->sn, r->log, &r->buf, &r->len, res);
  /* The log is closed: refine_free must not close it again. */
  r->log = NULL;
  lsp_snapshot_free(&r->sn);
  free(r);
  u->refining = NULL;
  u->crashes = 0;
  return res;
}
