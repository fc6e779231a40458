/* pull: LSP 3.17's pull diagnostics — textDocument/diagnostic, answered
 * with the analysis of the document's current text (waiting for it as
 * hover does): a full report with its resultId, or "unchanged" when the
 * client's previousResultId is still the latest; and workspace/diagnostic,
 * handed to the worker, which answers it from the result cache for the
 * project's files that are not open (cached.h). */
#include <stdio.h>
#include <string.h>

#include "lsp/handlers.h"
#include "lsp/rpc.h"
#include "util/util.h"

static void answer(lsp_server *S, json_t *id, json_t *params, const lsp_result *r) {
  char rid[32];
  snprintf(rid, sizeof rid, "%lu", r ? r->id : 0UL);
  const char *previous = lsp_json_string(json_object_get(params, "previousResultId"));
  if (previous && !strcmp(previous, rid)) {
    lsp_reply(S, id, json_pack("{s:s, s:s}", "kind", "unchanged", "resultId", rid));
    return;
  }
  json_t *items = json_array();
  for (size_t i = 0; r && i < r->nitems; i++) json_array_append(items, r->items[i].diagnostic);
  lsp_reply(S, id, json_pack("{s:s, s:s, s:o}", "kind", "full", "resultId", rid, "items", items));
}

void lsp_on_diagnostic(lsp_server *S, json_t *id, json_t *params) { lsp_with_document(S, id, params, answer); }

void lsp_on_workspace_diagnostic(lsp_server *S, json_t *id, json_t *params) {
  if (!id) return;
  lsp_pull p = {json_incref(id), json_incref(params)};
  pthread_mutex_lock(&S->lock);
  HL_PUSH(S->pulls, S->npulls, S->cappulls, p);
  pthread_cond_signal(&S->wake);
  pthread_mutex_unlock(&S->lock);
}
