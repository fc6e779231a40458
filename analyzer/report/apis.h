/* report/apis: the project index's per-API figures as every format shows
 * them — a function's wrapper-typed parameter that receives allocating
 * values, how many call sites in how many files, the largest value, and the
 * inline-buffer type that would hold them all. */
#ifndef HEAPLINT_REPORT_APIS_H
#define HEAPLINT_REPORT_APIS_H

#include <jansson.h>
#include <stdio.h>

#include "engine/finding.h"

/* "hl::inplace_function<void (), 64>": the wrapper's arguments with the
 * replacement's name and the capacity that holds every value; NULL when
 * the rule has no replacement or the type has no template arguments.
 * Caller frees. */
char *hl_api_suggestion(const hl_api_figure *f);
/* "Loop::post(std::function<void ()>): 3 allocating call sites in 2 files,
 * values up to 40 bytes -> hl::inplace_function<void (), 40>". Caller frees. */
char *hl_api_line(const hl_api_figure *f);
/* The text summary's lines, on out: the first max APIs (all when verbose,
 * with each call site as a note a compiler-error parser reads). */
void hl_apis_print(FILE *out, const hl_api_figure *v, size_t n, int verbose);
/* The JSON report's "apis" (SARIF's run properties): each API with its
 * figures, its suggestion (null when none) and its sites, files relative to
 * root. */
json_t *hl_apis_json(const hl_api_figure *v, size_t n, const char *root);

#endif
