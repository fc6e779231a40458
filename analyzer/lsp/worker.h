/* worker: the one analysis thread. It owns the libclang index and each
 * open document's kept translation units, the configurations and the
 * compile databases; libclang is called from it and from the threads that
 * parse for it (engine/ahead.h; refiner.h: a refine's parse of a full
 * unit, which the worker leaves alone meanwhile). It sleeps until a document's
 * analysis is due (the debounce after typing), takes a snapshot of its text
 * and of the open documents its unit reads (snapshot.h: the unsaved files
 * the parse sees), finds its compile command (project.h) and
 * configuration, parses the unit once and reparses it after edits, runs
 * the engine and the report stage's NOLINT, and stores the result —
 * unless a newer text arrived meanwhile, which drops it — publishing the
 * diagnostics and answering the requests that waited for it. The reader
 * thread never waits for it. */
#ifndef HEAPLINT_LSP_WORKER_H
#define HEAPLINT_LSP_WORKER_H

#include "input/profile.h"
#include "lsp/server.h"

/* Starts the worker with the loaded profiles (which must outlive it).
 * Returns 0, or -1 when no thread can be started. */
int lsp_worker_start(lsp_server *S, const hl_profile_set *profiles);
/* Stops it. Returns 0 once it stopped and what it kept is freed; -1, with
 * nothing freed, when it is in an analysis: libclang cannot be
 * interrupted, and a parse may take a minute, while the protocol's exit
 * must end the process at once (editors kill a server after 2 s): the
 * caller then ends it with _exit, the thread and all. */
int lsp_worker_stop(lsp_server *S);

#endif
