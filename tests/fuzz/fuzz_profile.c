/* A library profile, as --profile reads it. */
#include <stdlib.h>

#include "fuzz_files.h"
#include "input/profile.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  const char *path = hl_fuzz_write("profile.yaml", data, size);
  hl_profile *p = NULL;
  char *err = NULL;
  if (hl_profile_load(path, &p, &err) == 0) hl_profile_free(p);
  free(err);
  return 0;
}
