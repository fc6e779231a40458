/* A compile database (-p): heaplint's own check, then libclang's loader and
 * the job list built from it (sources it names are looked up, none exist
 * but a.cpp, which is empty). */
#include <stdlib.h>

#include "fuzz_files.h"
#include "input/jobs.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  hl_fuzz_write("a.cpp", NULL, 0);
  hl_fuzz_write("compile_commands.json", data, size);
  hl_jobs jobs = {0};
  hl_msgs errs = {0};
  hl_jobs_from_db(&jobs, hl_fuzz_dir(), NULL, 0, &errs);
  hl_jobs_free(&jobs);
  hl_msgs_free(&errs);
  return 0;
}
