/* apis: what the project index says about the declarations a document
 * holds, as hovers — each API's figures (a function's wrapper-typed
 * parameter: its allocating call sites over the project, the largest
 * value, the inline-buffer type that holds them all: the summary's line)
 * and the rewrites the check plans over the whole project (an alias, a
 * member, a parameter: its note, or why it is refused). The index is the
 * one a run of the check wrote (--index, else index.sqlite in the result
 * cache's directory, docs/editors.md); the server only reads it, and reads
 * it again when the file changes. */
#ifndef HEAPLINT_LSP_APIS_H
#define HEAPLINT_LSP_APIS_H

#include "input/config.h"
#include "input/options.h"
#include "lsp/convert.h"
#include "lsp/server.h"

typedef struct lsp_apis lsp_apis;

/* The index's hovers for path's declarations, read from the index that
 * applies to path (options o, its configuration cfg) when it changed since
 * the last call, and added to r. Nothing when there is no index. *P is
 * made on the first call; configs answer the plans' configuration
 * questions. */
void lsp_apis_add_hovers(lsp_apis **P, const hl_options *o, const hl_config *cfg, hl_configs *configs, const char *path,
                         lsp_conv *c, lsp_result *r);
void lsp_apis_free(lsp_apis *P);

#endif
