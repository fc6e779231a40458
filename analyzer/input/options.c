#include "input/options.h"

#include <stdlib.h>
#include <string.h>

#include "util/util.h"

/* Each option once, without its dashes: "-x" and "--x" are the same, as
 * in clang-tidy (LLVM's option parser); a value follows "=" or is the next
 * argument. */
typedef enum arity {
  FLAG,     /* no value */
  BOOL,     /* clang-tidy's flags: -x, -x=true, -x=false (also 1, 0) */
  VALUE,    /* a value, never empty */
  TEXT,     /* a value, possibly empty (-header-filter=) */
  OPTIONAL, /* --diff or --diff=<ref> */
} arity;

typedef enum opt_id {
  O_P,
  O_EXTRA_ARG,
  O_EXTRA_ARG_BEFORE,
  O_REMOVE_ARG,
  O_J,
  O_SHARD,
  O_CONFIG_FILE,
  O_CONFIG,
  O_DUMP_CONFIG,
  O_PROFILE,
  O_PROFILE_DIR,
  O_LIST_RULES,
  O_LIST_CHECKS,
  O_EXPLAIN_CONFIG,
  O_VERIFY_CONFIG,
  O_CHECKS,
  O_WARNINGS_AS_ERRORS,
  O_HEADER_FILTER,
  O_EXCLUDE_HEADER_FILTER,
  O_LINE_FILTER,
  O_SYSTEM_HEADERS,
  O_DIFF,
  O_FORMAT,
  O_OUTPUT,
  O_SOURCE_ROOT,
  O_BASELINE,
  O_WRITE_BASELINE,
  O_REPORT_UNDECIDED,
  O_FIX,
  O_FIX_ERRORS,
  O_FIX_NOTES,
  O_EXPORT_FIXES,
  O_WERROR,
  O_QUIET,
  O_VERBOSE,
  O_USE_COLOR,
  O_ALLOW_NO_CHECKS,
  O_VERSION,
  O_HELP,
  O_CACHE_DIR,
  O_CACHE_MAX_SIZE,
  O_INDEX,
  O_LINK_ONLY,
  O_DOCS_URL,
  O_COLOR,
  O_DEBOUNCE,
  O_CHECK_INSTANCES,
  O_NO_EFFECT,
} opt_id;

/* Which front ends take an option (HL_FRONT_*): what the check and the
 * language server share means the same in both. */
enum { CHECK = HL_FRONT_CHECK, LSP = HL_FRONT_LSP, BOTH = HL_FRONT_CHECK | HL_FRONT_LSP };

typedef struct opt {
  const char *name;
  arity arity;
  opt_id id;
  unsigned fronts;
  const char *note; /* O_NO_EFFECT: why heaplint has nothing to do for it */
} opt;

static const opt options[] = {
    {"p", VALUE, O_P, BOTH, NULL},
    {"compile-commands-dir", VALUE, O_P, LSP, NULL},
    {"extra-arg", VALUE, O_EXTRA_ARG, BOTH, NULL},
    {"extra-arg-before", VALUE, O_EXTRA_ARG_BEFORE, BOTH, NULL},
    {"remove-arg", VALUE, O_REMOVE_ARG, CHECK, NULL},
    {"j", VALUE, O_J, CHECK, NULL},
    {"shard", VALUE, O_SHARD, CHECK, NULL},
    {"config-file", VALUE, O_CONFIG_FILE, BOTH, NULL},
    {"config", TEXT, O_CONFIG, BOTH, NULL},
    {"dump-config", BOOL, O_DUMP_CONFIG, CHECK, NULL},
    {"profile", VALUE, O_PROFILE, BOTH, NULL},
    {"profile-dir", VALUE, O_PROFILE_DIR, BOTH, NULL},
    {"list-rules", FLAG, O_LIST_RULES, CHECK, NULL},
    {"list-checks", BOOL, O_LIST_CHECKS, CHECK, NULL},
    {"explain-config", BOOL, O_EXPLAIN_CONFIG, CHECK, NULL},
    {"verify-config", BOOL, O_VERIFY_CONFIG, CHECK, NULL},
    {"checks", TEXT, O_CHECKS, BOTH, NULL},
    {"warnings-as-errors", TEXT, O_WARNINGS_AS_ERRORS, BOTH, NULL},
    {"header-filter", TEXT, O_HEADER_FILTER, BOTH, NULL},
    {"exclude-header-filter", TEXT, O_EXCLUDE_HEADER_FILTER, BOTH, NULL},
    {"line-filter", TEXT, O_LINE_FILTER, CHECK, NULL},
    {"system-headers", BOOL, O_SYSTEM_HEADERS, BOTH, NULL},
    {"diff", OPTIONAL, O_DIFF, CHECK, NULL},
    {"format", VALUE, O_FORMAT, CHECK, NULL},
    {"o", VALUE, O_OUTPUT, CHECK, NULL},
    {"source-root", VALUE, O_SOURCE_ROOT, CHECK, NULL},
    {"baseline", VALUE, O_BASELINE, CHECK, NULL},
    {"write-baseline", VALUE, O_WRITE_BASELINE, CHECK, NULL},
    {"report-undecided", FLAG, O_REPORT_UNDECIDED, CHECK, NULL},
    {"fix", BOOL, O_FIX, CHECK, NULL},
    {"fix-errors", BOOL, O_FIX_ERRORS, CHECK, NULL},
    {"fix-notes", BOOL, O_FIX_NOTES, CHECK, NULL},
    {"export-fixes", VALUE, O_EXPORT_FIXES, CHECK, NULL},
    {"werror", FLAG, O_WERROR, CHECK, NULL},
    {"q", FLAG, O_QUIET, CHECK, NULL},
    {"quiet", BOOL, O_QUIET, CHECK, NULL},
    {"v", FLAG, O_VERBOSE, CHECK, NULL},
    {"verbose", FLAG, O_VERBOSE, CHECK, NULL},
    {"use-color", BOOL, O_USE_COLOR, CHECK, NULL},
    {"color", VALUE, O_COLOR, CHECK, NULL},
    {"cache-dir", VALUE, O_CACHE_DIR, CHECK, NULL},
    {"cache-max-size", VALUE, O_CACHE_MAX_SIZE, CHECK, NULL},
    {"index", VALUE, O_INDEX, BOTH, NULL},
    {"link-only", FLAG, O_LINK_ONLY, CHECK, NULL},
    {"docs-url", VALUE, O_DOCS_URL, BOTH, NULL},
    {"debounce", VALUE, O_DEBOUNCE, LSP, NULL},
    {"allow-no-checks", BOOL, O_ALLOW_NO_CHECKS, CHECK, NULL},
    {"check-instances", FLAG, O_CHECK_INSTANCES, CHECK, NULL},
    {"version", FLAG, O_VERSION, BOTH, NULL},
    {"h", FLAG, O_HELP, BOTH, NULL},
    {"help", FLAG, O_HELP, BOTH, NULL},
    {"help-hidden", FLAG, O_HELP, BOTH, NULL},
    {"help-list", FLAG, O_HELP, BOTH, NULL},
    {"help-list-hidden", FLAG, O_HELP, BOTH, NULL},
    {"format-style", TEXT, O_NO_EFFECT, CHECK,
     "heaplint writes its fixes as they are and does not run clang-format over them"},
    {"allow-enabling-analyzer-alpha-checkers", BOOL, O_NO_EFFECT, CHECK, "heaplint has no clang-analyzer checks"},
    {"enable-module-headers-parsing", BOOL, O_NO_EFFECT, CHECK, "no heaplint rule looks at macros"},
};

/* clang-tidy's options heaplint cannot honour: an error, never a silent
 * ignore. */
static const struct refused {
  const char *name, *why;
} refused[] = {
    {"load", "heaplint's rules are built in; it cannot load clang-tidy plugins"},
    {"vfsoverlay",
     "heaplint reads the sources from the disk itself (NOLINT comments, source lines, fixes), where an "
     "overlay would not be seen"},
    {"enable-check-profile", "heaplint has no per-check timing profiles"},
    {"store-check-profile", "heaplint has no per-check timing profiles"},
    {"print-options", "heaplint has no LLVM option registry to print (--dump-config shows the configuration)"},
    {"print-all-options", "heaplint has no LLVM option registry to print (--dump-config shows the configuration)"},
};

static int number(const char *s, unsigned *out) {
  char *end;
  unsigned long v = strtoul(s, &end, 10);
  if (end == s || *end || v > 4096) return -1;
  *out = (unsigned)v;
  return 0;
}

/* "64M", "1G", "500000": bytes; K, M, G are powers of 1024. */
static int size(const char *s, unsigned long long *out) {
  char *end;
  unsigned long long v = strtoull(s, &end, 10);
  unsigned shift = !*end ? 0 : !strcmp(end, "K") ? 10 : !strcmp(end, "M") ? 20 : !strcmp(end, "G") ? 30 : 64;
  if (end == s || s[0] == '-' || shift == 64 || v == 0 || v > (~0ULL >> shift)) return -1;
  *out = v << shift;
  return 0;
}

static int shard(hl_options *o, const char *v, char **err) {
  const char *slash = strchr(v, '/');
  char *k_part = slash ? hl_xstrndup(v, (size_t)(slash - v)) : NULL;
  int bad = !slash || number(k_part, &o->shard_k) || number(slash + 1, &o->shard_n) || o->shard_n == 0 ||
            o->shard_k == 0 || o->shard_k > o->shard_n;
  free(k_part);
  if (bad) *err = hl_xasprintf("--shard takes <k>/<n> with 1 <= k <= n, not '%s'", v);
  return bad ? -1 : 0;
}

static int debounce(hl_options *o, const char *v, char **err) {
  char *end;
  if (!strcmp(v, "auto")) {
    o->debounce_ms = HL_DEBOUNCE_AUTO;
    return 0;
  }
  o->debounce_ms = strtol(v, &end, 10);
  if (end == v || *end || o->debounce_ms < 0 || o->debounce_ms > 60000) {
    *err = hl_xasprintf("--debounce takes 'auto' or milliseconds from 0 to 60000, not '%s'", v);
    return -1;
  }
  return 0;
}

static void no_effect(hl_options *o, const opt *op) {
  hl_strv_addf(&o->notes, "-%s is accepted and has no effect: %s", op->name, op->note);
}

/* The options that take a value. Returns 0, or -1 with *err. */
static int set_value(hl_options *o, const opt *op, const char *v, char **err) {
  switch (op->id) {
  case O_P: o->build_path = v; break;
  case O_EXTRA_ARG: hl_strv_add(&o->extra_after, v); break;
  case O_EXTRA_ARG_BEFORE: hl_strv_add(&o->extra_before, v); break;
  case O_REMOVE_ARG: hl_strv_add(&o->remove_args, v); break;
  case O_PROFILE: hl_strv_add(&o->profiles, v); break;
  case O_PROFILE_DIR: o->profile_dir = v; break;
  case O_OUTPUT: o->output = v; break;
  case O_SOURCE_ROOT: o->source_root = v; break;
  case O_BASELINE: o->baseline = v; break;
  case O_WRITE_BASELINE: o->write_baseline = v; break;
  case O_CONFIG_FILE: o->config.file = v; break;
  /* clang-tidy: an empty -config= means "look for the files as usual". */
  case O_CONFIG: o->config.text = *v ? v : NULL; break;
  case O_CHECKS: o->config.checks = v; break;
  case O_WARNINGS_AS_ERRORS: o->config.warnings_as_errors = v; break;
  case O_HEADER_FILTER: o->config.header_filter = v; break;
  case O_EXCLUDE_HEADER_FILTER: o->config.exclude_header_filter = v; break;
  case O_LINE_FILTER: o->line_filter = *v ? v : NULL; break;
  case O_DIFF: o->diff = 1, o->diff_ref = v; break;
  case O_EXPORT_FIXES: o->export_fixes = v; break;
  case O_NO_EFFECT: no_effect(o, op); break;
  case O_CACHE_DIR: o->cache_dir = v; break;
  case O_INDEX: o->index = v; break;
  case O_DOCS_URL: o->docs_url = v; break;
  case O_DEBOUNCE: return debounce(o, v, err);
  case O_COLOR:
    if (strcmp(v, "auto") && strcmp(v, "always") && strcmp(v, "never")) {
      *err = hl_xasprintf("--color takes auto, always or never, not '%s'", v);
      return -1;
    }
    o->color = !strcmp(v, "auto") ? -1 : !strcmp(v, "always");
    break;
  case O_CACHE_MAX_SIZE:
    if (size(v, &o->cache_max_size)) {
      *err = hl_xasprintf("--cache-max-size takes a size in bytes (with K, M or G), not '%s'", v);
      return -1;
    }
    break;
  case O_FORMAT:
    if (strcmp(v, "text") && strcmp(v, "json") && strcmp(v, "sarif")) {
      *err = hl_xasprintf("unknown format '%s' (expected text, json or sarif)", v);
      return -1;
    }
    o->format = v;
    break;
  case O_J:
    if (number(v, &o->jobs) || o->jobs == 0) {
      *err = hl_xasprintf("-j takes a number of jobs from 1 to 4096, not '%s'", v);
      return -1;
    }
    break;
  default: return shard(o, v, err);
  }
  return 0;
}

/* The flags, on (1) or off (0). */
static void set_flag(hl_options *o, const opt *op, int on) {
  switch (op->id) {
  case O_DUMP_CONFIG: o->dump_config = on; break;
  case O_LIST_RULES: o->list_rules = on; break;
  case O_LIST_CHECKS: o->list_checks = on; break;
  case O_EXPLAIN_CONFIG: o->explain_config = on; break;
  case O_VERIFY_CONFIG: o->verify_config = on; break;
  case O_SYSTEM_HEADERS: o->config.system_headers = on; break;
  case O_REPORT_UNDECIDED: o->report_undecided = on; break;
  case O_FIX: o->fix = on; break;
  case O_FIX_ERRORS: o->fix = o->fix_errors = on; break;
  /* heaplint's notes carry no fixes of their own: -fix-notes is -fix. */
  case O_FIX_NOTES: o->fix = on; break;
  case O_WERROR: o->werror = on; break;
  case O_LINK_ONLY: o->link_only = on; break;
  case O_QUIET: o->quiet = on; break;
  case O_VERBOSE: o->verbose = on; break;
  case O_USE_COLOR: o->color = on; break;
  case O_ALLOW_NO_CHECKS: o->allow_no_checks = on; break;
  case O_CHECK_INSTANCES: o->check_instances = on; break;
  case O_VERSION: o->version = on; break;
  case O_HELP: o->help = on; break;
  default:
    if (on) no_effect(o, op);
    break;
  }
}

/* LLVM's spellings of a boolean. */
static int parse_bool(const char *v, int *on) {
  if (!strcmp(v, "true") || !strcmp(v, "TRUE") || !strcmp(v, "True") || !strcmp(v, "1")) return *on = 1, 0;
  if (!strcmp(v, "false") || !strcmp(v, "FALSE") || !strcmp(v, "False") || !strcmp(v, "0")) return *on = 0, 0;
  return -1;
}

/* The option spelled name (n bytes) that one of fronts takes. */
static const opt *find_option(const char *name, size_t n, unsigned fronts) {
  for (size_t k = 0; k < sizeof options / sizeof *options; k++)
    if ((options[k].fronts & fronts) && strlen(options[k].name) == n && !strncmp(options[k].name, name, n))
      return &options[k];
  return NULL;
}

/* The edit distance between a and b (insertions, deletions, substitutions
 * and swaps of two neighbours, each 1), capped: options are short. */
static size_t distance(const char *a, size_t na, const char *b, size_t nb) {
  enum { MAX = 64 };
  if (na >= MAX || nb >= MAX) return MAX;
  size_t d[MAX + 1][MAX + 1];
  for (size_t i = 0; i <= na; i++) d[i][0] = i;
  for (size_t j = 0; j <= nb; j++) d[0][j] = j;
  for (size_t i = 1; i <= na; i++)
    for (size_t j = 1; j <= nb; j++) {
      size_t best = d[i - 1][j - 1] + (a[i - 1] != b[j - 1]);
      if (d[i - 1][j] + 1 < best) best = d[i - 1][j] + 1;
      if (d[i][j - 1] + 1 < best) best = d[i][j - 1] + 1;
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] && d[i - 2][j - 2] + 1 < best)
        best = d[i - 2][j - 2] + 1;
      d[i][j] = best;
    }
  return d[na][nb];
}

/* The option of front nearest to name (n bytes), as clang-tidy and ruff
 * suggest one: at most 2 edits away, and fewer than half its length; NULL
 * when none is. */
static const char *nearest_option(const char *name, size_t n, unsigned front) {
  const char *best = NULL;
  size_t best_d = 3;
  for (size_t k = 0; k < sizeof options / sizeof *options; k++) {
    if (!(options[k].fronts & front) || options[k].id == O_NO_EFFECT) continue;
    size_t d = distance(name, n, options[k].name, strlen(options[k].name));
    if (d < best_d && 2 * d < n) {
      best_d = d;
      best = options[k].name;
    }
  }
  return best;
}

/* Not an option front takes, nor a clang-tidy option it honours: say
 * which (the check's options are the language server's unknown ones too,
 * with a word on why). */
static char *not_an_option(const char *a, const char *name, size_t n, unsigned front) {
  for (size_t k = 0; k < sizeof refused / sizeof *refused; k++)
    if (strlen(refused[k].name) == n && !strncmp(refused[k].name, name, n))
      return hl_xasprintf("clang-tidy's option '%.*s' is not supported: %s", (int)(name + n - a), a, refused[k].why);
  if (front == HL_FRONT_LSP && find_option(name, n, HL_FRONT_CHECK))
    return hl_xasprintf("heaplint lsp does not take '%.*s': it is an option of the check (see heaplint --help)",
                        (int)(name + n - a), a);
  const char *near = nearest_option(name, n, front);
  if (near)
    return hl_xasprintf("unknown option '%s'; did you mean '%.*s%s'? (see %s --help)", a, (int)(name - a), a, near,
                        front == HL_FRONT_LSP ? "heaplint lsp" : "heaplint");
  return hl_xasprintf("unknown option '%s' (see %s --help)", a, front == HL_FRONT_LSP ? "heaplint lsp" : "heaplint");
}

/* One option at argv[*i] (which starts with '-'), if front takes it.
 * Returns 0, or -1 with *err. */
static int parse_option(int argc, char **argv, int *i, unsigned front, hl_options *o, char **err) {
  const char *a = argv[*i];
  const char *name = a + (a[1] == '-' ? 2 : 1);
  const char *eq = strchr(name, '=');
  size_t n = eq ? (size_t)(eq - name) : strlen(name);
  const opt *op = find_option(name, n, front);
  const char *v = eq ? eq + 1 : NULL;
  /* -p<dir>, -j<n>, -o<file>, as heaplint always took them. */
  if (!op && a[1] != '-' && strchr("pjo", name[0]) && name[1] && (op = find_option(name, 1, front))) v = name + 1;
  if (!op) {
    *err = not_an_option(a, name, n, front);
    return -1;
  }
  int on = 1;
  switch (op->arity) {
  case FLAG:
    if (v) *err = hl_xasprintf("option '-%s' takes no value", op->name);
    break;
  case BOOL:
    if (v && parse_bool(v, &on)) *err = hl_xasprintf("option '-%s' takes true or false, not '%s'", op->name, v);
    break;
  case OPTIONAL: break;
  default:
    if (!v && *i + 1 < argc) v = argv[++*i];
    if (!v || (op->arity == VALUE && !*v)) *err = hl_xasprintf("option '%.*s' needs a value", (int)(name + n - a), a);
  }
  if (*err) return -1;
  if (op->arity == FLAG || op->arity == BOOL) {
    set_flag(o, op, on);
    return 0;
  }
  return set_value(o, op, v, err);
}

int hl_options_parse(int argc, char **argv, unsigned front, hl_options *o, char **err) {
  memset(o, 0, sizeof *o);
  o->format = "text";
  o->color = -1;
  o->config.system_headers = -1;
  o->debounce_ms = -1;
  *err = NULL;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (front == HL_FRONT_LSP && (a[0] != '-' || !strcmp(a, "-") || !strcmp(a, "--"))) {
      *err = hl_xasprintf("unknown argument '%s' (see heaplint lsp --help)", a);
      return -1;
    }
    if (!strcmp(a, "--")) {
      o->dashdash = 1;
      for (int k = i + 1; k < argc; k++) hl_strv_add(&o->flags, argv[k]);
      break;
    }
    if (a[0] != '-' || !strcmp(a, "-"))
      hl_strv_add(&o->files, a);
    else if (parse_option(argc, argv, &i, front, o, err))
      return -1;
  }
  return 0;
}

int hl_options_one_config(const hl_options *o, char **err) {
  if (!o->config.file || !o->config.text) return 0;
  *err = hl_xstrdup("--config-file and --config are mutually exclusive: give one of them");
  return -1;
}

char *hl_docs_default_url(void) {
  if (*HEAPLINT_DOCS_URL)
    return hl_xasprintf("%s%s", HEAPLINT_DOCS_URL, hl_ends_with(HEAPLINT_DOCS_URL, "/") ? "" : "/");
  char *dir = hl_exe_relative("../share/doc/heaplint", HEAPLINT_INSTALL_DOC_DIR);
  char *esc = hl_uri_escape(dir);
  char *url = hl_xasprintf("file://%s/", esc);
  free(esc);
  free(dir);
  return url;
}

char *hl_rule_page_url(const char *docs_url, const char *id) { return hl_xasprintf("%srules/%s.md", docs_url, id); }

void hl_options_free(hl_options *o) {
  hl_strv_free(&o->files);
  hl_strv_free(&o->flags);
  hl_strv_free(&o->extra_before);
  hl_strv_free(&o->extra_after);
  hl_strv_free(&o->profiles);
  hl_strv_free(&o->remove_args);
  hl_strv_free(&o->notes);
  memset(o, 0, sizeof *o);
}

int hl_options_no_index(const hl_options *o) { return o->index && !strcmp(o->index, "none"); }
