/* emit: writes the collected findings in one output format. Emitters read
 * the finding structs and, for context lines, the source files; they never
 * look at the AST.
 *
 * text: clang's diagnostic format, so editors, CI log parsers and Vim's
 * errorformat read it: "path:line:col: warning: message [rule]", the source
 * line with a caret, then "note:" lines. */
#ifndef HEAPLINT_EMIT_H
#define HEAPLINT_EMIT_H

#include <stdio.h>

#include "finding.h"

void hl_emit_text(FILE *out, const hl_findings *all);

#endif
