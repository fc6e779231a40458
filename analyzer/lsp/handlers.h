/* handlers: one function per LSP message, in one file per message or
 * small group (ruff's layout), called by the reader loop (lsp.c) from its
 * dispatch table. A request's handler answers it (lsp_reply) or leaves it
 * waiting for the analysis it needs (lsp_answer_or_wait); id is NULL for
 * a notification. */
#ifndef HEAPLINT_LSP_HANDLERS_H
#define HEAPLINT_LSP_HANDLERS_H

#include <jansson.h>

#include "lsp/server.h"

typedef void (*lsp_handler)(lsp_server *S, json_t *id, json_t *params);

/* lifecycle.c */
void lsp_on_initialize(lsp_server *S, json_t *id, json_t *params);
void lsp_on_initialized(lsp_server *S, json_t *id, json_t *params);
void lsp_on_shutdown(lsp_server *S, json_t *id, json_t *params);
void lsp_on_exit(lsp_server *S, json_t *id, json_t *params);
void lsp_on_cancel(lsp_server *S, json_t *id, json_t *params);
/* document.c */
void lsp_on_did_open(lsp_server *S, json_t *id, json_t *params);
void lsp_on_did_change(lsp_server *S, json_t *id, json_t *params);
void lsp_on_did_save(lsp_server *S, json_t *id, json_t *params);
void lsp_on_did_close(lsp_server *S, json_t *id, json_t *params);
/* workspace.c */
void lsp_on_did_change_watched_files(lsp_server *S, json_t *id, json_t *params);
/* pull.c */
void lsp_on_diagnostic(lsp_server *S, json_t *id, json_t *params);
void lsp_on_workspace_diagnostic(lsp_server *S, json_t *id, json_t *params);
/* code_action.c, hover.c */
void lsp_on_code_action(lsp_server *S, json_t *id, json_t *params);
void lsp_on_hover(lsp_server *S, json_t *id, json_t *params);

#endif
