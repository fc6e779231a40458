/* gitdiff: --diff[=<ref>] — the lines `git diff -U0 <ref>` (default HEAD:
 * whatever is not committed, staged or not) shows added or changed, as a
 * line filter over absolute paths, and the files they are in: what
 * `git diff -U0 HEAD | clang-tidy-diff.py -p1` gives clang-tidy. Git runs in
 * the current directory. */
#ifndef HEAPLINT_GITDIFF_H
#define HEAPLINT_GITDIFF_H

#include "input/linefilter.h"
#include "util/strv.h"

/* Fills lf (active even when nothing changed) and files (absolute, each
 * once, in diff order). Returns 0, or -1 with *err (git not found, not a
 * repository, a bad ref: what git said). */
int hl_git_diff(const char *ref, hl_line_filter *lf, hl_strv *files, char **err);

/* Reads unified diff text (-U0, paths with prefixes a/ and b/) into lf and
 * files, the paths relative to top. */
void hl_git_diff_parse(const char *text, const char *top, hl_line_filter *lf, hl_strv *files);

#endif
