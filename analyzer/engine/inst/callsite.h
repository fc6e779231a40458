/* callsite: the call a "requested here" location points at — the innermost
 * call whose callee's name holds it — whether it is a template's own code
 * (a function template's, a class template's member's, a lambda's in
 * either), the function around it, its arguments. The relays and the
 * users ask it of chain entries. */
#ifndef HEAPLINT_INST_CALLSITE_H
#define HEAPLINT_INST_CALLSITE_H

#include <clang-c/Index.h>
#include <stddef.h>

#include "engine/finding.h"

typedef struct hl_callsite {
  int in_template; /* the location is in a template's own code */
  CXCursor call;   /* the call there, or a null cursor */
  CXCursor fn;     /* the innermost function holding it, or a null cursor */
} hl_callsite;

/* The call at the location at of the unit tu. Returns 0, or -1 when the
 * unit has no such file. */
int hl_callsite_at(CXTranslationUnit tu, const hl_loc *at, hl_callsite *out);

/* The arguments of call, in order, into *out (caller frees). Returns how
 * many. */
size_t hl_callsite_args(CXCursor call, CXCursor **out);

#endif
