/* analyze: one translation unit, start to end — parse it with libclang
 * (saying why when it cannot be), detect its standard library and target,
 * select the profiles, walk its AST once dispatching every cursor of the
 * user's code to the enabled rules, and collect their findings.
 *
 * Parsing and analyzing are separate steps (hl_tu): the check parses,
 * analyzes and disposes each unit (hl_analyze); the language server keeps
 * a unit, parses it over an editor's unsaved text and reparses it after
 * each edit, then analyzes it the same way. */
#ifndef HEAPLINT_ANALYZE_H
#define HEAPLINT_ANALYZE_H

#include <clang-c/Index.h>
#include <pthread.h>
#include <stdio.h>

#include "input/config.h"
#include "engine/finding.h"
#include "engine/layout.h"
#include "engine/summary.h"
#include "input/jobs.h"
#include "input/profile.h"
#include "engine/typeinfo.h"
#include "util/strv.h"

struct hl_rule;

/* What every translation unit of a run shares. Workers run in parallel:
 * lock guards warned. Nothing a rule judges by is shared: a unit's verdicts
 * depend on that unit alone, not on the order or the workers. */
typedef struct hl_run {
  const hl_profile_set *profiles;
  int verbose;
  int layouts;         /* the front end shows layouts: collect them (hl_tu_result) */
  int record_inputs;   /* fill hl_tu_result's inputs (for a result cache) */
  int summaries;       /* fill hl_tu_result's summary (for the project index) */
  int check_instances; /* --check-instances: both instantiation backends, compared (engine/inst) */
  pthread_mutex_t lock;
  hl_strv warned; /* "no profile for ..." said once per library and width */
} hl_run;

typedef enum hl_result {
  HL_ANALYZED,   /* parsed and analyzed (compile_errors says whether it has errors) */
  HL_NOT_PARSED, /* libclang could not parse it */
} hl_result;

/* A file the unit read: its absolute path and the FNV-1a hash and size of
 * the text libclang parsed. */
typedef struct hl_tu_input {
  char *path;
  unsigned long long size, hash;
} hl_tu_input;

typedef struct hl_tu_result {
  hl_result result;
  char *library; /* "libstdc++", or NULL when no standard library header was included */
  char *arch;    /* "x86_64" */
  int pointer_width;
  /* The library has no profile for this width, or one without wrappers:
   * hl_warn_unprofiled says so. */
  enum { HL_PROFILED, HL_NO_PROFILE, HL_PROFILE_WITHOUT_WRAPPERS } unprofiled;
  hl_findings findings;
  unsigned compile_errors; /* its errors (among the findings when they have a place) */
  hl_layouts layouts;      /* every store the rules judged, when run->layouts */
  char **profiles;         /* the profiles that decided, base first (file names) */
  size_t nprofiles;
  /* With run->record_inputs, of an analyzed unit: every file it read, the
   * main file first, each once; and the time (CLOCK_REALTIME, ns) before
   * it read them. */
  hl_tu_input *inputs;
  size_t ninputs;
  long long read_at;
  /* With run->summaries, of an analyzed unit: what it tells the project
   * index (engine/summary.h). */
  hl_summary *summary;
} hl_tu_result;

/* Analyzes job with index (one per thread), under the job's config.
 * libclang failures, compile errors without a place and remarks go to log,
 * naming the file; findings (and located compile errors) to res, with the
 * config's severities and header filter applied. */
void hl_analyze(hl_run *run, CXIndex index, const hl_job *job, const hl_config *cfg, FILE *log, hl_tu_result *res);

/* A parsed translation unit, kept for analyses and reparses. */
typedef struct hl_tu hl_tu;

/* Parses job (which must outlive the unit) with index (NULL: an index of
 * its own, disposed with it — a unit that another thread may parse while
 * this one's index parses others: libclang's index computes and caches
 * its resource directory at a parse, with no lock), over unsaved (an
 * editor's text for some files, named as libclang is given them: the main
 * file as job->source; copied) and the CXTranslationUnit_* options
 * (CXTranslationUnit_None for one analysis; clang_defaultEditingTranslation-
 * UnitOptions() for a unit that is reparsed). Returns NULL after saying why
 * on log, naming the file (libclang's error code: a crash in libclang is
 * recovered from and reported, as is any other failure). */
hl_tu *hl_tu_parse(CXIndex index, const hl_job *job, const struct CXUnsavedFile *unsaved, unsigned nunsaved,
                   unsigned options, FILE *log);
/* As hl_tu_parse, for a kept unit (options with
 * CXTranslationUnit_PrecompiledPreamble) whose first analysis should not
 * wait for a second parse to ask its trait questions: that parse's
 * preamble is built meanwhile on a thread of its own (engine/ahead.h). */
hl_tu *hl_tu_parse_ahead(CXIndex index, const hl_job *job, const struct CXUnsavedFile *unsaved, unsigned nunsaved,
                         unsigned options, FILE *log);
/* Parses u again over new unsaved text. Returns 0, or -1 after saying why
 * on log: the unit then has no translation unit (analyzing it gives
 * HL_NOT_PARSED); free it and parse afresh. */
int hl_tu_reparse(hl_tu *u, const struct CXUnsavedFile *unsaved, unsigned nunsaved, FILE *log);
/* Whether kept unit u asked the compiler trait questions (it keeps a
 * unit for them). */
int hl_tu_asked(const hl_tu *u);
/* Parses kept unit u's trait-question unit over u's own text, no question
 * yet, unless it has one: the first question of u's next analysis then
 * costs a reparse over that unit's preamble, not a parse of the whole
 * file (main.cc: 0.2 s against 1.5 s). For a unit parsed on another
 * thread than the one that analyzes it (the language server's refine). */
void hl_tu_prepare_queries(hl_tu *u);
/* Appends the absolute, canonical path of every file u's last parse read
 * (its main file first, then each header as included; a file may come
 * more than once): the unsaved files its next parse must be given. */
void hl_tu_files(const hl_tu *u, hl_strv *out);
/* Whether job compiles over unsaved (the text a fix would give some files,
 * named by absolute path): 0 when it does; 1 when it has an error, with
 * *first (to free) the first one ("file:line:col: message"); -1 when it
 * cannot be parsed at all (said on log). */
int hl_tu_compiles(CXIndex index, const hl_job *job, const struct CXUnsavedFile *unsaved, unsigned nunsaved,
                   char **first, FILE *log);
/* Analyzes u under cfg, as hl_analyze does after its parse. */
void hl_tu_analyze(hl_run *run, hl_tu *u, const hl_config *cfg, FILE *log, hl_tu_result *res);
void hl_tu_free(hl_tu *u);
/* After a crash in an analysis of u, which is abandoned (engine/crash.h):
 * lets go of what runs elsewhere for it (its parse ahead), nothing else. */
void hl_tu_abandon(hl_tu *u);
void hl_tu_result_free(hl_tu_result *res);

/* The config's verdict on findings of job's (the rules' and the link
 * step's): each rule's severity; a header the header filters leave out is
 * left out. */
void hl_apply_config(const hl_config *cfg, const hl_job *job, hl_findings *found);

/* The warning that job's library has no profile for its target width (its
 * wrappers are not checked), when res says so: once per library and width
 * in a run, naming the first unit it applies to. Called in job order, so
 * that "first" does not depend on the threads. */
void hl_warn_unprofiled(hl_run *run, const hl_job *job, const hl_tu_result *res, FILE *log);

#endif
