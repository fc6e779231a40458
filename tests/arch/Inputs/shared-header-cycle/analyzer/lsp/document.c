/* document: didOpen, and the document a request is about. */
#include "lsp/handlers.h"

void lsp_on_did_open(int id) { lsp_publish(id); }

int lsp_with_document(int id) {
  lsp_publish(id);
  return id;
}
