/* sbo: the engine shared by the small-buffer rules (function-sbo, any-sbo):
 * finds every place a value is stored into a wrapper a profile describes,
 * judges it against that library's inline-buffer rule, and words the
 * numbers. The rules themselves only name what is stored and the fix.
 *
 * A store is a call, found on the AST as the library sees it:
 *   - a converting constructor of the wrapper (copy-, direct-, brace-init,
 *     argument passing, return, member init: all are this call), including
 *     std::in_place_type<T> construction;
 *   - the wrapper's templated operator=;
 *   - a profile's emplace members (std::any::emplace<T>) and factories
 *     (std::make_any<T>);
 *   - emplace_back/emplace/try_emplace/... of a standard container whose
 *     element (or mapped) type is the wrapper: the wrapper is then built
 *     inside the library, from the argument. */
#ifndef HEAPLINT_RULES_SBO_H
#define HEAPLINT_RULES_SBO_H

#include "rules/sbo/site.h"

typedef struct hl_sbo hl_sbo;

/* A small-buffer rule's hooks: its hl_rule has its hl_sbo_wording as data
 * and these as begin, visit, prepare and end. */
void *hl_sbo_begin(hl_ctx *ctx, const hl_rule *self);
void hl_sbo_visit(hl_ctx *ctx, void *state, CXCursor c);
void hl_sbo_prepare(hl_ctx *ctx, void *state);
void hl_sbo_end(hl_ctx *ctx, void *state);

/* The wording of the small-buffer rule that reports w (its hl_rule's
 * data), for another rule that words what w stores; NULL when w's rule is
 * not a small-buffer rule. */
const hl_sbo_wording *hl_sbo_wording_of(const hl_wrapper *w);

#endif
