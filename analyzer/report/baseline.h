/* baseline: today's findings recorded, so that CI reports only new ones.
 *
 * An entry is a rule, a file (relative to the source root) and the
 * finding's fingerprint (see hl_findings_fingerprint): no line number, so
 * edits above a finding do not resurface it. The file is JSON
 * (docs/ci.md). Writing goes through a temporary file and a rename. */
#ifndef HEAPLINT_BASELINE_H
#define HEAPLINT_BASELINE_H

#include "report/finding.h"

/* The most heaplint reads of a baseline: an entry is about 200 bytes, so
 * some 300000 findings. */
#define HL_BASELINE_MAX ((size_t)64 << 20)

/* Returns 0, or -1 with *err naming the file and the problem. */
int hl_baseline_write(const char *path, const hl_findings *all, const char *root, char **err);

/* Reads and checks the baseline at path, before any analysis: 0, or -1 with
 * *err (unreadable, malformed with line and column, not a baseline). */
int hl_baseline_check(const char *path, char **err);

typedef struct hl_baseline hl_baseline;

/* The baseline at path, read once for a run, or NULL with *err. */
hl_baseline *hl_baseline_load(const char *path, char **err);
/* Takes out of all the findings the baseline records (each entry matches
 * one finding of the run, whichever call brings it: findings may come in
 * batches) into held, or frees them when held is NULL. Returns how many. */
size_t hl_baseline_filter(hl_baseline *b, hl_findings *all, const char *root, hl_findings *held);
void hl_baseline_free(hl_baseline *b);

#endif
