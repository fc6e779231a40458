/* workspace/didChangeWatchedFiles: a .heaplint.yaml or compile_commands.json
 * changed (the watchers lifecycle.c registers): the worker reads them
 * again, and every open file is analyzed again. */
#include "lsp/handlers.h"

void lsp_on_did_change_watched_files(lsp_server *S, json_t *id, json_t *params) {
  (void)id;
  (void)params;
  pthread_mutex_lock(&S->lock);
  S->reload = 1;
  for (size_t i = 0; i < S->ndocs; i++)
    if (S->docs[i]->analyzed) lsp_doc_schedule(S, S->docs[i], 0);
  pthread_cond_signal(&S->wake);
  pthread_mutex_unlock(&S->lock);
}
