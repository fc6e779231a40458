#include "lsp/lsp.h"

#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "engine/ahead.h"
#include "engine/crash.h"
#include "input/config.h"
#include "input/options.h"
#include "input/profile.h"
#include "lsp/handlers.h"
#include "lsp/rpc.h"
#include "lsp/worker.h"
#include "util/util.h"

static const char usage[] =
    "usage: heaplint lsp [options]\n"
    "\n"
    "The language server: speaks the Language Server Protocol on stdin and stdout, and\n"
    "publishes heaplint's findings on the files an editor opens, with quick fixes\n"
    "and the layout of each std::function/std::any store on hover (docs/editors.md).\n"
    "Its options are the check's (heaplint --help), and mean the same.\n"
    "\n"
    "  --compile-commands-dir=<dir>  use <dir>/compile_commands.json for every file\n"
    "  -p <dir>                 the same (default: the nearest compile_commands.json\n"
    "                           above each file, or in build/ below an ancestor)\n"
    "  --extra-arg=<arg>        add <arg> after each compile command's arguments\n"
    "  --extra-arg-before=<arg> add <arg> before them\n"
    "  --config-file=<file>     use this configuration instead of the .heaplint.yaml\n"
    "                           found by walking up from each file\n"
    "  --config=<yaml>          an inline configuration (YAML or JSON), instead of any file\n"
    "  --checks=<globs>         enable (glob) or disable (-glob) rules, after the\n"
    "                           configuration's: --checks=-*,function-sbo\n"
    "  --warnings-as-errors=<globs>  the rules whose warnings are errors\n"
    "  --header-filter=<re>     report in headers only those whose path matches\n"
    "  --exclude-header-filter=<re>  never report in headers whose path matches\n"
    "  --system-headers         report in system headers too\n"
    "  --profile=<file>         lay a library profile over the shipped one; may be repeated\n"
    "  --profile-dir=<dir>      where the shipped profiles are\n"
    "  --debounce=<ms>|auto     wait this long after an edit before analyzing; auto (the\n"
    "                           default): as long as the file's reparse takes (the\n"
    "                           median of its last 15), from 50 to 500 ms, as clangd,\n"
    "                           but none after a pause at least that long\n"
    "                           (initializationOptions.debounce overrides it)\n"
    "  --index=<file>           the project index a run of the check wrote, shown on\n"
    "                           hover at the declarations it has figures for (default:\n"
    "                           index.sqlite in $HEAPLINT_CACHE_DIR, else in the\n"
    "                           configuration's cache-dir); only read, never written\n"
    "  --docs-url=<url>         where heaplint's docs/ folder is: a rule's page is\n"
    "                           <url>rules/<id>.md, as in sarif (default: the installed\n"
    "                           share/doc/heaplint/)\n"
    "  --version                print the version and exit\n"
    "  -h, --help               print this help and exit\n";

static const struct {
  const char *method;
  lsp_handler handler;
} handlers[] = {
    {"initialize", lsp_on_initialize},
    {"initialized", lsp_on_initialized},
    {"shutdown", lsp_on_shutdown},
    {"exit", lsp_on_exit},
    {"$/cancelRequest", lsp_on_cancel},
    {"textDocument/didOpen", lsp_on_did_open},
    {"textDocument/didChange", lsp_on_did_change},
    {"textDocument/didSave", lsp_on_did_save},
    {"textDocument/didClose", lsp_on_did_close},
    {"textDocument/codeAction", lsp_on_code_action},
    {"textDocument/hover", lsp_on_hover},
    {"textDocument/diagnostic", lsp_on_diagnostic},
    {"workspace/diagnostic", lsp_on_workspace_diagnostic},
    {"workspace/didChangeWatchedFiles", lsp_on_did_change_watched_files},
};

static void dispatch(lsp_server *S, json_t *msg) {
  if (!json_is_object(msg)) {
    lsp_reply_error(S, NULL, LSP_INVALID_REQUEST, "a message must be a JSON object");
    return;
  }
  json_t *id = json_object_get(msg, "id");
  json_t *method_json = json_object_get(msg, "method");
  const char *method = lsp_json_string(method_json);
  if (!method) {
    /* A response to the server's own request (the file watchers). */
    if (method_json || !id || !(json_object_get(msg, "result") || json_object_get(msg, "error")))
      lsp_reply_error(S, id, LSP_INVALID_REQUEST, "a message needs a method: a string without NUL");
    return;
  }
  lsp_handler h = NULL;
  for (size_t i = 0; i < sizeof handlers / sizeof *handlers && !h; i++)
    if (!strcmp(handlers[i].method, method)) h = handlers[i].handler;
  int is_exit = !strcmp(method, "exit");
  if (!S->initialized && strcmp(method, "initialize") && !is_exit) {
    if (id) lsp_reply_error(S, id, LSP_SERVER_NOT_INITIALIZED, "the server is not initialized");
    return;
  }
  if (S->shut_down && !is_exit) {
    if (id) lsp_reply_error(S, id, LSP_INVALID_REQUEST, "the server is shut down");
    return;
  }
  if (h) {
    h(S, id, json_object_get(msg, "params"));
  } else if (id) {
    char *m = hl_xasprintf("heaplint lsp does not handle %s", method);
    lsp_reply_error(S, id, LSP_METHOD_NOT_FOUND, m);
    free(m);
  }
  /* An unknown notification ("$/..." or not) is ignored, as the protocol says. */
}

int lsp_serve_message(lsp_server *S, lsp_reader *r) {
  json_t *msg = NULL;
  char *err = NULL;
  int rc = lsp_rpc_read(r, &msg, &err);
  if (rc < 0) {
    lsp_reply_error(S, NULL, LSP_PARSE_ERROR, err);
    free(err);
  } else if (rc > 0) {
    dispatch(S, msg);
    json_decref(msg);
  }
  return rc != 0;
}

/* Reads and handles messages until exit or the end of the input. */
static int serve(lsp_server *S) {
  lsp_reader r = {S->in, NULL, 0, 0, 0, 0};
  while (!S->exiting && lsp_serve_message(S, &r)) {
  }
  lsp_reader_free(&r);
  return S->exiting && S->shut_down ? 0 : 1;
}

/* The command line, as the check parses it: 0, or -1 with *err. What
 * the configuration's command-line layer refuses (a bad --header-filter,
 * --config) is refused here, before the worker reads it. */
static int parse_args(int argc, char **argv, lsp_options *o, char **err) {
  if (hl_options_parse(argc, argv, HL_FRONT_LSP, &o->cli, err) || hl_options_one_config(&o->cli, err)) return -1;
  if (o->cli.help || o->cli.version) return 0;
  hl_configs *C = hl_configs_new(&o->cli.config, o->rules, err);
  if (!C) return -1;
  hl_configs_free(C);
  if (o->cli.debounce_ms >= 0) o->debounce = (lsp_debounce){o->cli.debounce_ms, o->cli.debounce_ms, 1.0};
  if (o->cli.debounce_ms == HL_DEBOUNCE_AUTO) o->debounce = LSP_DEBOUNCE_DEFAULT;
  o->docs_url = o->cli.docs_url ? hl_xstrdup(o->cli.docs_url) : hl_docs_default_url();
  return 0;
}

int hl_lsp_main(int argc, char **argv, const struct hl_rule *const *rules) {
  lsp_server S;
  lsp_server_init(&S, stdin, stdout);
  S.opt.rules = rules;
  hl_profile_set profiles;
  memset(&profiles, 0, sizeof profiles);
  char *err = NULL;
  int status = 2;
  if (parse_args(argc, argv, &S.opt, &err)) {
    fprintf(stderr, "heaplint lsp: error: %s\n", err);
  } else if (S.opt.cli.help || S.opt.cli.version) {
    if (S.opt.cli.help)
      fputs(usage, stdout);
    else
      printf("heaplint %s\n", HEAPLINT_VERSION);
    status = 0;
  } else if (hl_profiles_load(&profiles, S.opt.cli.profile_dir, S.opt.cli.profiles.v, S.opt.cli.profiles.n, rules,
                              &err)) {
    fprintf(stderr, "heaplint lsp: error: %s\n", err);
  } else {
    /* Paths are made relative to the current directory from two threads:
     * learn it once, first; so is jansson's hash seed. */
    hl_paths_init();
    json_object_seed(0);
    /* A client that went away is the end of the input, not a signal. */
    signal(SIGPIPE, SIG_IGN);
    /* A crash of an analysis costs that document's diagnostics, not the
     * server (engine/crash.h); before any thread starts. */
    if (hl_crash_init()) fprintf(stderr, "heaplint lsp: warning: cannot catch crashes: one ends the server\n");
    if (lsp_worker_start(&S, &profiles)) {
      fprintf(stderr, "heaplint lsp: error: cannot start the analysis thread\n");
    } else {
      status = serve(&S);
      if (lsp_worker_stop(&S) || hl_ahead_busy()) {
        /* exit (or the end of the input) while a parse runs (the worker's,
         * or one ahead: engine/ahead.h): end now, as the protocol asks;
         * returning would run the library's exit-time destructors under
         * the thread still parsing. */
        fflush(stdout);
        fflush(stderr);
        _exit(status);
      }
    }
  }
  free(err);
  lsp_worker_stop(&S);
  lsp_server_free(&S);
  hl_profiles_free(&profiles);
  return status;
}
