#include "input/cli.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/util.h"

const char hl_cli_usage[] =
    "usage: heaplint [options] <file>... [-- <compiler flags> | -- <compiler> <arguments>]\n"
    "       heaplint [options] -p <build dir> [<file>...]\n"
    "       heaplint merge-sarif [-o <file>] <log.sarif>...\n"
    "       heaplint calibrate [options] -- <compiler> [<flags>...]\n"
    "       heaplint lsp [options]            (the language server; heaplint lsp --help)\n"
    "\n"
    "Finds the heap allocations C++ hides: callables and values that std::function\n"
    "and std::any cannot keep in their inline buffer, on the standard library and\n"
    "target each translation unit is compiled for.\n"
    "\n"
    "Options take one dash or two (-checks=... or --checks=...), as clang-tidy's\n"
    "do; docs/cli.md maps each of clang-tidy's options to heaplint's.\n"
    "\n"
    "input:\n"
    "  -p <dir>                 read <dir>/compile_commands.json; analyze the files\n"
    "                           named, or every C++ entry when none is named\n"
    "  --extra-arg=<arg>        add <arg> after each compile command's arguments\n"
    "  --extra-arg-before=<arg> add <arg> before them\n"
    "  --remove-arg=<glob>      drop the compiler arguments that match (* is a wildcard);\n"
    "                           arguments clang does not know are dropped anyway\n"
    "  -j <n>                   analyze <n> translation units at a time (default: one\n"
    "                           per processor); the output does not depend on <n>\n"
    "  --shard=<k>/<n>          analyze only the k-th of n disjoint slices of the input\n"
    "  --cache-dir=<dir>        keep each unit's result there and do not parse a unit\n"
    "                           whose inputs did not change (default:\n"
    "                           $HEAPLINT_CACHE_DIR, else the config's cache-dir)\n"
    "  --cache-max-size=<size>  trim the cache to <size> bytes (K, M, G: KiB, MiB, GiB;\n"
    "                           default 1G), least recently used first\n"
    "  --index=<file>           the project index (SQLite): every unit's summary, kept\n"
    "                           and updated per unit (default: <cache-dir>/index.sqlite\n"
    "                           with a result cache, else in memory for the run);\n"
    "                           none: no index, each unit judged alone\n"
    "  --link-only              analyze nothing: judge what crosses units over the\n"
    "                           --index (after 'heaplint merge-index' of the shards')\n"
    "  --diff[=<ref>]           only findings on lines 'git diff -U0 <ref>' shows changed\n"
    "                           (default HEAD: what is not committed), in the changed files\n"
    "rules and configuration:\n"
    "  --checks=<globs>         enable (glob) or disable (-glob) rules, after the\n"
    "                           configuration's: --checks=-*,function-sbo\n"
    "  --config-file=<file>     use this configuration instead of the .heaplint.yaml\n"
    "                           found by walking up from each source file\n"
    "  --config=<yaml>          an inline configuration (YAML or JSON), instead of any file\n"
    "  --warnings-as-errors=<globs>  the rules whose warnings are errors\n"
    "  --header-filter=<re>     report in headers only those whose path matches\n"
    "  --exclude-header-filter=<re>  never report in headers whose path matches\n"
    "  --line-filter=<json>     only these lines: [{\"name\":\"a.cc\",\"lines\":[[1,3]]}]\n"
    "  --system-headers         report in system headers too\n"
    "  --dump-config            print the configuration that applies and exit\n"
    "  --list-checks            print the enabled rules and exit\n"
    "  --explain-config         say where each enabled rule is enabled, and exit\n"
    "  --verify-config          check the configuration's rule names, and exit\n"
    "  --allow-no-checks        run (and succeed) when no rule is enabled\n"
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
    "  --use-color[=false]      colours on, or off (clang-tidy's spelling of --color)\n"
    "  --docs-url=<url>         where heaplint's docs/ folder is, for sarif's links to\n"
    "                           each rule's page (<url>rules/<id>.md)\n"
    "fixes:\n"
    "  --fix                    apply the fixes in place (safely: see docs/fixes.md),\n"
    "                           except in translation units with compile errors\n"
    "  --fix-errors             apply them there too\n"
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
    "  3  a translation unit has compile errors or could not be parsed (what parsed\n"
    "     is still analyzed, and the other units)\n"
    "  4  --fix left some fixes unapplied (a file changed since it was analyzed, is\n"
    "     read-only, or two fixes conflict); the others were applied\n";

/* What a run needs: an input, unless it only lists or explains. */
static int check_input(const hl_options *o, char **err) {
  if (o->help || o->version || o->list_rules || o->list_checks || o->explain_config || o->verify_config ||
      (o->dump_config && !o->build_path && o->files.n == 0))
    return 0;
  if (hl_options_one_config(o, err)) return -1;
  if (o->link_only && hl_options_no_index(o)) {
    *err = hl_xstrdup("--link-only judges what crosses units over the project index: --index=none leaves none");
    return -1;
  }
  if (!o->build_path && o->files.n == 0 && !o->diff) {
    *err = hl_xstrdup("no input: name source files (with their flags after '--'), or a build directory with -p");
    return -1;
  }
  return 0;
}

int hl_cli_parse(int argc, char **argv, hl_options *o, char **err) {
  if (hl_options_parse(argc, argv, HL_FRONT_CHECK, o, err)) return -1;
  const char *env = getenv("HEAPLINT_CACHE_DIR");
  if (!o->cache_dir && env && *env) o->cache_dir = env;
  return check_input(o, err);
}

typedef struct named {
  const char *path, *what;
} named;

#define OUTPUTS(o)                                           \
  {{(o)->output, "the report (-o)"},                         \
   {(o)->write_baseline, "the baseline (--write-baseline)"}, \
   {(o)->export_fixes, "the fixes (--export-fixes)"}}

/* Whether the run can write path, asked before the analysis so that a
 * typo costs nothing: an existing regular file or a new one is written
 * through a temporary file beside it, so its directory must take one; a
 * special file (a FIFO, /dev/stdout) is opened when written. 0, or why
 * not (an errno). */
static int writable(const char *path) {
  struct stat st;
  if (stat(path, &st) == 0) {
    if (S_ISDIR(st.st_mode)) return EISDIR;
    if (!S_ISREG(st.st_mode)) return 0;
  } else if (errno != ENOENT) {
    return errno;
  }
  char real[PATH_MAX];
  char *target = hl_xstrdup(realpath(path, real) ? real : path), *slash = strrchr(target, '/');
  char *dir = slash ? hl_xstrndup(target, (size_t)(slash - target) + (slash == target)) : hl_xstrdup(".");
  int e = stat(dir, &st) != 0 ? errno : !S_ISDIR(st.st_mode) ? ENOTDIR : access(dir, W_OK | X_OK) != 0 ? errno : 0;
  free(dir);
  free(target);
  return e;
}

int hl_cli_check_outputs(const hl_options *o, const hl_jobs *jobs, const hl_configs *configs,
                         const hl_profile_set *profiles, char **err) {
  const named outputs[] = OUTPUTS(o);
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
    int e = writable(outputs[k].path);
    if (e) {
      *err = hl_xasprintf("%s: cannot write: %s", outputs[k].path, e == EISDIR ? "is a directory" : strerror(e));
      rc = -1;
      break;
    }
    for (size_t i = 0; i < nin && !rc; i++)
      if (hl_same_file(outputs[k].path, in[i].path)) {
        *err = hl_xasprintf("%s: refusing to write %s there: it is an input of this run (%s)", outputs[k].path,
                            outputs[k].what, in[i].what);
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

int hl_cli_check_outputs_read(const hl_options *o, char *const *read, char *const *units, size_t n, char **err) {
  const named outputs[] = OUTPUTS(o);
  enum { NOUT = sizeof outputs / sizeof *outputs };
  struct stat out[NOUT], st;
  int any = 0, exists[NOUT];
  for (size_t k = 0; k < NOUT; k++) any |= exists[k] = outputs[k].path && stat(outputs[k].path, &out[k]) == 0;
  if (!any) return 0; /* a file that does not exist was not read */
  hl_strcount seen = {0};
  int rc = 0;
  for (size_t i = 0; i < n && !rc; i++) {
    if ((*hl_strcount_at(&seen, read[i]))++ || stat(read[i], &st) != 0) continue;
    for (size_t k = 0; k < NOUT && !rc; k++)
      if (exists[k] && st.st_dev == out[k].st_dev && st.st_ino == out[k].st_ino) {
        *err = hl_xasprintf("%s: refusing to write %s there: it is an input of this run (a file %s reads)",
                            outputs[k].path, outputs[k].what, hl_display_path(units[i]));
        rc = -1;
      }
  }
  hl_strcount_free(&seen);
  return rc;
}
