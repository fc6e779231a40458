/* workspace/didChangeWatchedFiles: a .heaplint.yaml or compile_commands.json
 * changed (the watchers lifecycle.c registers): the worker reads them
 * again, and every open file is analyzed again. */
#include "lsp/handlers.h"

void lsp_on_did_change_watched_files(lsp_server *S, json_t *id, json_t *params) {
  (void)id;
  (void)params;
  pthread_mutex_lock(&S->lock);
  S->reload = 1;
  lsp_reanalyze_all(S);
  pthread_mutex_unlock(&S->lock);
}
