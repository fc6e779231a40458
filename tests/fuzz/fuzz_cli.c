/* The command line: the input's lines (or NUL-separated words) are the
 * arguments; parsed, then what the options themselves hold is read as a
 * run reads it: -line-filter's JSON and -config's YAML. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "input/cli.h"
#include "input/config.h"
#include "input/linefilter.h"
#include "rules/registry.h"
#include "util/util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  char *text = hl_xstrndup((const char *)data, size);
  char **argv = hl_xcalloc(size + 2, sizeof *argv);
  int argc = 0;
  argv[argc++] = "heaplint";
  for (size_t i = 0, start = 0; i <= size; i++)
    if (i == size || text[i] == '\n' || text[i] == '\0') {
      text[i] = '\0';
      argv[argc++] = text + start;
      start = i + 1;
    }
  hl_options o;
  char *err = NULL;
  if (hl_cli_parse(argc, argv, &o, &err) == 0) {
    hl_line_filter lf = {0};
    if (o.line_filter && *o.line_filter && hl_line_filter_parse(&lf, o.line_filter, &err) == 0)
      hl_line_filter_passes(&lf, "/src/a.cc", 3);
    hl_line_filter_free(&lf);
    free(err);
    err = NULL;
    hl_configs_free(hl_configs_new(&o.config, hl_rules, &err));
  }
  hl_options_free(&o);
  free(err);
  free(argv);
  free(text);
  return 0;
}
