/* runtime_std: the C++ standard each header of heaplint's runtime needs, as
 * data, so that a fix never includes one into a translation unit compiled
 * in an older standard (the fixed file would no longer compile). */
#ifndef HEAPLINT_RULES_RUNTIME_STD_H
#define HEAPLINT_RULES_RUNTIME_STD_H

#include "engine/rule.h"

/* Why a fix that includes header ("heaplint/containers.hpp") must not be
 * written into ctx's translation unit — its standard is older than the
 * header needs, or cannot be told — or NULL when it may (caller frees). */
char *hl_runtime_std_blocked(hl_ctx *ctx, const char *header);

/* Why header ("heaplint/inplace_function.hpp") cannot be found from ctx's
 * translation unit as #include <header> finds it — the directories of its
 * -I, -isystem, -idirafter, $CPATH, $CPLUS_INCLUDE_PATH, /usr/local/include
 * and /usr/include — saying how to add heaplint's runtime; NULL when it
 * can (caller frees). A fix that includes it would not compile. */
char *hl_runtime_unreachable(hl_ctx *ctx, const char *header);

#endif
