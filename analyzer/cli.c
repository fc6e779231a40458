#include "cli.h"

#include <stdlib.h>
#include <string.h>

#include "util.h"

const char hl_cli_usage[] =
    "usage: heaplint [options] <file>... [-- <compiler flags>]\n"
    "       heaplint [options] -p <build dir> [<file>...]\n"
    "\n"
    "Finds the heap allocations C++ hides: callables and values that std::function\n"
    "and std::any cannot keep in their inline buffer, on the standard library and\n"
    "target each translation unit is compiled for.\n"
    "\n"
    "options:\n"
    "  -p <dir>                 read <dir>/compile_commands.json; analyze the files\n"
    "                           named, or every C++ entry when none is named\n"
    "  --extra-arg=<arg>        add <arg> after each compile command's arguments\n"
    "  --extra-arg-before=<arg> add <arg> before them\n"
    "  --profile=<file>         lay a library profile (e.g. from 'heaplint calibrate')\n"
    "                           over the shipped one; may be repeated\n"
    "  --profile-dir=<dir>      where the shipped profiles are\n"
    "                           (default: $HEAPLINT_PROFILE_DIR, else share/heaplint/profiles)\n"
    "  --werror                 exit with 1 when there are warnings\n"
    "  --list-rules             print the rules and exit\n"
    "  -v, --verbose            explain sites heaplint could not decide\n"
    "  --version                print the version and exit\n"
    "  -h, --help               print this help and exit\n"
    "\n"
    "exit status:\n"
    "  0  analysis ran (warnings alone do not fail it)\n"
    "  1  there were warnings and --werror was given\n"
    "  2  usage or input error: bad option, missing file, unusable compile database\n"
    "     or profile\n"
    "  3  a translation unit could not be parsed (the others are still analyzed)\n";

static void add(hl_strs *s, const char *v) { HL_PUSH(s->v, s->n, s->cap, (char *)v); }

/* --name=value or --name value; -p value or -pvalue. */
static const char *value_of(int argc, char **argv, int *i, const char *name, int *matched) {
  const char *a = argv[*i];
  size_t n = strlen(name);
  *matched = 0;
  if (strncmp(a, name, n)) return NULL;
  if (a[n] == '=') {
    *matched = 1;
    return a + n + 1;
  }
  if (a[n] == '\0') {
    *matched = 1;
    if (*i + 1 < argc) return argv[++*i];
    return NULL;
  }
  if (name[1] != '-' && strlen(name) == 2) { /* -pDIR */
    *matched = 1;
    return a + n;
  }
  return NULL;
}

int hl_cli_parse(int argc, char **argv, hl_options *o, char **err) {
  memset(o, 0, sizeof *o);
  static const char *const with_value[] = {"-p", "--extra-arg", "--extra-arg-before", "--profile", "--profile-dir"};
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (!strcmp(a, "--")) {
      o->dashdash = 1;
      for (int k = i + 1; k < argc; k++) add(&o->flags, argv[k]);
      break;
    }
    if (a[0] != '-' || !strcmp(a, "-")) {
      add(&o->files, a);
      continue;
    }
    if (!strcmp(a, "--werror")) o->werror = 1;
    else if (!strcmp(a, "-v") || !strcmp(a, "--verbose")) o->verbose = 1;
    else if (!strcmp(a, "--list-rules")) o->list_rules = 1;
    else if (!strcmp(a, "--version")) o->version = 1;
    else if (!strcmp(a, "-h") || !strcmp(a, "--help")) o->help = 1;
    else {
      int matched = 0;
      size_t k;
      const char *v = NULL;
      for (k = 0; k < sizeof with_value / sizeof *with_value; k++) {
        /* --extra-arg must not swallow --extra-arg-before. */
        int prefix_of_longer = !strcmp(with_value[k], "--extra-arg") && !strncmp(a, "--extra-arg-before", 18);
        if (prefix_of_longer) continue;
        v = value_of(argc, argv, &i, with_value[k], &matched);
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
      switch (k) {
      case 0: o->build_path = v; break;
      case 1: add(&o->extra_after, v); break;
      case 2: add(&o->extra_before, v); break;
      case 3: add(&o->profiles, v); break;
      default: o->profile_dir = v; break;
      }
    }
  }
  if (o->help || o->version || o->list_rules) return 0;
  if (o->build_path && o->dashdash) {
    *err = hl_xstrdup("-p and '--' cannot be combined: flags come from the compile database (add some with --extra-arg)");
    return -1;
  }
  if (!o->build_path && o->files.n == 0) {
    *err = hl_xstrdup("no input: name source files (with their flags after '--'), or a build directory with -p");
    return -1;
  }
  return 0;
}

void hl_cli_free(hl_options *o) {
  free(o->files.v);
  free(o->flags.v);
  free(o->extra_before.v);
  free(o->extra_after.v);
  free(o->profiles.v);
  memset(o, 0, sizeof *o);
}
