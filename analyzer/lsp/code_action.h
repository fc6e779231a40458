/* code_action: textDocument/codeAction — for each diagnostic in the range
 * asked about, the quick fix that makes the same edits as --fix (the
 * retype and the #include, applied together; preferred), and a second
 * that suppresses it with clang-tidy's spelling, "// NOLINT(<rule>)" at
 * the end of its line (docs/ci.md). The edits are planned by the worker
 * when it converts the findings, on the text it analyzed. */
#ifndef HEAPLINT_LSP_CODE_ACTION_H
#define HEAPLINT_LSP_CODE_ACTION_H

#include "engine/finding.h"
#include "lsp/convert.h"
#include "lsp/server.h"

/* Plans it's actions for finding f: it->fix, it->suppress and their titles;
 * each edit keyed by the URI c gives its file. */
void lsp_code_actions_plan(lsp_item *it, const hl_finding *f, lsp_conv *c);

#endif
