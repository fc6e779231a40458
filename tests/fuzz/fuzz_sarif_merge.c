/* merge-sarif: the input merged with itself (so that two logs' rules,
 * results and notifications meet), written to memory. */
#include <stdio.h>
#include <stdlib.h>

#include "fuzz_files.h"
#include "report/merge.h"
#include "util/util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  char *path = hl_xstrdup(hl_fuzz_write("log.sarif", data, size));
  char *paths[] = {path, path};
  char *text = NULL;
  size_t len = 0;
  FILE *out = open_memstream(&text, &len);
  char *err = NULL;
  hl_sarif_merge(out, paths, 2, &err);
  fclose(out);
  free(text);
  free(err);
  free(path);
  return 0;
}
