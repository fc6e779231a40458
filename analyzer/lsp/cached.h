/* cached: workspace/diagnostic's answer — the diagnostics of the project's
 * files that are not open, from the result cache a run of the check filled
 * (heaplint -p build, docs/cli.md): each unit of the compile databases
 * (-p's, the workspace folder's, those found for the open files) whose
 * entry is still valid for its files on disk (cache/cache.h: the same
 * heaplint, compile command, configuration, profiles, and current
 * directory) gives the findings in its main file, as the CLI prints them.
 * A unit without a valid entry is left out, never analyzed here: a report
 * of a whole project would hold the worker for minutes. The project index
 * holds no findings (summaries and API figures: apis.h's hovers), so it
 * adds none. On the worker's thread (it owns the configurations and the
 * databases; worker.c answers a repeated request after a save, or 30 s
 * after the last answer); the cache is only read (a restore marks its entry used, as
 * the check's does), and a directory that is not there is not made. */
#ifndef HEAPLINT_LSP_CACHED_H
#define HEAPLINT_LSP_CACHED_H

#include <jansson.h>

#include "lsp/analysis.h"

/* The WorkspaceDiagnosticReport for params (its previousResultIds: a file
 * whose report is the same is "unchanged"), leaving out the open files
 * (open: n absolute paths). */
json_t *lsp_cached_reports(lsp_analyzer *A, const json_t *params, char *const *open, size_t n);

#endif
