#include "rules/lib/runtime_std.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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

/* Whether dir (relative to the compile command's directory base) has header. */
static int has(const char *base, const char *dir, size_t len, const char *header) {
  if (!len) return 0;
  char *path = dir[0] == '/' || !base ? hl_xasprintf("%.*s/%s", (int)len, dir, header)
                                      : hl_xasprintf("%s/%.*s/%s", base, (int)len, dir, header);
  int ok = access(path, R_OK) == 0;
  free(path);
  return ok;
}

/* Whether one of the colon-separated directories of list has header. */
static int list_has(const char *base, const char *list, const char *header) {
  while (list && *list) {
    const char *colon = strchr(list, ':');
    size_t len = colon ? (size_t)(colon - list) : strlen(list);
    if (has(base, list, len, header)) return 1;
    list = colon ? colon + 1 : NULL;
  }
  return 0;
}

char *hl_runtime_unreachable(hl_ctx *ctx, const char *header) {
  const hl_job *job = hl_ctx_job(ctx);
  static const char *const opts[] = {"-I", "-isystem", "-idirafter", "--include-directory="};
  for (size_t i = 0; i < job->nargs; i++)
    for (size_t k = 0; k < sizeof opts / sizeof *opts; k++) {
      const char *a = job->args[i];
      size_t n = strlen(opts[k]);
      if (strncmp(a, opts[k], n)) continue;
      const char *dir = a[n] ? a + n : i + 1 < job->nargs ? job->args[i + 1] : "";
      if (has(job->directory, dir, strlen(dir), header)) return NULL;
    }
  if (list_has(job->directory, getenv("CPATH"), header) ||
      list_has(job->directory, getenv("CPLUS_INCLUDE_PATH"), header) ||
      list_has(NULL, "/usr/local/include:/usr/include", header))
    return NULL;
  return hl_xasprintf(
      "<%s> is not on this translation unit's include path: add heaplint's runtime to the build first "
      "(CMake: find_package(heaplint) and target_link_libraries(<target> PRIVATE heaplint::runtime); "
      "elsewhere: pkg-config --cflags --libs heaplint-runtime)",
      header);
}

char *hl_runtime_blocked(hl_ctx *ctx, const char *header) {
  char *r = hl_runtime_std_blocked(ctx, header);
  return r ? r : hl_runtime_unreachable(ctx, header);
}
