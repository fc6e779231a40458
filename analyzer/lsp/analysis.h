/* analysis: one open document's analysis, on the worker's thread (a
 * refine's parse on the refiner's: below) — its compile command
 * (project.h) and configuration, its translation unit parsed once and
 * reparsed after edits over the snapshot's unsaved files (the open
 * documents the unit reads added as it comes to read them), the
 * engine, the report stage's NOLINT, and the result: the diagnostics,
 * code actions and hovers (diagnostics.h, actions.h, hover.h), or one
 * error diagnostic saying why there are none. An analysis whose text a
 * newer one replaced while it parsed (a didChange meanwhile) stops after
 * the parse, which libclang cannot interrupt: the engine does not run, and
 * the worker drops the result (lsp_result_store).
 *
 * The worker runs it under engine/crash.h's guard: what it says for the
 * client's log waits in the analyzer until it is over (lsp_analysis_notes),
 * so that a crash cannot leave the output locked. After a crash the
 * document's unit is abandoned (lsp_analysis_crashed) and its next
 * analysis parses afresh; after three in a row it waits for a save, since
 * each crash leaves the memory of one unit behind. */
#ifndef HEAPLINT_LSP_ANALYSIS_H
#define HEAPLINT_LSP_ANALYSIS_H

#include <clang-c/Index.h>

#include "engine/analyze.h"
#include "engine/crash.h"
#include "input/config.h"
#include "lsp/apis.h"
#include "lsp/project.h"
#include "lsp/server.h"
#include "lsp/snapshot.h"

/* A message for the client's log (lsp_log's type and text). */
typedef struct lsp_note {
  int type;
  char *text;
} lsp_note;

/* What every analysis shares: the worker's. */
typedef struct lsp_analyzer {
  lsp_server *S;
  CXIndex index;
  hl_configs *configs;
  lsp_project *project;
  hl_run run;
  hl_strv told;    /* files whose compile command was said (once) */
  lsp_note *notes; /* said by the analysis under way */
  size_t nnotes, capnotes;
  lsp_apis *apis; /* the project index's hovers (lsp/apis.h) */
} lsp_analyzer;

/* Analyzes d as sn has it: with its fast unit when fast (the preamble's
 * function bodies skipped) unless a refine found that unit incomplete for
 * d, else with the unit that parses every body, as the check does. */
lsp_result *lsp_analyze(lsp_analyzer *A, lsp_doc *d, int fast, lsp_snapshot *sn);
/* After lsp_analyze of d crashed: abandons d's unit (never used nor
 * disposed again: its memory stays allocated) and returns what d shows —
 * one error diagnostic saying what crashed. */
lsp_result *lsp_analysis_crashed(lsp_analyzer *A, lsp_doc *d, const lsp_snapshot *sn, const hl_crash *what);
/* Sends what the last analysis said to the client's log. */
void lsp_analysis_notes(lsp_analyzer *A);

/* The refine of d's fast result (worker.c), in steps, so that its parse of
 * the full unit, the long part (a second and more on a real project's
 * file), runs on the refiner's thread (refiner.h) while the worker
 * analyzes d's next edit with the fast unit, which that parse leaves
 * alone. While it runs the worker does not touch the full unit: an
 * analysis that needs it (d's compile command changed) and closing d wait
 * for the parse; libclang cannot stop one. The full unit has an index of
 * its own (hl_tu_parse), as a unit parsed ahead does. */
typedef struct lsp_refine lsp_refine;
/* On the worker: takes sn (d's text when its fast result was stored) and
 * returns the refine, whose parse is to run (lsp_refine_parse); NULL when
 * the refine is analyzed by lsp_analyze (not fast), as before: the
 * command is not the fast unit's any more, d waits for a save after
 * crashes, its text was lost, or a refine is under way. */
lsp_refine *lsp_refine_begin(lsp_analyzer *A, lsp_doc *d, lsp_snapshot *sn);
/* On any thread, under engine/crash.h's guard: parses or reparses the full
 * unit over the refine's text (and, when the fast unit asked trait
 * questions, parses its questions' unit once: hl_tu_prepare_queries). */
void lsp_refine_parse(void *refine);
/* With the server's lock held, once lsp_refine_parse is over: crash NULL,
 * or what crashed it. */
void lsp_refine_parsed(lsp_refine *r, const hl_crash *crash);
enum { LSP_REFINE_NONE, LSP_REFINE_PARSING, LSP_REFINE_PARSED };
/* With the server's lock held, on the worker: where d's refine is. */
int lsp_refine_state(const lsp_doc *d);
/* On the worker, under the crash guard, once parsed: the refine's walk and
 * report over the full unit, with the same snapshot; NULL when d's text
 * changed since (the refine is dropped; its unit stays, reparsed next
 * time). *crashed: the result says that the parse crashed (the unit is
 * abandoned): it is stored as any analysis's, not as a refine. */
lsp_result *lsp_refine_end(lsp_analyzer *A, lsp_doc *d, int *crashed);
/* After lsp_refine_end crashed: as lsp_analysis_crashed. */
lsp_result *lsp_refine_crashed(lsp_analyzer *A, lsp_doc *d, const hl_crash *what);

/* How long the last analysis of d took to reparse its kept unit (s), or
 * -1 when it parsed afresh (building the preamble) or failed: the
 * debounce's measure (server.h), as the reparse is all that a newer edit
 * can waste (a stale analysis stops after it). */
double lsp_unit_reparse(const lsp_doc *d);
/* Whether d's last analysis used its fast unit (not for a header, which
 * its includer's preamble holds, bodies skipped). */
int lsp_unit_was_fast(const lsp_doc *d);
/* Says that a refine of d found what its fast unit missed (findings or
 * their notes from a header's function bodies): its edits parse every body
 * from now on (the next analysis frees the fast unit). */
void lsp_unit_set_incomplete(lsp_doc *d);
/* The files d's unit read at its last parse (sorted), or NULL. */
const hl_strv *lsp_unit_reads(const lsp_doc *d);
/* Frees what the analysis keeps for d: its unit (disposed). */
void lsp_unit_forget(lsp_doc *d);

#endif
