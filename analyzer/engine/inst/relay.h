/* relay: chains the compiler cut, continued. clang instantiates a function
 * with a deduced return type (auto) as soon as a call needs it, and queues
 * the function templates that body calls until the end of the unit: their
 * instantiations, and every probe inside them, then name no caller beyond
 * the queued call. Such a chain ends inside a template's own code
 * (taskflow: async(F) -> auto _async(F) -> _schedule_async_task(..., [f]{...})
 * ends at that call). The call's arguments are asked about in one more
 * probe parse (a "relay"); each answer of a relay whose argument has the
 * stored type and its layout continues the chain from the call outward,
 * as far as it goes (it may be cut again: another round, at most three). */
#ifndef HEAPLINT_INST_RELAY_H
#define HEAPLINT_INST_RELAY_H

#include "engine/inst/inst_impl.h"

/* Continues the cut chains of I's answers, in at most three more parses;
 * the relays' own answers are dropped. */
void hl_relay(hl_inst *I);

#endif
