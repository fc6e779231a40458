/* fixes: the edits that remove findings, exported for clang-apply-
 * replacements (--export-fixes) or applied in place (--fix).
 *
 * Applying is careful: a finding's edits are applied all or none; an edit
 * many findings share (the same #include, a header's edit from many
 * translation units) is applied once; edits that overlap or conflict are
 * reported and neither is applied; a file that changed since it was
 * analyzed, or is read-only, is not touched; a file is rewritten through a
 * temporary file and a rename, keeping its mode. Running --fix again finds
 * nothing left to fix. */
#ifndef HEAPLINT_FIXES_H
#define HEAPLINT_FIXES_H

#include <stdio.h>

#include "report/finding.h"

/* Writes the clang-apply-replacements YAML for every finding's edits to
 * path (atomically). main_file names the run's first source file. Returns 0,
 * or -1 with *err. */
int hl_fixes_export(const char *path, const hl_findings *all, const char *main_file, const char *build_dir, char **err);

typedef struct hl_fix_result {
  size_t findings_fixed; /* findings whose every edit was applied */
  size_t files_written;
  size_t findings_skipped; /* findings with an edit that could not be applied */
} hl_fix_result;

/* The text the fixes would give the files they change. */
typedef struct hl_fix_texts {
  char **files, **texts; /* files[i] would become texts[i], lens[i] bytes */
  size_t *lens;
  size_t n;
} hl_fix_texts;
void hl_fix_texts_free(hl_fix_texts *t);

/* Renders that text with the findings not in skipped applied. */
typedef struct hl_fix_render {
  const void *state;
  void (*render)(const void *state, const char *skipped, hl_fix_texts *out);
} hl_fix_render;

/* A check of the fixed text before a byte is written: with r (rendering
 * any choice of the findings), sets why[k] (to free) for each finding k
 * not in skipped whose edits must not be applied. Returns how many it set. */
typedef struct hl_fix_check {
  void *data;
  size_t (*check)(void *data, const hl_findings *all, const char *skipped, const hl_fix_render *r, char **why);
} hl_fix_check;

/* Applies the edits; problems are reported on log (naming the file and
 * the reason). With chk, the text is checked first, and again after each
 * round of findings it drops. */
void hl_fixes_apply(const hl_findings *all, const hl_fix_check *chk, FILE *log, hl_fix_result *res);

#endif
