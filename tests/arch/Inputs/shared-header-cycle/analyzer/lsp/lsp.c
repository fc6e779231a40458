/* lsp: the dispatch table. It names the handlers without calling them: a
 * table is data, no edge of the call graph. */
#include "lsp/handlers.h"

#include <stddef.h>

static const struct {
  const char *method;
  void (*handler)(int id);
} table[] = {
    {"textDocument/codeAction", lsp_on_code_action},
    {"textDocument/didOpen", lsp_on_did_open},
};

void lsp_dispatch(size_t i, int id) { table[i].handler(id); }
