/* copies/slots: function-copy across units. A wrapper that other units
 * see — a header's member, a parameter of a function other units can call
 * (a "slot", keyed as the project index files its values: "member <usr>",
 * "param <usr>#<index>") — gets its values in many files: a lambda stored
 * in one, the member it is moved into in a second, the copy in a third.
 * No unit alone can tell whether that copy allocates.
 *
 * During the walk each unit records in its summary what it sees of slots
 * (engine/summary.h): the flows between them (a copy, a move, a reference
 * parameter bound to one), the values it cannot follow into one (another
 * wrapper, a call's result), and the copies of one (a wrapper copied from
 * it, or a class copied whole by its implicit copy constructor or
 * assignment). The values stored into slots are the sbo rules' (they file
 * them under the same keys). After every unit, the link step gathers each
 * copied slot's possible values over the index, through the flows: a copy
 * that may hold a target on the heap is reported with the targets; one
 * whose every target is inline is not; one that a value heaplint cannot
 * follow reaches is left undecided. */
#ifndef HEAPLINT_RULES_COPIES_SLOTS_H
#define HEAPLINT_RULES_COPIES_SLOTS_H

#include "engine/rule.h"

/* During the walk, on every cursor: records c's flows and copies of slots
 * in the unit's summary (nothing when the run keeps none). */
void hl_slots_visit(hl_ctx *ctx, CXCursor c);

/* During the walk, for a store into a wrapper (a construction the sbo
 * engine matches) being visited: when it is what a slot function returns
 * ("return <usr>"), that key (caller frees: the rule files the store's
 * value under it once judged), else NULL. */
char *hl_slots_return(hl_ctx *ctx, CXCursor store);

/* The link step: the copies unit left open, judged over the index, as
 * findings of rule. */
void hl_slots_link(const hl_index_lookup *ix, const hl_summary *unit, const char *rule, hl_findings *out);

#endif
