/* lsp: the reader loop and its dispatch table. */
#ifndef FIXTURE_LSP_H
#define FIXTURE_LSP_H

void lsp_reply(int id);
void lsp_dispatch(int i, int id);

#endif
