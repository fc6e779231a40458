/* lsp: 'heaplint lsp', the language server — the second front end over
 * the engine and report stage the check uses (docs/editors.md,
 * docs/architecture.md). It reads LSP messages on stdin and answers on
 * stdout; the analysis runs on one worker thread (worker.h), so that the
 * reader answers shutdown, cancellations and edits at once. */
#ifndef HEAPLINT_LSP_H
#define HEAPLINT_LSP_H

#include "lsp/rpc.h"
#include "lsp/server.h"

/* argv[0] is "lsp". Returns the exit status: 0 after shutdown and exit,
 * 1 when the input ended or exit came without shutdown, 2 for a bad
 * command line or profile. When a parse is running at the end, the process
 * ends here, with that status (_exit: the parse cannot be interrupted). */
struct hl_rule;
/* rules: the rules heaplint has (NULL-terminated), handed down by main.c. */
int hl_lsp_main(int argc, char **argv, const struct hl_rule *const *rules);

/* Reads one message from r and handles it (the reader loop's step; a fuzz
 * harness drives it too). Returns 0 at the end of the input. */
int lsp_serve_message(lsp_server *S, lsp_reader *r);

#endif
