/* diagnostics: a document's findings as LSP diagnostics, with their fixes. */
#include "lsp/handlers.h"

void lsp_publish(int id) { (void)lsp_code_actions_plan(id); }
