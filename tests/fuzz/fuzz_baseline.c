/* A baseline (--baseline): checked, then applied to one finding. */
#include <stdlib.h>

#include "fuzz_files.h"
#include "report/baseline.h"
#include "report/finding.h"
#include "util/util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  const char *path = hl_fuzz_write("baseline.json", data, size);
  char *err = NULL;
  if (hl_baseline_check(path, &err) == 0) {
    char *file = hl_xasprintf("%s/src/a.cc", hl_fuzz_dir());
    hl_loc loc = {file, 3, 7, 40};
    hl_findings all = {0};
    hl_finding *f = hl_finding_new("function-sbo", HL_SEV_WARNING, &loc, "a message");
    f->fingerprint = hl_xstrdup("88a376fd4c27245a");
    HL_PUSH(all.v, all.n, all.cap, f);
    hl_baseline *b = hl_baseline_load(path, &err);
    if (b) hl_baseline_filter(b, &all, hl_fuzz_dir(), NULL);
    hl_baseline_free(b);
    hl_findings_free(&all);
    free(file);
  }
  free(err);
  return 0;
}
