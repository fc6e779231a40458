/* sites: where a question can be spliced into the unit's own text — no
 * macro, no pack expansion, a place an argument can be wrapped — and where
 * a conversion question's copy of its call can go as a statement of its
 * own. The rejections' wording reaches users as "not decided: ..." notes. */
#ifndef HEAPLINT_INST_SITES_H
#define HEAPLINT_INST_SITES_H

#include <clang-c/Index.h>

#include "engine/inst/inst_impl.h"
#include "engine/unit.h"

/* A layout question about the expression e into *q. Returns 0, or -1 with
 * *why when e cannot be wrapped where it stands. */
int hl_site_layout(const hl_unit *u, CXCursor e, hl_question *q, const char **why);

/* A conversion question about the argument arg of the call wrapped (with
 * as_type, arg's conversion to that type) into *q, its copy of the call
 * placed where the call is. Returns 0, or -1 with *why. */
int hl_site_conversion(const hl_unit *u, CXCursor wrapped, CXCursor arg, const char *as_type, hl_question *q,
                       const char **why);

/* q's copy of its call as a statement of its own before the call's
 * statement, when one can go there with the same names in scope (inside a
 * function's body); else q is left as it is. */
void hl_site_statement(const hl_unit *u, hl_question *q);

#endif
