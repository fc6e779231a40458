/* ahead: a parse started on a thread of its own, taken when it is needed.
 *
 * The language server's first analysis of a file asks the compiler its
 * trait questions (engine/typeinfo.c) by parsing the file a second time
 * with the questions appended: on the example's main.cc that second parse
 * doubled the time to the first diagnostics. Its preamble (the #includes
 * at the top) does not depend on the questions, so it can be built while
 * the unit itself is parsed, on the machine's other core: the questions
 * then cost a reparse over it. One thread parses ahead for the process,
 * in the order asked; a parse ahead has its own libclang index (its unit
 * must not outlive it), runs under engine/crash.h's guard (a crash ends
 * that parse and its thread, never the process; the next parse starts
 * another), and copies what it is given. */
#ifndef HEAPLINT_ENGINE_AHEAD_H
#define HEAPLINT_ENGINE_AHEAD_H

#include <clang-c/Index.h>

typedef struct hl_ahead hl_ahead;

/* Starts parsing source with args over files (copied) with options; NULL
 * when no thread can be started. */
hl_ahead *hl_ahead_start(const char *source, const char *const *args, int nargs, const struct CXUnsavedFile *files,
                         unsigned nfiles, unsigned options);
/* Waits for it and frees it: its unit, with the index it belongs to in
 * *index (dispose the unit first), or NULL when the parse failed or
 * crashed, or had not started (the caller parses then, sooner than after
 * the parses queued before it). */
CXTranslationUnit hl_ahead_take(hl_ahead *a, CXIndex *index);
/* Lets it go without waiting: a parse still running disposes its unit and
 * index when it is over; one still queued is never run. */
void hl_ahead_drop(hl_ahead *a);

/* Waits until no parse runs that was dropped while it ran (its unit and
 * index disposed then): after freeing closed files' units, so that their
 * memory goes back to the system with the rest (the server's malloc_trim). */
void hl_ahead_wait_dropped(void);
/* Whether a parse ahead runs or waits (one dropped included): a process
 * must not return from main then, which would run libclang's exit-time
 * destructors under it (_exit). */
int hl_ahead_busy(void);

/* An index for kept units, with their preambles in memory (libclang 17
 * and later): a process that ends at once (or is killed) leaves no
 * preamble-*.pch files in the temporary directory. */
CXIndex hl_index_new_kept(void);

#endif
