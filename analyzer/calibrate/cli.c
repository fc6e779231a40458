#include "calibrate/cli.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/util.h"

const char hl_cal_usage[] =
    "usage: heaplint calibrate [options] -- <compiler> [<flags>...]\n"
    "\n"
    "Measures the inline-buffer rules of the standard library that <compiler>\n"
    "with <flags> uses (std::function, std::move_only_function, std::any and\n"
    "std::string), or of the callable wrappers named with --wrapper, by compiling\n"
    "and running probes against a counting global operator new, and writes them\n"
    "as a heaplint profile (use it with heaplint --profile=<file>).\n"
    "\n"
    "options:\n"
    "  -o <file>            write the profile to <file>, replaced only when the\n"
    "                       calibration succeeds (default: stdout)\n"
    "  --report             also print a table of the measurements and timings (on\n"
    "                       stdout with -o or --compare, else on stderr)\n"
    "  --wrapper=<type>     measure this callable wrapper instead of the standard\n"
    "                       library: a class template with its arguments, e.g.\n"
    "                       'my::Callback<void()>'; may be repeated\n"
    "  --header=<file>      a header the wrappers need; may be repeated\n"
    "  --replacement=<type> what heaplint --fix retypes the wrappers to (for a\n"
    "                       move-only wrapper: hl::inplace_move_function; 'none':\n"
    "                       no fix); default hl::inplace_function\n"
    "  -I <dir>             add <dir> to the probes' include path\n"
    "  --compare=<profile>  compare the result with <profile> field by field (the\n"
    "                       profile itself is then written only with -o)\n"
    "  --emulator=<cmd>     run the probe programs through <cmd> (split at spaces),\n"
    "                       for a target this machine cannot run: e.g.\n"
    "                       --emulator=qemu-i386 with -- g++ -m32\n"
    "  --keep               keep the probe programs (their directory is printed)\n"
    "  -h, --help           print this help and exit\n"
    "\n"
    "exit status:\n"
    "  0  the profile was written (or --compare found no difference)\n"
    "  1  --compare found differences\n"
    "  2  usage or input error: bad option, a compiler or emulator that cannot be run, an\n"
    "     unwritable -o file, an unreadable --compare profile\n"
    "  5  the probes could not be built or run: they did not compile, crashed or\n"
    "     timed out\n"
    "  6  no profile rule fits what was measured\n";

/* The standard library's wrappers: what the probes construct, and what the
 * profile says besides the measured numbers. */
static const struct std_wrapper {
  const char *name, *rule;
  hl_cal_prog_wrapper probe;
  const char *factory, *emplace;
  const char *replacement; /* what function-sbo's fix retypes it to, when not its default */
} std_wrappers[] = {
    {"std::function", "function-sbo", {"std::function<void()>", "void()", NULL, 0}, NULL, NULL, NULL},
    {"std::move_only_function",
     "function-sbo",
     {"std::move_only_function<void()>", "void()", "__cpp_lib_move_only_function", 1},
     NULL,
     NULL,
     "hl::inplace_move_function"},
    {"std::any", "any-sbo", {"std::any", NULL, NULL, 0}, "std::make_any", "emplace", NULL},
};
#define NSTD (sizeof std_wrappers / sizeof *std_wrappers)

/* --emulator's command, split at spaces and tabs (as CMake's
 * CMAKE_CROSSCOMPILING_EMULATOR is a list); given again, it is replaced. */
static void emulator_words(hl_strv *s, const char *cmd) {
  hl_strv_free(s);
  for (const char *p = cmd; *p;) {
    while (*p == ' ' || *p == '\t') p++;
    const char *q = p;
    while (*q && *q != ' ' && *q != '\t') q++;
    if (q > p) {
      char *word = hl_xstrndup(p, (size_t)(q - p));
      hl_strv_add(s, word);
      free(word);
    }
    p = q;
  }
}

/* --name=value or --name value (and -Ivalue, -I value). */
/* Returns 0, 1 for --help, or -1 with *err. */
int hl_cal_parse_options(hl_cal *c, int argc, char **argv, char **err) {
  static const char *const with_value[] = {"-o",        "--wrapper",     "--header",  "-I",
                                           "--compare", "--replacement", "--emulator"};
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (!strcmp(a, "--")) {
      for (int k = i + 1; k < argc; k++) hl_strv_add(&c->command, argv[k]);
      break;
    }
    if (!strcmp(a, "-h") || !strcmp(a, "--help")) return 1;
    if (!strcmp(a, "--report")) {
      c->report = 1;
      continue;
    }
    if (!strcmp(a, "--keep")) {
      c->keep = 1;
      continue;
    }
    int matched = 0;
    size_t k;
    const char *v = NULL;
    for (k = 0; k < sizeof with_value / sizeof *with_value && !matched; k++)
      v = hl_option_value(argc, argv, &i, with_value[k], &matched);
    if (!matched) {
      *err = hl_xasprintf("calibrate: unknown option '%s' (see heaplint calibrate --help)", a);
      return -1;
    }
    if (!v || !*v) {
      *err = hl_xasprintf("calibrate: option '%s' needs a value", with_value[k - 1]);
      return -1;
    }
    switch (k - 1) {
    case 0: c->output = v; break;
    case 1: hl_strv_add(&c->wrapper_args, v); break;
    case 2: hl_strv_add(&c->headers, v); break;
    case 3: hl_strv_add(&c->include_dirs, v); break;
    case 4: c->compare = v; break;
    case 5: c->replacement = v; break;
    default: emulator_words(&c->emulator, v); break;
    }
  }
  if (c->command.n == 0) {
    *err = hl_xstrdup("calibrate: no compiler: give it after '--', e.g. heaplint calibrate -- g++ -std=c++17");
    return -1;
  }
  if ((c->headers.n || c->replacement) && !c->wrapper_args.n) {
    *err = hl_xasprintf("calibrate: %s is for the wrappers named with --wrapper",
                        c->headers.n ? "--header" : "--replacement");
    return -1;
  }
  return 0;
}

static char *trimmed(const char *s, size_t n) {
  while (n && (*s == ' ' || *s == '\t')) s++, n--;
  while (n && (s[n - 1] == ' ' || s[n - 1] == '\t')) n--;
  return hl_xstrndup(s, n);
}

/* 'ns::Name<Sig, N>': the template's qualified name, and the first template
 * argument that is a call signature (the probes' call operator matches it). */
static int parse_wrapper(const char *spelling, char **name, char **signature, char **err) {
  const char *lt = strchr(spelling, '<');
  char *all = trimmed(spelling, strlen(spelling));
  size_t len = strlen(all);
  *name = *signature = NULL;
  if (!lt || len == 0 || all[len - 1] != '>') {
    *err = hl_xasprintf(
        "calibrate: --wrapper '%s': expected a class template with its arguments, e.g. "
        "'my::Callback<void()>'",
        spelling);
    free(all);
    return -1;
  }
  char *n = trimmed(spelling, (size_t)(lt - spelling));
  const char *bare = hl_starts_with(n, "::") ? n + 2 : n;
  int ok = *bare != '\0';
  for (const char *p = bare; *p && ok; p++)
    ok = (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') || *p == '_' || *p == ':';
  if (!ok) {
    *err = hl_xasprintf("calibrate: --wrapper '%s': '%s' is not a qualified class template name", spelling, n);
    free(n);
    free(all);
    return -1;
  }
  *name = hl_xstrdup(bare);
  free(n);
  /* The template arguments, split at commas outside brackets. */
  const char *args = strchr(all, '<') + 1, *end = all + len - 1;
  int depth = 0;
  const char *start = args;
  for (const char *p = args; p <= end && !*signature; p++) {
    if (p < end && strchr("<([{", *p))
      depth++;
    else if (p < end && strchr(">)]}", *p))
      depth--;
    else if (p == end || (*p == ',' && depth == 0)) {
      char *arg = trimmed(start, (size_t)(p - start));
      if (strchr(arg, '('))
        *signature = arg;
      else
        free(arg);
      start = p + 1;
    }
  }
  free(all);
  if (!*signature) {
    *err = hl_xasprintf(
        "calibrate: --wrapper '%s': none of its template arguments is a call signature such as "
        "void() or int(long)",
        spelling);
    free(*name);
    *name = NULL;
    return -1;
  }
  return 0;
}

/* ---- what is measured ---- */

int hl_cal_choose_targets(hl_cal *c, char **err) {
  if (!c->wrapper_args.n) {
    c->n = NSTD;
    c->pw = hl_xcalloc(NSTD, sizeof *c->pw);
    c->targets = hl_xcalloc(NSTD, sizeof *c->targets);
    for (size_t i = 0; i < NSTD; i++) {
      c->pw[i] = std_wrappers[i].probe;
      c->targets[i] = (hl_cal_target){hl_xstrdup(std_wrappers[i].name),
                                      std_wrappers[i].rule,
                                      std_wrappers[i].factory,
                                      std_wrappers[i].emplace,
                                      std_wrappers[i].replacement,
                                      0,
                                      {0}};
    }
    c->plan.includes = hl_xcalloc(2, sizeof *c->plan.includes);
    c->plan.includes[c->plan.nincludes++] = hl_xstrdup("<functional>");
    c->plan.includes[c->plan.nincludes++] = hl_xstrdup("<any>");
    c->plan.string_sso = 1;
  } else {
    c->custom = 1;
    c->n = c->wrapper_args.n;
    c->pw = hl_xcalloc(c->n, sizeof *c->pw);
    c->targets = hl_xcalloc(c->n, sizeof *c->targets);
    for (size_t i = 0; i < c->n; i++) {
      char *name, *sig;
      if (parse_wrapper(c->wrapper_args.v[i], &name, &sig, err)) return -1;
      c->pw[i] = (hl_cal_prog_wrapper){c->wrapper_args.v[i], sig, NULL, 0};
      c->targets[i] = (hl_cal_target){name, "function-sbo", NULL, NULL, c->replacement, 0, {0}};
    }
    c->plan.includes = hl_xcalloc(c->headers.n ? c->headers.n : 1, sizeof *c->plan.includes);
    for (size_t i = 0; i < c->headers.n; i++) {
      const char *h = c->headers.v[i];
      /* A header that exists from here is included by its absolute path;
       * any other is looked up on the include path (-I). */
      char *inc;
      if (access(h, R_OK) == 0) {
        char *abs = hl_abspath(h);
        inc = hl_xasprintf("\"%s\"", abs);
        free(abs);
      } else {
        inc = hl_xasprintf("<%s>", h);
      }
      c->plan.includes[c->plan.nincludes++] = inc;
    }
  }
  c->plan.w = c->pw;
  c->plan.nw = c->n;
  return 0;
}
