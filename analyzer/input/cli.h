/* cli: the check's command line — its usage, the options parsed as
 * input/options.h parses them for the check, what a run needs (an input),
 * and that no output overwrites an input. */
#ifndef HEAPLINT_CLI_H
#define HEAPLINT_CLI_H

#include <stddef.h>

#include "input/config.h"
#include "input/jobs.h"
#include "input/options.h"
#include "input/profile.h"

/* The check's options (HL_FRONT_CHECK), $HEAPLINT_CACHE_DIR, and that
 * there is an input. Returns 0, or -1 with *err (caller frees). */
int hl_cli_parse(int argc, char **argv, hl_options *o, char **err);

/* An output (-o, --write-baseline, --export-fixes) must not overwrite an
 * input of the run: a source, the compile database, a configuration, a
 * profile, the baseline read; nor two outputs be one file (unless it is not
 * a regular file: two outputs to /dev/null are fine). Compared as files
 * (device and inode), not as strings. Returns 0, or -1 with *err naming
 * the path, the output and the input. */
int hl_cli_check_outputs(const hl_options *o, const hl_jobs *jobs, const hl_configs *configs,
                         const hl_profile_set *profiles, char **err);
/* And after the analysis, before anything is written: an output must not
 * be a file a translation unit read (a header a source includes), compared
 * as files (device and inode) as they are now. read[i] is a file (absolute
 * path) that the unit of main file units[i] read. Returns 0, or -1 with
 * *err naming the output and the unit. */
int hl_cli_check_outputs_read(const hl_options *o, char *const *read, char *const *units, size_t n, char **err);

extern const char hl_cli_usage[];

#endif
