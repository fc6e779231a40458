/* sbo/templates: stores inside a template whose stored value depends on the
 * template's parameters — a wrapper variable or member initialized, a wrapper
 * assigned, or a dependent argument passed to functions that all take a
 * wrapper there (a sink: the call is resolved only per instantiation).
 * Such a site is laid out here when its layout does not depend on the
 * parameters (a lambda whose captures all have one); otherwise it is marked
 * dependent, for an instantiation probe to judge per instantiation. A call
 * whose callee itself depends on the parameters (callbacks->append(cb))
 * gives conversion sites: a conversion probe tells, per instantiation,
 * whether the argument becomes a wrapper there. Used by sbo.c only. */
#ifndef HEAPLINT_RULES_SBO_TEMPLATES_H
#define HEAPLINT_RULES_SBO_TEMPLATES_H

#include "rules/sbo/site.h"

/* The template stores at cursor c: *out (caller frees) holds the sites,
 * the count is returned. */
size_t hl_sbo_template_sites(hl_ctx *ctx, CXCursor c, hl_sbo_site **out);

/* For a conversion site s (its callee is known only per instantiation) and
 * one of its probe's answers: *out, a copy of s storing into the wrapper
 * the answer converts the argument to, with that wrapper's spelling and
 * signature (out's to free: wrapper_spelling, signature), when it is one
 * of rule's wrappers and the argument is not already one of that type (a
 * copy is function-copy's). Returns 1 then, else 0. */
int hl_sbo_conversion_site(hl_ctx *ctx, const hl_sbo_site *s, const hl_inst_answer *h, const char *rule,
                           hl_sbo_site *out);

/* The wrapper a conversion probe's answer copies (the argument is already
 * a wrapper of the type it is converted to), or NULL. */
const hl_wrapper *hl_sbo_conversion_copy(hl_ctx *ctx, const hl_inst_answer *h);

#endif
