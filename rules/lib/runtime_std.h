/* runtime_std: whether a fix may include a header of heaplint's runtime
 * into a translation unit — the C++ standard each header needs, as data, and
 * whether the unit's include path finds the header — so that a fixed file
 * always compiles; when not, the reason says how to add the runtime. */
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

/* What every fix that adds #include <header> asks last, once the code
 * itself allows the edit: hl_runtime_std_blocked's reason, else
 * hl_runtime_unreachable's; NULL when the fix may be made (caller frees). */
char *hl_runtime_blocked(hl_ctx *ctx, const char *header);

#endif
