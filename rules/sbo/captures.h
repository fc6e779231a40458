/* sbo/captures: a lambda's captures — naming each field of its closure
 * (from the capture list and, for a default capture, the uses in its body),
 * describing their layout in a note, and laying out a closure that a
 * template leaves without a size. Used by sbo.c only. */
#ifndef HEAPLINT_RULES_SBO_CAPTURES_H
#define HEAPLINT_RULES_SBO_CAPTURES_H

#include "rules/sbo/site.h"

/* Names each field of the closure, or leaves s->captures NULL when the
 * fields cannot be matched to captures with certainty. */
void hl_sbo_name_captures(hl_sbo_site *s);

/* "captures: this (8), id (4, +4 padding), deadline (8)", or NULL when the
 * captures are not named (caller frees). */
char *hl_sbo_captures_note(const hl_ctx *ctx, const hl_sbo_site *s, const hl_sbo_verdict *v);

/* Each capture of s (its named lambda's) with offset and size, into l. */
void hl_sbo_captures_layout(const hl_ctx *ctx, const hl_sbo_site *s, hl_layout *l);

/* The size and alignment of a lambda's closure inside a template, from its
 * captures (a [&] default's too): 0, or -1 when it cannot be laid out with
 * certainty. */
int hl_sbo_template_lambda_layout(const hl_ctx *ctx, CXCursor lambda, long *size, long *align);

#endif
