/* --diff: git's output (git diff -U0) read into the lines changed, then
 * asked about a line of each file it names. */
#include <stdint.h>
#include <stdlib.h>

#include "input/gitdiff.h"
#include "input/linefilter.h"
#include "util/strv.h"
#include "util/util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  char *text = hl_xstrndup((const char *)data, size);
  hl_line_filter lf = {0};
  hl_strv files = {0};
  hl_git_diff_parse(text, "/top", &lf, &files);
  for (size_t i = 0; i < files.n; i++) hl_line_filter_passes(&lf, files.v[i], (unsigned)i + 1);
  hl_strv_free(&files);
  hl_line_filter_free(&lf);
  free(text);
  return 0;
}
