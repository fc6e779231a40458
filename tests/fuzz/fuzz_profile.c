/* A library profile, as --profile reads it, then laid over itself as a
 * translation unit's selection does (layer, then overlay). */
#include <stdlib.h>

#include "fuzz_files.h"
#include "input/profile.h"
#include "rules/registry.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  const char *path = hl_fuzz_write("profile.yaml", data, size);
  hl_profile *p = NULL;
  char *err = NULL;
  if (hl_profile_load(path, hl_rules, &p, &err) == 0) {
    hl_profile_set set = {0};
    hl_selection sel;
    hl_selection_init(&sel, &set, p->library, p->pointer_width ? p->pointer_width : 64, NULL);
    hl_selection_layer(&sel, p, p->library, p->pointer_width ? p->pointer_width : 64);
    hl_selection_overlay(&sel, p);
    hl_selection_free(&sel);
    hl_profile_free(p);
  }
  free(err);
  return 0;
}
