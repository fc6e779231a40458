/* fuzz_files: the loaders take paths, not buffers, so each harness writes
 * its input into a file of its own temporary directory (made once per
 * process, removed at exit) and hands the loader that path. */
#ifndef HEAPLINT_FUZZ_FILES_H
#define HEAPLINT_FUZZ_FILES_H

#include <stddef.h>
#include <stdint.h>

/* The temporary directory (absolute). */
const char *hl_fuzz_dir(void);
/* Writes data to <dir>/<name> and returns that path (owned here, valid
 * until the next call with the same name). */
const char *hl_fuzz_write(const char *name, const uint8_t *data, size_t size);

#endif
