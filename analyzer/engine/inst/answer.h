/* answer: one instantiation's answer (inst.h's hl_inst_answer) — freed,
 * compared (its numbers, the whole answer, a place of its chain), filtered
 * by the conversion targets asked about, and a unit's kept grouped by
 * question in the compiler's order. */
#ifndef HEAPLINT_INST_ANSWER_H
#define HEAPLINT_INST_ANSWER_H

#include "engine/finding.h"
#include "engine/inst/inst.h"
#include "engine/inst/inst_impl.h"

void hl_answer_free(hl_inst_answer *h);

/* Whether a conversion to to is one the questions ask about
 * (hl_inst_conversion_targets). */
int hl_answer_wanted(const hl_inst *I, const char *to);

/* By question, as hl_inst_answers reads them; a stable sort, so each
 * question's answers stay in the compiler's order. */
void hl_answers_sort(hl_inst *I);

/* The same file and offset. */
int hl_answer_same_place(const hl_loc *a, const hl_loc *b);

/* The same type, size, alignment and traits. */
int hl_answer_same_numbers(const hl_inst_answer *a, const hl_inst_answer *b);

/* The same question, numbers, target and chain. */
int hl_answer_same(const hl_inst_answer *a, const hl_inst_answer *b);

#endif
