/* options: heaplint's options, one table for the check and the language
 * server — each option with its spellings, its value, and the front ends
 * that take it — so that what the two share (the compile database, the
 * configuration, -checks and the filters, the profiles, the docs URL) is
 * parsed and means the same in both. The spellings are heaplint's own and
 * clang-tidy 19's (single or double dash, "=value" or a separate value;
 * docs/cli.md has the table), so that run-clang-tidy, clang-tidy-diff and
 * CMake's hook can run heaplint in clang-tidy's place. Parsing never exits;
 * an unknown option, one of clang-tidy's heaplint cannot honour, one of the
 * other front end's, or a missing value comes back as an error message
 * naming the option. */
#ifndef HEAPLINT_OPTIONS_H
#define HEAPLINT_OPTIONS_H

#include "input/config.h"
#include "util/strv.h"

/* The front ends, as a set: which take an option. */
enum { HL_FRONT_CHECK = 1, HL_FRONT_LSP = 2 };

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
  const char *docs_url; /* --docs-url: where docs/ is, for the rules' links; NULL: hl_docs_default_url() */
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
  const char *index; /* --index: the project index's file; NULL: the default; "none": no index */
  int link_only;     /* --link-only */
  int werror, verbose, quiet, list_rules, version, help, dump_config;
  int list_checks, explain_config, verify_config, allow_no_checks;
  int color;            /* -use-color[=bool]: -1 not given (decide by the terminal), 0 never, 1 always */
  int report_undecided; /* json and sarif carry the sites not decided, as notes */
  int check_instances;  /* --check-instances (not in --help; docs/architecture.md, for developers): both
                           instantiation backends answer every question, compared in each unit's log; no cache */
  hl_strv notes;        /* options accepted with no effect in heaplint, and why: said on stderr */
  long debounce_ms;     /* heaplint lsp: --debounce; -1: not given; HL_DEBOUNCE_AUTO: --debounce=auto */
} hl_options;

/* --debounce=auto: the delay from the document's analysis times (lsp/server.h). */
#define HL_DEBOUNCE_AUTO (-2L)

/* Parses argv[1..] as front (HL_FRONT_CHECK or HL_FRONT_LSP) takes it:
 * the check takes files and "--"; the language server, options only.
 * Returns 0, or -1 with *err (caller frees). */
int hl_options_parse(int argc, char **argv, unsigned front, hl_options *o, char **err);
/* --config-file and --config both given: -1 with *err, else 0. */
int hl_options_one_config(const hl_options *o, char **err);
void hl_options_free(hl_options *o);

/* Where the rules' pages are when --docs-url is not given: the URL the
 * build was configured with (-DHEAPLINT_DOCS_URL=...), else the docs
 * installed beside heaplint (<prefix>/share/doc/heaplint/; the build tree
 * has them too), as a file URI. Ends with '/'. */
char *hl_docs_default_url(void);
/* A rule's page under docs_url (where docs/ is): <docs_url>rules/<id>.md,
 * the link SARIF and the language server give for its findings. */
char *hl_rule_page_url(const char *docs_url, const char *id);

/* --index=none: no project index, no summaries; each unit judged alone. */
int hl_options_no_index(const hl_options *o);

#endif
