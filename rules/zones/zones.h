/* zones/zones: the no-allocation zones of a translation unit and what they
 * reach. The walk records the functions defined (with their extents), the
 * zones among them, and every call, new and throw expression as a cursor
 * and a position; nothing is judged until a zone needs it. After the other
 * rules have ended, each zone is searched: the allocations written inside
 * it (lexically, lambdas included) — its own constructs (zones/sites) and
 * the sites the other rules judged (hl_ctx_allocations) — and, breadth
 * first through the calls of functions defined in the translation unit,
 * the first allocation each call reaches, with the chain of calls. Calls
 * heaplint cannot follow are listed once per zone. */
#ifndef HEAPLINT_RULES_ZONES_ZONES_H
#define HEAPLINT_RULES_ZONES_ZONES_H

#include "engine/rule.h"

typedef struct hl_zones hl_zones;

hl_zones *hl_zones_new(void);
void hl_zones_free(hl_zones *Z);

/* During the walk: a function definition (or lambda); why is the zone's
 * marker in words, or NULL when it is no zone. */
void hl_zones_function(hl_zones *Z, CXCursor fn, const char *why);
/* A CallExpr, CXXNewExpr or CXXThrowExpr. */
void hl_zones_expr(hl_zones *Z, CXCursor e);

/* After the walk (the other rules ended): the findings of every zone,
 * reported under rule as errors, and its "not verified" calls as sites not
 * decided. */
void hl_zones_report(hl_zones *Z, hl_ctx *ctx, const char *rule);

#endif
