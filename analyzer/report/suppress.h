/* suppress: NOLINT comments, with clang-tidy's semantics, so a team has one
 * convention for both tools:
 *
 *   code;  // NOLINT                 every rule, on this line
 *   code;  // NOLINT(function-sbo)   these rules (globs: function-*)
 *   // NOLINTNEXTLINE(any-sbo)        the next line
 *   // NOLINTBEGIN(function-sbo) ... // NOLINTEND(function-sbo)   a region
 *
 * A NOLINTBEGIN without its NOLINTEND (or the reverse) is an error finding
 * of rule "nolint" at the comment. */
#ifndef HEAPLINT_SUPPRESS_H
#define HEAPLINT_SUPPRESS_H

#include "report/finding.h"
#include "report/source.h"

/* Drops the suppressed findings from all and adds to errors an error for
 * each unmatched region in the files of the findings and in files (the
 * main files of the analyzed translation units). Returns how many were
 * suppressed. */
size_t hl_suppress(hl_findings *all, hl_sources *S, char *const *files, size_t nfiles, hl_findings *errors);

#endif
