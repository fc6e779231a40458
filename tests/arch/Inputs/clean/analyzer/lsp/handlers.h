/* handlers: the handlers of two files, named by lsp.c's dispatch table. */
#ifndef FIXTURE_HANDLERS_H
#define FIXTURE_HANDLERS_H

/* hover.c */
void lsp_on_hover(int id);
/* document.c */
void lsp_on_did_open(int id);

#endif
