/* handlers: one header declaring the functions of several files. Each file
 * includes only this header, so the include graph has no cycle; the calls
 * make one: code_action.c -> document.c -> diagnostics.c -> code_action.c. */
#ifndef FIXTURE_HANDLERS_H
#define FIXTURE_HANDLERS_H

/* code_action.c */
void lsp_on_code_action(int id);
int lsp_code_actions_plan(int finding);
/* document.c */
void lsp_on_did_open(int id);
int lsp_with_document(int id);
/* diagnostics.c */
void lsp_publish(int id);

#endif
