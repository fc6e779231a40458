/* sbo/templates: stores inside a template whose stored value depends on the
 * template's parameters — a wrapper variable or member initialized, a wrapper
 * assigned, or a dependent argument passed to functions that all take a
 * wrapper there (a sink: the call is resolved only per instantiation).
 * Such a site is laid out here when its layout does not depend on the
 * parameters (a lambda whose captures all have one); otherwise it is marked
 * dependent, for an instantiation probe to judge per instantiation. Used by
 * sbo.c only. */
#ifndef HEAPLINT_RULES_SBO_TEMPLATES_H
#define HEAPLINT_RULES_SBO_TEMPLATES_H

#include "rules/sbo/site.h"

/* The template stores at cursor c: *out (caller frees) holds the sites,
 * the count is returned. */
size_t hl_sbo_template_sites(hl_ctx *ctx, CXCursor c, hl_sbo_site **out);

#endif
