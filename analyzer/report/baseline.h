/* baseline: today's findings recorded, so that CI reports only new ones.
 *
 * An entry is a rule, a file (relative to the source root) and the
 * finding's fingerprint (see hl_findings_fingerprint): no line number, so
 * edits above a finding do not resurface it. The file is JSON
 * (docs/ci.md). Writing goes through a temporary file and a rename. */
#ifndef HEAPLINT_BASELINE_H
#define HEAPLINT_BASELINE_H

#include "report/finding.h"

/* Returns 0, or -1 with *err naming the file and the problem. */
int hl_baseline_write(const char *path, const hl_findings *all, const char *root, char **err);

/* Drops from all the findings the baseline records (each entry matches one
 * finding). Returns how many were dropped, or -1 with *err. */
/* Reads and checks the baseline at path, before any analysis: 0, or -1 with
 * *err (unreadable, malformed with line and column, not a baseline). */
int hl_baseline_check(const char *path, char **err);

long hl_baseline_apply(const char *path, hl_findings *all, const char *root, char **err);

#endif
