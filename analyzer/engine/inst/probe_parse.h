/* probe_parse: the backend that asks the compiler — one more parse of the
 * unit with the questions spliced in (splice.h), every error and note
 * kept, each probe's error read back into an answer with its chain of
 * "requested here" notes. Each instantiation fails the probe's static
 * assertion (or instantiates the conversion proxy's undefined template)
 * once, naming the numbers in the error; what the probe does not reach (a
 * parse failure, no instantiation) has no answer, never a guess. */
#ifndef HEAPLINT_INST_PROBE_PARSE_H
#define HEAPLINT_INST_PROBE_PARSE_H

#include <clang-c/Index.h>
#include <stddef.h>

#include "engine/inst/inst_impl.h"

/* One parse of the unit with the questions from from on spliced in; their
 * answers join I's. suffix and parsed as hl_inst_run's. Returns 0, or -1
 * with *why. */
int hl_probe_parse(hl_inst *I, size_t from, const char *suffix, void (*parsed)(CXTranslationUnit q, void *data),
                   void *data, char **why);

#endif
