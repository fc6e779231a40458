#include "input/cli.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "util/util.h"

const char hl_cli_usage[] =
    "usage: heaplint [options] <file>... [-- <compiler flags> | -- <compiler> <arguments>]\n"
    "       heaplint [options] -p <build dir> [<file>...]\n"
    "       heaplint merge-sarif [-o <file>] <log.sarif>...\n"
    "       heaplint calibrate [options] -- <compiler> [<flags>...]\n"
    "\n"
    "Finds the heap allocations C++ hides: callables and values that std::function\n"
    "and std::any cannot keep in their inline buffer, on the standard library and\n"
    "target each translation unit is compiled for.\n"
    "\n"
    "input:\n"
    "  -p <dir>                 read <dir>/compile_commands.json; analyze the files\n"
    "                           named, or every C++ entry when none is named\n"
    "  --extra-arg=<arg>        add <arg> after each compile command's arguments\n"
    "  --extra-arg-before=<arg> add <arg> before them\n"
    "  -j <n>                   analyze <n> translation units at a time (default: one\n"
    "                           per processor); the output does not depend on <n>\n"
    "  --shard=<k>/<n>          analyze only the k-th of n disjoint slices of the input\n"
    "  --cache-dir=<dir>        keep each unit's result there and do not parse a unit\n"
    "                           whose inputs did not change (default:\n"
    "                           $HEAPLINT_CACHE_DIR, else the config's cache-dir)\n"
    "  --cache-max-size=<size>  trim the cache to <size> bytes (K, M, G: KiB, MiB, GiB;\n"
    "                           default 1G), least recently used first\n"
    "rules and profiles:\n"
    "  --config-file=<file>     use this configuration instead of the .heaplint.yaml\n"
    "                           found by walking up from each source file\n"
    "  --dump-config            print the configuration that applies and exit\n"
    "  --profile=<file>         lay a library profile (e.g. from 'heaplint calibrate')\n"
    "                           over the shipped one; may be repeated\n"
    "  --profile-dir=<dir>      where the shipped profiles are\n"
    "                           (default: $HEAPLINT_PROFILE_DIR, else share/heaplint/profiles)\n"
    "  --list-rules             print the rules and exit\n"
    "output:\n"
    "  --format=<fmt>           text (clang's diagnostic format; default), json, sarif\n"
    "  --color=<when>           the text report in clang's colours: auto (default: on\n"
    "                           a terminal, unless NO_COLOR is set), always, never\n"
    "  -o <file>                write the report to <file> (atomically) instead of stdout\n"
    "  --source-root=<dir>      paths in json and sarif, and in baselines, are relative\n"
    "                           to <dir> (default: the current directory)\n"
    "  --baseline=<file>        report only findings the baseline does not record\n"
    "  --write-baseline=<file>  record today's findings in <file>\n"
    "  --report-undecided       json and sarif also carry the sites heaplint could not\n"
    "                           decide, as note-level results\n"
    "  --docs-url=<url>         where heaplint's docs/ folder is, for sarif's links to\n"
    "                           each rule's page (<url>rules/<id>.md)\n"
    "fixes:\n"
    "  --fix                    apply the fixes in place (safely: see docs/fixes.md)\n"
    "  --export-fixes=<file>    write the fixes as clang-apply-replacements YAML\n"
    "  --werror                 exit with 1 when there are warnings\n"
    "  -q, --quiet              no summary line on stderr\n"
    "  -v, --verbose            list the sites heaplint could not decide, and why\n"
    "  --version                print the version and exit\n"
    "  -h, --help               print this help and exit\n"
    "\n"
    "exit status:\n"
    "  0  analysis ran (warnings alone do not fail it)\n"
    "  1  there were errors (a rule set to error, warnings-as-errors, an unmatched\n"
    "     NOLINTBEGIN), or warnings and --werror was given\n"
    "  2  usage or input error: bad option, missing file, an input that is not a\n"
    "     regular file or is over 256 MiB, unusable compile database, profile,\n"
    "     configuration or baseline, unwritable output, an output that is an input\n"
    "  3  a translation unit could not be parsed (the others are still analyzed)\n"
    "  4  --fix left some fixes unapplied (a file changed since it was analyzed, is\n"
    "     read-only, or two fixes conflict); the others were applied\n";

/* --name=value or --name value; -p value or -pvalue. */
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

/* Sets the option name (one that takes a value) to v. Returns 0, or -1
 * with *err. */
static int set_value(hl_options *o, const char *name, const char *v, char **err) {
  if (!strcmp(name, "-p")) o->build_path = v;
  else if (!strcmp(name, "--extra-arg")) hl_strv_add(&o->extra_after, v);
  else if (!strcmp(name, "--extra-arg-before")) hl_strv_add(&o->extra_before, v);
  else if (!strcmp(name, "--profile")) hl_strv_add(&o->profiles, v);
  else if (!strcmp(name, "--profile-dir")) o->profile_dir = v;
  else if (!strcmp(name, "-o")) o->output = v;
  else if (!strcmp(name, "--source-root")) o->source_root = v;
  else if (!strcmp(name, "--baseline")) o->baseline = v;
  else if (!strcmp(name, "--write-baseline")) o->write_baseline = v;
  else if (!strcmp(name, "--config-file")) o->config_file = v;
  else if (!strcmp(name, "--export-fixes")) o->export_fixes = v;
  else if (!strcmp(name, "--cache-dir")) o->cache_dir = v;
  else if (!strcmp(name, "--docs-url")) o->docs_url = v;
  else if (!strcmp(name, "--color")) {
    if (strcmp(v, "auto") && strcmp(v, "always") && strcmp(v, "never")) {
      *err = hl_xasprintf("--color takes auto, always or never, not '%s'", v);
      return -1;
    }
    o->color = !strcmp(v, "auto") ? -1 : !strcmp(v, "always");
  }
  else if (!strcmp(name, "--cache-max-size")) {
    if (size(v, &o->cache_max_size)) {
      *err = hl_xasprintf("--cache-max-size takes a size in bytes (with K, M or G), not '%s'", v);
      return -1;
    }
  }
  else if (!strcmp(name, "--format")) {
    if (strcmp(v, "text") && strcmp(v, "json") && strcmp(v, "sarif")) {
      *err = hl_xasprintf("unknown format '%s' (expected text, json or sarif)", v);
      return -1;
    }
    o->format = v;
  } else if (!strcmp(name, "-j")) {
    if (number(v, &o->jobs) || o->jobs == 0) {
      *err = hl_xasprintf("-j takes a number of jobs from 1 to 4096, not '%s'", v);
      return -1;
    }
  } else {
    const char *slash = strchr(v, '/');
    char *k_part = slash ? hl_xstrndup(v, (size_t)(slash - v)) : NULL;
    int bad = !slash || number(k_part, &o->shard_k) || number(slash + 1, &o->shard_n) || o->shard_n == 0 ||
              o->shard_k == 0 || o->shard_k > o->shard_n;
    free(k_part);
    if (bad) {
      *err = hl_xasprintf("--shard takes <k>/<n> with 1 <= k <= n, not '%s'", v);
      return -1;
    }
  }
  return 0;
}

int hl_cli_parse(int argc, char **argv, hl_options *o, char **err) {
  memset(o, 0, sizeof *o);
  o->format = "text";
  o->color = -1;
  static const char *const with_value[] = {"-p",        "--extra-arg",   "--extra-arg-before", "--profile",
                                           "--profile-dir", "--format",  "-o",                 "--source-root",
                                           "--baseline", "--write-baseline", "--config-file",  "-j",
                                           "--shard", "--export-fixes", "--cache-dir", "--cache-max-size", "--docs-url", "--color"};
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (!strcmp(a, "--")) {
      o->dashdash = 1;
      for (int k = i + 1; k < argc; k++) hl_strv_add(&o->flags, argv[k]);
      break;
    }
    if (a[0] != '-' || !strcmp(a, "-")) {
      hl_strv_add(&o->files, a);
      continue;
    }
    if (!strcmp(a, "--werror")) o->werror = 1;
    else if (!strcmp(a, "-v") || !strcmp(a, "--verbose")) o->verbose = 1;
    else if (!strcmp(a, "-q") || !strcmp(a, "--quiet")) o->quiet = 1;
    else if (!strcmp(a, "--list-rules")) o->list_rules = 1;
    else if (!strcmp(a, "--dump-config")) o->dump_config = 1;
    else if (!strcmp(a, "--fix")) o->fix = 1;
    else if (!strcmp(a, "--report-undecided")) o->report_undecided = 1;
    else if (!strcmp(a, "--version")) o->version = 1;
    else if (!strcmp(a, "-h") || !strcmp(a, "--help")) o->help = 1;
    else {
      int matched = 0;
      size_t k;
      const char *v = NULL;
      for (k = 0; k < sizeof with_value / sizeof *with_value; k++) {
        /* --extra-arg must not swallow --extra-arg-before, nor --profile --profile-dir. */
        if (!strcmp(with_value[k], "--extra-arg") && !strncmp(a, "--extra-arg-before", 18)) continue;
        if (!strcmp(with_value[k], "--profile") && !strncmp(a, "--profile-dir", 13)) continue;
        v = hl_option_value(argc, argv, &i, with_value[k], &matched);
        if (matched) break;
      }
      if (!matched) {
        *err = hl_xasprintf("unknown option '%s' (see heaplint --help)", a);
        return -1;
      }
      if (!v || !*v) {
        *err = hl_xasprintf("option '%s' needs a value", with_value[k]);
        return -1;
      }
      if (set_value(o, with_value[k], v, err)) return -1;
    }
  }
  if (!o->cache_dir && getenv("HEAPLINT_CACHE_DIR") && *getenv("HEAPLINT_CACHE_DIR")) o->cache_dir = getenv("HEAPLINT_CACHE_DIR");
  if (o->help || o->version || o->list_rules || (o->dump_config && !o->build_path && o->files.n == 0)) return 0;
  if (!o->build_path && o->files.n == 0) {
    *err = hl_xstrdup("no input: name source files (with their flags after '--'), or a build directory with -p");
    return -1;
  }
  return 0;
}

void hl_cli_free(hl_options *o) {
  hl_strv_free(&o->files);
  hl_strv_free(&o->flags);
  hl_strv_free(&o->extra_before);
  hl_strv_free(&o->extra_after);
  hl_strv_free(&o->profiles);
  memset(o, 0, sizeof *o);
}

typedef struct named {
  const char *path, *what;
} named;

int hl_cli_check_outputs(const hl_options *o, const hl_jobs *jobs, const hl_configs *configs,
                         const hl_profile_set *profiles, char **err) {
  const named outputs[] = {{o->output, "the report (-o)"},
                           {o->write_baseline, "the baseline (--write-baseline)"},
                           {o->export_fixes, "the fixes (--export-fixes)"}};
  size_t nout = sizeof outputs / sizeof *outputs;
  named *in = NULL;
  size_t nin = 0, cap = 0;
  for (size_t i = 0; i < jobs->n; i++) HL_PUSH(in, nin, cap, ((named){jobs->v[i].file, "a source file"}));
  char *db = NULL;
  if (o->build_path) {
    struct stat st;
    db = stat(o->build_path, &st) == 0 && S_ISDIR(st.st_mode) ? hl_xasprintf("%s/compile_commands.json", o->build_path)
                                                               : hl_xstrdup(o->build_path);
    HL_PUSH(in, nin, cap, ((named){db, "the compile database"}));
  }
  if (o->baseline) HL_PUSH(in, nin, cap, ((named){o->baseline, "the baseline it reads"}));
  hl_strv loaded = {0}, named_profiles = {0};
  hl_configs_files(configs, &loaded, &named_profiles);
  for (size_t i = 0; i < loaded.n; i++) HL_PUSH(in, nin, cap, ((named){loaded.v[i], "a configuration file"}));
  for (size_t i = 0; i < named_profiles.n; i++) HL_PUSH(in, nin, cap, ((named){named_profiles.v[i], "a profile"}));
  for (size_t i = 0; i < profiles->nbase; i++) HL_PUSH(in, nin, cap, ((named){profiles->base[i]->path, "a profile"}));
  for (size_t i = 0; i < profiles->nextra; i++) HL_PUSH(in, nin, cap, ((named){profiles->extra[i]->path, "a profile"}));

  int rc = 0;
  for (size_t k = 0; k < nout && !rc; k++) {
    if (!outputs[k].path) continue;
    for (size_t i = 0; i < nin && !rc; i++)
      if (hl_same_file(outputs[k].path, in[i].path)) {
        *err = hl_xasprintf("%s: refusing to write %s there: it is an input of this run (%s)", outputs[k].path, outputs[k].what,
                            in[i].what);
        rc = -1;
      }
    struct stat st;
    int special = stat(outputs[k].path, &st) == 0 && !S_ISREG(st.st_mode);
    for (size_t m = 0; m < k && !rc && !special; m++)
      if (outputs[m].path && hl_same_file(outputs[k].path, outputs[m].path)) {
        *err = hl_xasprintf("%s: refusing to write %s there: %s goes there too", outputs[k].path, outputs[k].what,
                            outputs[m].what);
        rc = -1;
      }
  }
  hl_strv_free(&loaded);
  hl_strv_free(&named_profiles);
  free(db);
  free(in);
  return rc;
}
