/* zones/link: the zones' open calls decided over the project index — each
 * call whose search left its unit is followed into the functions other
 * units define (a virtual call into the method and every overrider the
 * index knows), breadth first, to the nearest allocation: an error at the
 * call with the whole chain, across files. What no unit of the index
 * defines is listed, with what the unit could not follow itself, in the
 * zone's "not verified" remark. */
#ifndef HEAPLINT_RULES_ZONES_LINK_H
#define HEAPLINT_RULES_ZONES_LINK_H

#include "engine/rule.h"

/* The findings of unit's zones of rule (its static id) into out. */
void hl_zones_link(const hl_index_lookup *ix, const hl_summary *unit, const char *rule, hl_findings *out);

#endif
