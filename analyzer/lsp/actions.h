/* actions: a finding's quick fixes, planned when the worker converts it,
 * on the text it analyzed — the edits --fix makes (the retype and the
 * #include, applied together), and "// NOLINT(<rule>)" at the end of its
 * line, clang-tidy's spelling (docs/ci.md). textDocument/codeAction
 * (code_action.c) offers what was planned here. */
#ifndef HEAPLINT_LSP_ACTIONS_H
#define HEAPLINT_LSP_ACTIONS_H

#include "engine/finding.h"
#include "lsp/convert.h"
#include "lsp/server.h"

/* Plans it's actions for finding f: it->fix, it->suppress and their titles;
 * each edit keyed by the URI c gives its file. */
void lsp_code_actions_plan(lsp_item *it, const hl_finding *f, lsp_conv *c);

#endif
