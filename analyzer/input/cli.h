/* cli: heaplint's command line, parsed into options — its own, and
 * clang-tidy 19's spellings (single or double dash, "=value" or a separate
 * value; docs/cli.md has the table), so that run-clang-tidy, clang-tidy-diff
 * and CMake's hook can run heaplint in clang-tidy's place. Parsing never
 * exits; an unknown option, one of clang-tidy's heaplint cannot honour, or a
 * missing value comes back as an error message naming the option. */
#ifndef HEAPLINT_CLI_H
#define HEAPLINT_CLI_H

#include <stddef.h>

#include "input/config.h"
#include "input/jobs.h"
#include "input/profile.h"
#include "util/strv.h"

typedef struct hl_options {
  hl_strv files;          /* files named on the command line */
  hl_strv flags;          /* after "--": compiler flags, or a whole compiler command */
  int dashdash;           /* "--" was given */
  const char *build_path; /* -p */
  hl_strv extra_before;   /* --extra-arg-before */
  hl_strv extra_after;    /* --extra-arg */
  hl_strv remove_args;    /* --remove-arg: globs of compiler arguments to drop */
  hl_strv profiles;       /* --profile */
  const char *profile_dir;
  const char *format; /* text (default), json, sarif */
  const char *output; /* -o: the report goes there instead of stdout */
  const char *source_root;
  const char *docs_url; /* --docs-url: where docs/ is, for SARIF's help links; NULL: check.c's default */
  const char *baseline, *write_baseline;
  hl_config_cli config;    /* --config-file, -config, -checks, the filters: laid over every configuration */
  const char *line_filter; /* -line-filter: clang-tidy's JSON; NULL or "": none */
  int diff;                /* --diff: only findings on the lines git diff shows changed */
  const char *diff_ref;    /* --diff=<ref>; NULL: HEAD */
  const char *export_fixes;
  const char *cache_dir;             /* --cache-dir, else $HEAPLINT_CACHE_DIR; NULL: each config's cache-dir */
  unsigned long long cache_max_size; /* bytes; 0: the default */
  int fix, fix_errors;               /* --fix; --fix-errors: also in translation units with compile errors */
  unsigned jobs;                     /* -j; 0: one per processor */
  unsigned shard_k, shard_n;
  const char *index; /* --index: the project index's file; NULL: the default */
  int link_only;     /* --link-only */
  int werror, verbose, quiet, list_rules, version, help, dump_config;
  int list_checks, explain_config, verify_config, allow_no_checks;
  int color;            /* -use-color[=bool]: -1 not given (decide by the terminal), 0 never, 1 always */
  int report_undecided; /* json and sarif carry the sites not decided, as notes */
  hl_strv notes;        /* options accepted with no effect in heaplint, and why: said on stderr */
} hl_options;

/* Returns 0, or -1 with *err (caller frees). */
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
void hl_cli_free(hl_options *o);

extern const char hl_cli_usage[];

#endif
