/* .heaplint.yaml: parsed, then printed as --dump-config does. */
#include <stdio.h>
#include <stdlib.h>

#include "rules/registry.h"
#include "fuzz_files.h"
#include "input/config.h"
#include "util/util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  char *source = hl_xasprintf("%s/a.cpp", hl_fuzz_dir());
  hl_fuzz_write(".heaplint.yaml", data, size);
  hl_config_cli cli = {.system_headers = -1};
  char *err = NULL;
  hl_configs *C = hl_configs_new(&cli, hl_rules, &err);
  const hl_config *c = NULL;
  if (C && hl_config_for(C, source, &c, &err) == 0) {
    const char *ids[64];
    size_t n = 0;
    for (; hl_rules[n] && n < 63; n++) ids[n] = hl_rules[n]->id;
    ids[n] = NULL;
    char *text = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&text, &len);
    hl_config_dump(out, c, source, ids);
    fclose(out);
    free(text);
    hl_config_shows_header(c, source);
  }
  free(err);
  hl_configs_free(C);
  free(source);
  return 0;
}
