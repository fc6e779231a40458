/* hover: textDocument/hover on a store into std::function, std::any or a
 * profile's wrapper, flagged or not — the layout heaplint computed (the
 * stored type's size and alignment, each capture with its offset and
 * size), the library's rule, and whether the value is kept inline or on
 * the heap, and why. The worker renders it from the engine's layouts
 * (engine/layout.h) when it stores a result. */
#ifndef HEAPLINT_LSP_HOVER_H
#define HEAPLINT_LSP_HOVER_H

#include "engine/layout.h"
#include "lsp/convert.h"
#include "lsp/server.h"

/* Adds the hover of l (a store in the document, placed by c) to r. */
void lsp_result_add_layout(lsp_result *r, const hl_layout *l, lsp_conv *c);

#endif
