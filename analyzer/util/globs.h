/* globs: clang-tidy's check lists — comma-separated globs where '*' is the
 * only wildcard and a leading '-' removes what it matches, read in order
 * so that a later glob overrides an earlier one ("-*,function-sbo").
 * The grammar of -checks, -warnings-as-errors, a configuration's checks
 * and the rule lists of NOLINT(...). */
#ifndef HEAPLINT_UTIL_GLOBS_H
#define HEAPLINT_UTIL_GLOBS_H

#include <stddef.h>

/* Whether s matches pat, where '*' matches any run of characters. */
int hl_glob_match(const char *pat, const char *s);

/* The verdict of the list on id: 1 when the last glob that matches it is
 * positive, -1 when it is negative, 0 when none matches. NULL or "" is 0. */
int hl_globs_verdict(const char *list, const char *id);

/* Calls each(glob, negative, data) for every glob of the list, in order,
 * trimmed of spaces and of its '-'; stops and returns the first non-zero
 * result of each. */
int hl_globs_each(const char *list, int (*each)(const char *glob, int negative, void *data), void *data);

#endif
