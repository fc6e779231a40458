/* finding (report side): the run-wide collection of findings put in a
 * deterministic order and deduplicated (a header's finding is reported
 * once however many translation units include it) before any emitter sees
 * it, and the fingerprints that baselines match findings by. The finding
 * itself is the engine's (engine/finding.h). */
#ifndef HEAPLINT_REPORT_FINDING_H
#define HEAPLINT_REPORT_FINDING_H

#include "engine/finding.h"

#include "util/strv.h"

/* Sorts by file, line, column, rule, message and drops exact duplicates. */
void hl_findings_finish(hl_findings *all);

/* What makes two findings the same one for hl_findings_finish (file, line,
 * column, rule, message, the notes' messages), as one string. */
char *hl_finding_key(const hl_finding *f);

struct hl_sources;

/* Gives each finding (sorted) a fingerprint that survives unrelated edits:
 * a hash of its rule, its file relative to root, the text of its line with
 * white space folded, and which of the findings with that same rule, file
 * and text it is, in order. Line numbers are not part of it, so code added
 * above a finding does not change it. counts (NULL: none) carries the
 * findings fingerprinted before, for findings that come in batches: the
 * first of a batch with a text an earlier batch had follows those. */
void hl_findings_fingerprint(hl_findings *all, struct hl_sources *S, const char *root, hl_strcount *counts);

/* path relative to root when it lies below it, else path. */
const char *hl_relative_to(const char *path, const char *root);

#endif
