/* operator_new: the operator new a class declares for its objects (or one
 * of its bases does): a new expression of such a class calls it, not the
 * global heap's. */
#ifndef HEAPLINT_RULES_OPERATOR_NEW_H
#define HEAPLINT_RULES_OPERATOR_NEW_H

#include "engine/rule.h"

/* The class's (or a base's) operator new, as declared in its definition,
 * or a null cursor (t is no class, or has none). */
CXCursor hl_class_operator_new(CXType t);

#endif
