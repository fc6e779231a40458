/* users: where each answer is reported. A chain runs from the store out
 * through the calls that passed the value on: sinks, templates that store
 * what they are given or build from it (a lambda capturing it, std::bind
 * of it, std::forward of it). The user handed it over at the first call
 * outward that is not such a pass: a call in code that is no template's,
 * or whose arguments are built from nothing of a dependent type (a lambda
 * written in a function template's body, capturing its locals). */
#ifndef HEAPLINT_INST_USERS_H
#define HEAPLINT_INST_USERS_H

#include "engine/inst/inst_impl.h"

/* Sets each answer's user (inst.h). */
void hl_choose_users(hl_inst *I);

#endif
