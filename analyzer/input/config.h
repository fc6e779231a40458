/* config: .heaplint.yaml, found like .clang-tidy by walking up from each
 * source file's directory (the nearest file wins), or named with
 * --config-file. Parsed with libyaml; an unknown key or a bad value is an
 * error naming the file, line and key. docs/config.md has the format:
 *
 *   rules:                    # per rule: on, off, or a severity
 *     function-sbo: error     #   (warning, error, note); on = its default
 *     any-sbo: off
 *   warnings-as-errors: true  # or a list of rules
 *   header-filter: '^/src/'   # POSIX ERE (util/ere.h): findings in headers whose
 *                             # path does not match are dropped
 *   profiles: [local.yaml]    # laid over the library's, relative to this file
 *   cache-dir: .heaplint-cache # the result cache, relative to this file
 *   wrappers:                 # the configured inline buffer
 *     - name: std::function
 *       buffer: {size: 32, align: 16}
 */
#ifndef HEAPLINT_CONFIG_H
#define HEAPLINT_CONFIG_H

#include <stdio.h>

#include "engine/finding.h"
#include "input/profile.h"
#include "util/strv.h"
#include "util/ere.h"
#include "util/util.h"

typedef struct hl_rule_setting {
  char *rule;
  int enabled;
  hl_severity severity;
  int has_severity;      /* else the rule's default (warning) */
} hl_rule_setting;

typedef struct hl_config {
  char *path;            /* NULL: no file, the defaults */
  hl_rule_setting *rules;
  size_t nrules, caprules;
  int werror_all;
  char **werror;         /* rules whose warnings are errors */
  size_t nwerror, capwerror;
  char *header_filter;
  hl_ere *header_re;     /* NULL: no header-filter */
  hl_profile **profiles; /* loaded, in order */
  size_t nprofiles, capprofiles;
  hl_profile *overrides; /* its "wrappers", partial entries (library: any) */
  char *cache_dir;       /* absolute; NULL: none */
} hl_config;

typedef struct hl_configs hl_configs;

/* With explicit (--config-file), every file uses that one. */
hl_configs *hl_configs_new(const char *explicit_path);
void hl_configs_free(hl_configs *C);

/* The config that applies to the source file path (absolute), loaded once
 * per file. Returns 0, or -1 with *err ("file:line:col: ..."). */
int hl_config_for(hl_configs *C, const char *path, const hl_config **out, char **err);

/* Appends the path of every configuration loaded so far to configs, and of
 * the profiles they name to profiles. */
void hl_configs_files(const hl_configs *C, hl_strv *configs, hl_strv *profiles);

/* Whether rule is enabled, and the severity its findings get. */
int hl_config_enabled(const hl_config *c, const char *rule);
hl_severity hl_config_severity(const hl_config *c, const char *rule);

/* Prints the effective config for a source file as YAML (--dump-config). */
int hl_config_dump(FILE *out, const hl_config *c, const char *for_file, const char *const *rule_ids);

#endif
