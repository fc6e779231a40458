/* The language server's analysis thread, stood in for in the fuzz
 * harnesses (lsp/worker.h): no thread, no libclang. fuzz_lsp_dispatch
 * does its work between messages. */
#include "lsp/worker.h"

int lsp_worker_start(lsp_server *S, const hl_profile_set *profiles) {
  (void)S;
  (void)profiles;
  return 0;
}

int lsp_worker_stop(lsp_server *S) {
  for (size_t i = 0; i < S->nclosed; i++) lsp_doc_free(S->closed[i]);
  S->nclosed = 0;
  return 0;
}
