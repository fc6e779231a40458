/* refiner: the thread that runs a refine's parse of a document's full unit
 * (analysis.h's lsp_refine_parse), one at a time, under engine/crash.h's
 * guard, while the worker analyzes edits with the fast units: libclang
 * cannot stop a parse, and on the worker an edit typed during the
 * refine's waited for all of it. When the parse is over it says so to the
 * refine (lsp_refine_parsed) and wakes the worker, which walks the unit.
 * After a crash the thread ends with what libclang kept on it; the next
 * refine starts another. On Linux the thread runs at nice 10, as clangd
 * runs its background work: where the cores are busy (two, and other
 * programs), the edit's analysis beside it gets them first. */
#ifndef HEAPLINT_LSP_REFINER_H
#define HEAPLINT_LSP_REFINER_H

#include "lsp/analysis.h"
#include "lsp/server.h"

/* With S's lock held, none running: hands r's parse to the thread
 * (started when it is not there). Returns 0, or -1 when no thread can be
 * started (the caller parses then). */
int lsp_refiner_run(lsp_server *S, lsp_refine *r);
/* With S's lock held: whether a parse runs. */
int lsp_refiner_busy(lsp_server *S);
/* Without S's lock, none running: ends the thread. */
void lsp_refiner_stop(lsp_server *S);

#endif
