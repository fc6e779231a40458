/* document: the didOpen handler. */
#include "lsp/handlers.h"
#include "lsp/lsp.h"

void lsp_on_did_open(int id) { lsp_reply(id); }
