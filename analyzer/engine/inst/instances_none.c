/* engine/inst's AST backend without libclang-cpp (analyzer/CMakeLists.txt): no
 * access to clang's AST beyond the C API, so every answer is "cannot
 * tell" and the probe parse alone answers (instances.h). */
#include "engine/inst/instances.h"

#include <stdlib.h>

int hl_instances_usable(void) { return 0; }

const char *hl_instances_status(void) { return "instances: not built (no libclang-cpp)"; }

hl_instances_session *hl_instances_open(void) { return NULL; }

void hl_instances_close(hl_instances_session *s) { (void)s; }

long hl_instances_of_expr(hl_instances_session *s, CXCursor e, hl_instance **out, const char **why) {
  (void)s;
  (void)e;
  *out = NULL;
  *why = "heaplint was built without libclang-cpp";
  return -1;
}

long hl_instances_of_conversion(hl_instances_session *s, CXCursor call, CXCursor arg, const char *as_type,
                                const char *const *wrappers, size_t nwrappers, hl_instance **out, const char **why) {
  (void)s;
  (void)call;
  (void)arg;
  (void)as_type;
  (void)wrappers;
  (void)nwrappers;
  *out = NULL;
  *why = "heaplint was built without libclang-cpp";
  return -1;
}

void hl_instances_free(hl_instance *v, long n) {
  (void)n;
  free(v);
}
