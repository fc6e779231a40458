/* from_ast: the AST backend's instances (engine/inst/instances.h) as answers,
 * all of a question's or none: an instance whose chain cannot be followed,
 * a trait that needs overload resolution, or an uncertain conversion
 * leaves the question to the probe parse. They answer every question when
 * they can (then no parse is needed), and otherwise the layout questions
 * the probe parse left without an answer although the unit instantiates
 * their stores: a conversion question's copy of a call that does not
 * compile makes the statement holding it fail in an instantiation, and
 * with it an enclosing lambda's body and the layout question around that
 * lambda. clang's AST of the unit itself has no such copies. */
#ifndef HEAPLINT_INST_FROM_AST_H
#define HEAPLINT_INST_FROM_AST_H

#include <stddef.h>

#include "engine/finding.h"
#include "engine/inst/inst_impl.h"
#include "engine/inst/instances.h"

/* What the AST backend answers for question i: how many instances into
 * *a, or -1 with *why (a relay is never asked). */
long hl_from_ast(const hl_inst *I, size_t i, hl_instance **a, const char **why);

/* An entry of an instance's chain (a file name as the unit names it, an
 * offset) as a location of the unit. Returns 0, or -1. */
int hl_from_ast_loc(const hl_inst *I, const char *name, unsigned offset, hl_loc *out);

/* The questions the probe parse left without an answer (layout ones)
 * answered from the AST where it can. Returns how many answers it added. */
size_t hl_from_ast_fill(hl_inst *I);

/* Every question answered from the AST, when it can answer them all.
 * Returns 1 with the answers in I, else 0 with I as it was. */
int hl_from_ast_all(hl_inst *I);

#endif
