/* compare: the compare mode — each question's answers (the distinct stored
 * types with their numbers, and their chains) from the probe parse
 * compared with what the AST backend reads, instantiation by
 * instantiation, and the outcome to the log: a line per question that
 * differs, one count per unit. A trait the AST cannot tell (-1) matches
 * either answer. */
#ifndef HEAPLINT_INST_COMPARE_H
#define HEAPLINT_INST_COMPARE_H

#include <stdio.h>

#include "engine/inst/inst_impl.h"

/* Compares the layout questions (conversions 0) or the conversion
 * questions (1) of I, answered by the probe parse, with the AST's. */
void hl_compare_backends(hl_inst *I, FILE *log, int conversions);

#endif
