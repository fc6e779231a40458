/* initialize, initialized, shutdown, exit and $/cancelRequest: what the
 * server offers, the position encoding and the options the client sends,
 * the file watchers, and the end. */
#include <stdlib.h>
#include <string.h>

#include "lsp/handlers.h"
#include "lsp/rpc.h"
#include "util/util.h"

/* UTF-8 when the client offers it (LSP 3.17), else UTF-16, which every
 * client must support. */
static lsp_encoding negotiate(json_t *caps) {
  json_t *offered = json_object_get(json_object_get(caps, "general"), "positionEncodings");
  size_t i;
  json_t *e;
  json_array_foreach(offered, i, e) if (lsp_json_string(e) && !strcmp(lsp_json_string(e), "utf-8")) return LSP_UTF8;
  return LSP_UTF16;
}

/* initializationOptions: {"debounce": <ms>} overrides --debounce. */
static void take_options(lsp_server *S, json_t *init) {
  json_t *debounce = json_object_get(init, "debounce");
  if (json_is_integer(debounce) && json_integer_value(debounce) >= 0 && json_integer_value(debounce) <= 60000)
    S->opt.debounce_ms = (long)json_integer_value(debounce);
}

void lsp_on_initialize(lsp_server *S, json_t *id, json_t *params) {
  if (S->initialized) {
    lsp_reply_error(S, id, LSP_INVALID_REQUEST, "initialize was sent already");
    return;
  }
  json_t *caps = json_object_get(params, "capabilities");
  S->enc = negotiate(caps);
  S->watch_registration = json_is_true(json_object_get(
      json_object_get(json_object_get(caps, "workspace"), "didChangeWatchedFiles"), "dynamicRegistration"));
  take_options(S, json_object_get(params, "initializationOptions"));
  json_t *server_caps =
      json_pack("{s:s, s:{s:b, s:i, s:{s:b}}, s:{s:[s]}, s:b}", "positionEncoding",
                S->enc == LSP_UTF8 ? "utf-8" : "utf-16", "textDocumentSync", "openClose", 1, "change", 2, "save",
                "includeText", 0, "codeActionProvider", "codeActionKinds", "quickfix", "hoverProvider", 1);
  S->initialized = 1;
  lsp_reply(S, id,
            json_pack("{s:o, s:{s:s, s:s}}", "capabilities", server_caps, "serverInfo", "name", "heaplint", "version",
                      HEAPLINT_VERSION));
}

/* Watches the configurations and compile databases when the client can
 * (a change re-analyzes the open files); without it, a save re-reads them. */
void lsp_on_initialized(lsp_server *S, json_t *id, json_t *params) {
  (void)id;
  (void)params;
  if (!S->watch_registration) return;
  json_t *watchers =
      json_pack("[{s:s}, {s:s}]", "globPattern", "**/.heaplint.yaml", "globPattern", "**/compile_commands.json");
  json_t *reg = json_pack("{s:[{s:s, s:s, s:{s:o}}]}", "registrations", "id", "heaplint-watch", "method",
                          "workspace/didChangeWatchedFiles", "registerOptions", "watchers", watchers);
  json_t *m =
      json_pack("{s:s, s:s, s:o}", "id", "heaplint-watch", "method", "client/registerCapability", "params", reg);
  lsp_send(S, m);
}

void lsp_on_shutdown(lsp_server *S, json_t *id, json_t *params) {
  (void)params;
  S->shut_down = 1;
  pthread_mutex_lock(&S->lock);
  /* The worker stops after the analysis under way; nothing new starts. */
  S->quit = 1;
  pthread_cond_signal(&S->wake);
  /* Requests waiting for an analysis get what there is: none. */
  while (S->nwaiting) {
    char *uri = hl_xstrdup(S->waiting[0].uri);
    lsp_waiting_answer(S, NULL, uri);
    free(uri);
  }
  pthread_mutex_unlock(&S->lock);
  lsp_reply(S, id, NULL);
}

void lsp_on_exit(lsp_server *S, json_t *id, json_t *params) {
  (void)id;
  (void)params;
  S->exiting = 1;
}

void lsp_on_cancel(lsp_server *S, json_t *id, json_t *params) {
  (void)id;
  json_t *which = json_object_get(params, "id");
  if (!which) return;
  pthread_mutex_lock(&S->lock);
  /* A request already answered has nothing left to cancel. */
  lsp_waiting_cancel(S, which);
  pthread_mutex_unlock(&S->lock);
}
