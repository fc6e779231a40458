/* splice: the unit's files with the probes inserted, for the probe parse —
 * the probe templates at the top of the main file, each layout question's
 * expression wrapped in ::hl_probe_fn<Id>(...), each conversion question's
 * copy of its call — and positions and types of that text mapped back to
 * the files on disk. "Probe" is this spliced text only. */
#ifndef HEAPLINT_INST_SPLICE_H
#define HEAPLINT_INST_SPLICE_H

#include <clang-c/Index.h>
#include <stddef.h>

#include "engine/finding.h"
#include "engine/inst/inst_impl.h"
#include "engine/unit.h"

/* How the compiler spells the probes' errors and notes. */
#define HL_PROBE_ERROR "hl_probe_<"
#define HL_CONV_ERROR "implicit instantiation of undefined template 'hl_conv_<"
#define HL_PROBE_FN "hl_probe_fn<"

typedef struct hl_spliced hl_spliced;

/* The unit's files with the questions from from on spliced in, and suffix,
 * when not NULL, appended to the main file. NULL with *why when the main
 * file cannot be read again. */
hl_spliced *hl_splice(const hl_inst *I, size_t from, const char *suffix, char **why);

/* The spliced files, as libclang's unsaved files (owned by S). */
const struct CXUnsavedFile *hl_spliced_files(const hl_spliced *S, unsigned *n);

/* A location of the parse of S, as it is in the files on disk (with
 * copies, inside a conversion question's copy of a call: where that text
 * is in the call). Returns 0, or -1 when it is in no file. */
int hl_spliced_loc(const hl_spliced *S, const hl_unit *u, CXSourceLocation l, int copies, hl_loc *out);

/* Where a conversion question's argument is, in the file on disk. */
void hl_spliced_arg_loc(const hl_spliced *S, const hl_question *q, hl_loc *out);

/* The type as the compiler spelled it in the parse of S, with each
 * "(lambda at file:line:col)" of a spliced file back where it is on disk. */
char *hl_spliced_type(const hl_spliced *S, const char *type);

void hl_spliced_free(hl_spliced *S);

#endif
