#include "rules/lib/runtime_std.h"

#include <stdlib.h>
#include <string.h>

#include "engine/rule.h"
#include "util/util.h"

/* __cplusplus of the oldest standard each runtime header compiles in, with
 * g++ and clang++/libc++ (runtime/include/heaplint/; the runtime's tests
 * build each header in each standard: ctest runtime.std.*). A header missing
 * here is assumed to need C++17. */
static const struct {
  const char *header;
  long cplusplus;
} needs[] = {
    {"heaplint/inplace_function.hpp", 201103L}, {"heaplint/function_ref.hpp", 201103L},
    {"heaplint/pool_allocator.hpp", 201103L},   {"heaplint/containers.hpp", 201103L},
    {"heaplint/memory_resource.hpp", 201703L},
};

static char *blocked(hl_ctx *ctx, const char *what, long need) {
  long have = hl_ctx_cplusplus(ctx);
  if (have < 0)
    return hl_xasprintf(
        "%s needs %s, and heaplint cannot tell which C++ standard this translation unit is "
        "compiled in",
        what, hl_standard_name(need));
  if (have < need)
    return hl_xasprintf("%s needs %s, and this translation unit is compiled as %s", what, hl_standard_name(need),
                        have ? hl_standard_name(have) : "C");
  return NULL;
}

char *hl_runtime_std_blocked(hl_ctx *ctx, const char *header) {
  long need = 201703L;
  for (size_t i = 0; i < sizeof needs / sizeof *needs; i++)
    if (!strcmp(needs[i].header, header)) need = needs[i].cplusplus;
  char *what = hl_xasprintf("<%s>", header);
  char *r = blocked(ctx, what, need);
  free(what);
  return r;
}
