/* config: .heaplint.yaml, found like .clang-tidy by walking up from each
 * source file's directory (the nearest file wins), or named with
 * --config-file. Parsed with libyaml; an unknown key or a bad value is an
 * error naming the file, line and key. docs/config.md has the format:
 *
 *   rules:                    # per rule: on, off, or a severity
 *     function-sbo: error     #   (warning, error, note); on = its default
 *     any-sbo: off
 *   warnings-as-errors: true  # or a list of rules
 *   checks: '-*,function-sbo' # clang-tidy's globs, after rules:
 *   header-filter: '^/src/'   # POSIX ERE (util/ere.h): findings in headers whose
 *                             # path does not match are dropped
 *   exclude-header-filter: '/third_party/'
 *   system-headers: false
 *   profiles: [local.yaml]    # laid over the library's, relative to this file
 *   cache-dir: .heaplint-cache # the result cache, relative to this file
 *   wrappers:                 # the configured inline buffer
 *     - name: std::function
 *       buffer: {size: 32, align: 16}
 *   fallback-flags: [-std=c++20, -Iinclude]   # heaplint lsp: a file no
 *                             # compile database lists (paths relative to this file)
 *
 * clang-tidy's keys (Checks, WarningsAsErrors, HeaderFilterRegex, ...) are
 * read too, so that a -config= written for clang-tidy works. The command
 * line's -checks, -warnings-as-errors, -header-filter, ... are a layer over
 * every configuration (hl_config_cli).
 *   no-alloc-functions: ['audio::*::process']  # no-allocation zones (rule no-alloc)
 *   public-api: ['net::*']    # declarations API rewrites leave alone
 *   max-inline-capacity: 256  # the largest inline buffer a fix may choose
 * A rule's own keys (no-alloc-functions) are the rule's to declare
 * (hl_rule.options): the parser asks the rules for a key it does not know.
 */
#ifndef HEAPLINT_CONFIG_H
#define HEAPLINT_CONFIG_H

#include <stdio.h>

#include "engine/finding.h"
#include "engine/rule.h"
#include "input/profile.h"
#include "util/strv.h"
#include "util/ere.h"
#include "util/util.h"

/* The most heaplint reads of a configuration (a file or -config=): far
 * above what one holds (a few KiB), and a bound on what one can cost. */
#define HL_CONFIG_MAX ((size_t)1 << 20)

typedef struct hl_rule_setting {
  char *rule;
  int enabled;
  hl_severity severity;
  int has_severity; /* else the rule's default (warning) */
} hl_rule_setting;

/* The command line's layer over every configuration (docs/cli.md). */
typedef struct hl_config_cli {
  const char *file;               /* --config-file: every source uses it */
  const char *text;               /* -config=: an inline configuration, instead of any file */
  const char *checks;             /* -checks: globs over the rule ids, after the configuration's */
  const char *warnings_as_errors; /* globs, after the configuration's */
  const char *header_filter;      /* instead of the configuration's ("": no header) */
  const char *exclude_header_filter;
  int system_headers; /* -1: the configuration's */
} hl_config_cli;

/* The command line's layer, its regular expressions compiled. */
typedef struct hl_config_layer {
  hl_config_cli cli;
  hl_ere *header_re, *exclude_re;
} hl_config_layer;

typedef struct hl_config {
  char *path; /* NULL: no file, the defaults */
  hl_rule_setting *rules;
  size_t nrules, caprules;
  int werror_all;
  char **werror; /* rules whose warnings are errors */
  size_t nwerror, capwerror;
  char *header_filter;
  hl_ere *header_re;     /* NULL: no header-filter */
  hl_profile **profiles; /* loaded, in order */
  size_t nprofiles, capprofiles;
  hl_profile *overrides; /* its "wrappers", partial entries (library: any) */
  char *checks;          /* its check globs ("-*,function-sbo"), after rules; NULL: none */
  char *werror_globs;    /* warnings-as-errors as globs, after the list; NULL: none */
  char *exclude_header_filter;
  hl_ere *exclude_re;
  int system_headers;            /* -1: not said (off) */
  int use_color;                 /* UseColor: -1 not said, 0, 1 */
  int check_options;             /* it has clang-tidy CheckOptions (no heaplint rule has options) */
  const hl_config_layer *layer;  /* the command line's */
  hl_strv fallback_flags;        /* the compile flags of a file no compile database lists (heaplint lsp) */
  int has_fallback;              /* fallback-flags was given */
  hl_rule_option_value *options; /* the rules' options it gives (hl_rule.options), in the file's order */
  size_t noptions, capoptions;
  hl_strv public_api;                    /* globs over qualified names: API rewrites leave them alone */
  long max_inline_capacity;              /* the largest inline buffer a fix may choose, in bytes; 0: no limit */
  char *cache_dir;                       /* absolute; NULL: none */
  const struct hl_rule *const *registry; /* the rules heaplint has (hl_configs_new's): the engine runs those enabled */
} hl_config;

typedef struct hl_configs hl_configs;

/* With cli->file (--config-file) or cli->text (-config=), every file uses
 * that one. rules: the rules heaplint has (NULL-terminated, the front
 * end's), the ones a configuration may name and whose options it may give.
 * Returns NULL with *err when the command line's configuration, or one of
 * its regular expressions, is bad. */
hl_configs *hl_configs_new(const hl_config_cli *cli, const struct hl_rule *const *rules, char **err);
void hl_configs_free(hl_configs *C);

/* The config that applies to the source file path (absolute), loaded once
 * per file. Returns 0, or -1 with *err ("file:line:col: ..."). */
int hl_config_for(hl_configs *C, const char *path, const hl_config **out, char **err);

/* Appends the path of every configuration loaded so far to configs, and of
 * the profiles they name to profiles. */
void hl_configs_files(const hl_configs *C, hl_strv *configs, hl_strv *profiles);

/* Whether rule is enabled (rules:, then checks, then -checks), and the
 * severity its findings get. With where, also what enabled or disabled it
 * last: "the heaplint binary", a file, "the command-line option '-checks'"
 * (static or c's own). */
int hl_config_enabled(const hl_config *c, const char *rule);
int hl_config_enabled_by(const hl_config *c, const char *rule, const char **where);
hl_severity hl_config_severity(const hl_config *c, const char *rule);

/* Whether a finding in the header path (absolute) is shown: the header
 * filter matches it and the exclude filter does not (the command line's in
 * place of the configuration's). */
int hl_config_shows_header(const hl_config *c, const char *path);
/* Whether findings in system headers are reported (-system-headers). */
int hl_config_system_headers(const hl_config *c);
/* The glob of c's public-api that matches the qualified name, or NULL:
 * API rewrites leave such a declaration alone. */
const char *hl_config_public_api(const hl_config *c, const char *name);

/* What the rules' plans ask of the configurations (engine/rule.h's
 * hl_plan_policy): the one nearest each declaration's file, else fallback
 * (when that one cannot be read). p must outlive the policy. */
typedef struct hl_config_policy {
  hl_configs *configs;
  const hl_config *fallback;
} hl_config_policy;
hl_plan_policy hl_config_plan_policy(hl_config_policy *p);
/* The configuration p gives file. */
const hl_config *hl_config_policy_at(hl_config_policy *p, const char *file);

/* -verify-config: warns on stderr, as clang-tidy, of every check glob that
 * names no rule (with the closest rule id), and of CheckOptions. Returns
 * how many warnings it gave. */
int hl_config_verify(const hl_config *c, const char *const *rule_ids);

/* Prints the effective config for a source file as YAML (--dump-config). */
int hl_config_dump(FILE *out, const hl_config *c, const char *for_file, const char *const *rule_ids);

#endif
