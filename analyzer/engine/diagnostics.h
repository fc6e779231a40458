/* diagnostics: what the compiler said about a translation unit. Its errors
 * become findings under clang-tidy's name, clang-diagnostic-error (with
 * their notes and fix-its), so that they print like clang-tidy's and go
 * through the one report; errors without a place (the driver's) go to the
 * unit's log. Arguments the driver does not know — a GCC-only flag in a
 * compile database, -fno-canonical-system-headers — are not errors of the
 * code: like clangd, heaplint drops them (the driver had ignored them
 * already, so the parse stands) and names them with -v. */
#ifndef HEAPLINT_ENGINE_DIAGNOSTICS_H
#define HEAPLINT_ENGINE_DIAGNOSTICS_H

#include <clang-c/Index.h>
#include <stddef.h>
#include <stdio.h>

#include "engine/context.h"
#include "engine/finding.h"

/* The arguments among args[0..*nargs) the driver said it does not know
 * (or does not support): removed from args (which the caller owns, the
 * strings not), and named on log when verbose. Returns how many. */
size_t hl_diag_drop_unknown_args(CXTranslationUnit tu, const char **args, size_t *nargs, const char *file, FILE *log,
                                 int verbose);

/* The unit's errors, but the driver's about arguments it does not know:
 * each located one a finding into out, the others printed on log. Returns
 * how many there are. */
unsigned hl_diag_errors(const hl_ctx *ctx, hl_findings *out, FILE *log);

#endif
