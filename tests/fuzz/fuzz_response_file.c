/* A response file (@file) in the flags of a source named on the command
 * line: split as GCC does, nested ones expanded. */
#include <stdlib.h>

#include "fuzz_files.h"
#include "input/jobs.h"
#include "util/util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  const char *source = hl_fuzz_write("a.cpp", NULL, 0);
  char *file = hl_xstrdup(source);
  char *arg = hl_xasprintf("@%s/args.rsp", hl_fuzz_dir());
  hl_fuzz_write("args.rsp", data, size);
  char *flags[] = {"-std=c++17", arg};
  hl_jobs jobs = {0};
  hl_msgs errs = {0};
  hl_jobs_from_args(&jobs, &file, 1, flags, 2, &errs);
  hl_jobs_free(&jobs);
  hl_msgs_free(&errs);
  free(arg);
  free(file);
  return 0;
}
