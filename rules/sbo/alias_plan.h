/* sbo/alias_plan: the API rewrites, decided once per run over the project
 * index from what every unit recorded (sbo/alias): an alias, the aliases
 * of one type together, a member declared in a header with the parameters
 * moved into it, a parameter the function only calls or hands on to one
 * that does; each a note with its edits, or with why it is not made. */
#ifndef HEAPLINT_RULES_SBO_ALIAS_PLAN_H
#define HEAPLINT_RULES_SBO_ALIAS_PLAN_H

#include "rules/sbo/site.h"

/* Once per run over the whole database: for each alias whose wrapper type
 * receives allocating values, a note-level finding of rule at the alias:
 * the rewrite with its edits, or why it is not made (policy: the
 * configuration's public-api and max-inline-capacity). */
void hl_sbo_alias_plan(const hl_index_lookup *ix, const hl_plan_policy *policy, const char *rule, hl_findings *out);

#endif
