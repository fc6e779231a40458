/* emit: writes the collected findings in one output format. Emitters read
 * the finding structs, the rules' descriptions and, for context lines, the
 * source files; they never look at the AST.
 *
 * text:  clang's diagnostic format, so editors, CI log parsers and Vim's
 *        errorformat read it: "path:line:col: warning: message [rule]", the
 *        source line with a caret, then "note:" lines.
 * json:  one object for scripts (docs/ci.md).
 * sarif: SARIF 2.1.0, as GitHub code scanning reads it: regions with their
 *        end, fixes, rules with their help pages. */
#ifndef HEAPLINT_EMIT_H
#define HEAPLINT_EMIT_H

#include <stdio.h>

#include "report/finding.h"
#include "report/source.h"

typedef struct hl_rule_info {
  const char *id;
  const char *summary;     /* one line */
  const char *description; /* a paragraph: what, why, the fix */
} hl_rule_info;

typedef struct hl_emit_info {
  const char *version;     /* heaplint's */
  const char *docs_url;    /* where docs/ is, ending with '/': <docs_url>rules/<id>.md is a rule's page */
  const char *source_root; /* absolute; file URIs are relative to it */
  const hl_rule_info *rules;
  size_t nrules;
  size_t files_analyzed, files_failed;
  const char *const *failed; /* the files that could not be parsed */
  const hl_api_figure *apis; /* the project index's APIs that receive allocating values */
  size_t napis;
  size_t fixable; /* findings with a fix that --fix applies (with the run's --fix-errors) */
} hl_emit_info;

/* colour: in clang's colours (ANSI escapes). */
void hl_emit_text(FILE *out, const hl_findings *all, hl_sources *S, int colour);
/* Return 0, or -1 when the output could not be written. */
int hl_emit_json(FILE *out, const hl_findings *all, const hl_emit_info *info);
/* Columns are UTF-16 code units (SARIF's default), converted from the
 * byte columns by reading each line through S. */
int hl_emit_sarif(FILE *out, const hl_findings *all, const hl_emit_info *info, hl_sources *S);

#endif
