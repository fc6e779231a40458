/* diagnostics: a document's findings as LSP diagnostics — the range of the
 * reported expression, the severity the configuration gave, source
 * "heaplint", the rule as code with its page as codeDescription, the
 * message as the CLI prints it, the notes as relatedInformation — and the
 * one error diagnostic of a document that could not be analyzed. */
#ifndef HEAPLINT_LSP_DIAGNOSTICS_H
#define HEAPLINT_LSP_DIAGNOSTICS_H

#include "engine/finding.h"
#include "lsp/convert.h"
#include "lsp/server.h"

/* Adds f (a finding of the document, placed by c) to r, with its code
 * actions (actions.h). */
void lsp_result_add_finding(lsp_result *r, const hl_finding *f, lsp_conv *c, const lsp_options *o);
/* Adds the diagnostic of a document not analyzed: text says why (the
 * compile errors, libclang's failure, a configuration error), at the top. */
void lsp_result_add_failure(lsp_result *r, const char *text);

#endif
