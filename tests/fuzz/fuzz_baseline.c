/* A baseline (--baseline): checked, then applied to a finding made from
 * each of its entries (so that every entry is looked up), and to one more. */
#include <jansson.h>
#include <stdlib.h>

#include "fuzz_files.h"
#include "report/baseline.h"
#include "report/finding.h"
#include "util/util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void add(hl_findings *all, const char *rule, const char *file, const char *fingerprint) {
  char *path = hl_xasprintf("%s/%s", hl_fuzz_dir(), file);
  hl_loc loc = {path, 3, 7, 40};
  hl_finding *f = hl_finding_new(rule, HL_SEV_WARNING, &loc, "a message");
  f->fingerprint = hl_xstrdup(fingerprint);
  HL_PUSH(all->v, all->n, all->cap, f);
  free(path);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  const char *path = hl_fuzz_write("baseline.json", data, size);
  char *err = NULL;
  if (hl_baseline_check(path, &err) == 0) {
    hl_findings all = {0};
    add(&all, "function-sbo", "src/a.cc", "88a376fd4c27245a");
    json_t *doc = json_loadb((const char *)data, size, 0, NULL);
    size_t i;
    json_t *e;
    json_array_foreach(json_object_get(doc, "findings"), i, e) {
      const char *rule = json_string_value(json_object_get(e, "rule"));
      const char *file = json_string_value(json_object_get(e, "file"));
      const char *fp = json_string_value(json_object_get(e, "fingerprint"));
      if (rule && file && fp) add(&all, rule, file, fp);
    }
    hl_baseline *b = hl_baseline_load(path, &err);
    if (b) hl_baseline_filter(b, &all, hl_fuzz_dir(), NULL);
    hl_baseline_free(b);
    hl_findings_free(&all);
    json_decref(doc); /* a finding's rule is not a copy */
  }
  free(err);
  return 0;
}
