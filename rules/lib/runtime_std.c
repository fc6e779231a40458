#include "rules/lib/runtime_std.h"

#include <string.h>

#include "engine/rule.h"
#include "util/util.h"

/* __cplusplus of the oldest standard each runtime header compiles in, with
 * g++ and clang++/libc++ (runtime/include/heaplint/; the runtime's tests
 * build each header in each standard). A header missing here is assumed to
 * need C++17, the standard the runtime's C++ headers are written in. */
static const struct {
  const char *header;
  long cplusplus;
} needs[] = {
    {"heaplint/inplace_function.hpp", 201703L},
    {"heaplint/function_ref.hpp", 201703L},
    {"heaplint/pool_allocator.hpp", 201703L},
    {"heaplint/containers.hpp", 201703L},
    {"heaplint/memory_resource.hpp", 201703L},
};

char *hl_runtime_std_blocked(hl_ctx *ctx, const char *header) {
  long need = 201703L;
  for (size_t i = 0; i < sizeof needs / sizeof *needs; i++)
    if (!strcmp(needs[i].header, header)) need = needs[i].cplusplus;
  long have = hl_ctx_cplusplus(ctx);
  if (have < 0)
    return hl_xasprintf("<%s> needs %s, and heaplint cannot tell which C++ standard this translation unit is "
                        "compiled in",
                        header, hl_standard_name(need));
  if (have < need)
    return hl_xasprintf("<%s> needs %s, and this translation unit is compiled as %s", header, hl_standard_name(need),
                        have ? hl_standard_name(have) : "C");
  return NULL;
}
