/* initialize, initialized, shutdown, exit and $/cancelRequest: what the
 * server offers, the position encoding and the options the client sends,
 * the file watchers, and the end. */
#include <stdlib.h>
#include <string.h>

#include "lsp/handlers.h"
#include "lsp/rpc.h"
#include "lsp/uri.h"
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

static int in_ms(json_t *v, long *out) {
  if (!json_is_integer(v) || json_integer_value(v) < 0 || json_integer_value(v) > 60000) return 0;
  *out = (long)json_integer_value(v);
  return 1;
}

/* initializationOptions.debounce overrides --debounce: milliseconds (a
 * fixed delay), "auto" (clangd's policy, server.h), or {"min": ms, "max":
 * ms, "ratio": r}, each optional (clangd's defaults for the others). What
 * is not one of these is said on the log and ignored. */
static void take_debounce(lsp_server *S, json_t *init) {
  json_t *v = json_object_get(init, "debounce");
  if (!v) return;
  lsp_debounce p = LSP_DEBOUNCE_DEFAULT;
  long ms;
  int ok = 1;
  if (in_ms(v, &ms)) {
    p.min_ms = p.max_ms = ms;
  } else if (json_is_object(v)) {
    json_t *min = json_object_get(v, "min"), *max = json_object_get(v, "max"), *ratio = json_object_get(v, "ratio");
    ok = (!min || in_ms(min, &p.min_ms)) && (!max || in_ms(max, &p.max_ms));
    if (ratio) ok = ok && json_is_number(ratio) && json_number_value(ratio) >= 0 && json_number_value(ratio) <= 100;
    if (ok && ratio) p.ratio = json_number_value(ratio);
    /* One bound alone moves the other's default out of its way. */
    if (ok && min && !max && p.max_ms < p.min_ms) p.max_ms = p.min_ms;
    if (ok && max && !min && p.min_ms > p.max_ms) p.min_ms = p.max_ms;
    ok = ok && p.min_ms <= p.max_ms;
  } else {
    ok = json_is_string(v) && !strcmp(json_string_value(v), "auto");
  }
  if (ok)
    S->opt.debounce = p;
  else
    lsp_log(S, 2,
            "initializationOptions.debounce: milliseconds from 0 to 60000, \"auto\", or {\"min\": ms, \"max\": ms, "
            "\"ratio\": r} with min <= max and 0 <= r <= 100; ignored");
}

/* initializationOptions.fastFirst (a boolean: publish the fast unit's
 * result first, then refine it; analysis.h) and refineDelay (milliseconds
 * a document is left alone before the refine); what is not one of these is
 * said on the log and ignored. */
static void take_options(lsp_server *S, json_t *init) {
  take_debounce(S, init);
  json_t *v = json_object_get(init, "fastFirst");
  if (json_is_boolean(v))
    S->opt.fast_first = json_is_true(v);
  else if (v)
    lsp_log(S, 2, "initializationOptions.fastFirst: true or false; ignored");
  v = json_object_get(init, "refineDelay");
  long ms;
  if (v && in_ms(v, &ms))
    S->opt.refine_ms = ms;
  else if (v)
    lsp_log(S, 2, "initializationOptions.refineDelay: milliseconds from 0 to 60000; ignored");
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
  /* A client that can pull gets no push (it would show both); every other
   * client keeps the push, which is all clangd does. */
  S->pull = json_is_object(json_object_get(json_object_get(caps, "textDocument"), "diagnostic"));
  S->refresh = json_is_true(
      json_object_get(json_object_get(json_object_get(caps, "workspace"), "diagnostics"), "refreshSupport"));
  const char *root = lsp_json_string(json_object_get(params, "rootUri"));
  S->root = root ? lsp_uri_path(root) : NULL;
  json_t *server_caps =
      json_pack("{s:s, s:{s:b, s:i, s:{s:b}}, s:{s:[s]}, s:b, s:{s:s, s:b, s:b}}", "positionEncoding",
                S->enc == LSP_UTF8 ? "utf-8" : "utf-16", "textDocumentSync", "openClose", 1, "change", 2, "save",
                "includeText", 0, "codeActionProvider", "codeActionKinds", "quickfix", "hoverProvider", 1,
                "diagnosticProvider", "identifier", "heaplint", "interFileDependencies", 1, "workspaceDiagnostics", 1);
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
  for (size_t i = 0; i < S->npulls; i++) {
    lsp_reply(S, S->pulls[i].id, json_pack("{s:[]}", "items"));
    json_decref(S->pulls[i].id);
    json_decref(S->pulls[i].params);
  }
  S->npulls = 0;
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
