#include "calibrate/calibrate.h"

#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "calibrate/fit.h"
#include "calibrate/probes.h"
#include "calibrate/proc.h"
#include "input/profile.h"
#include "calibrate/profile_write.h"
#include "util/util.h"

/* 3 and 4 are the analyzer's (a file not parsed, fixes not applied): every
 * status means one thing across heaplint. */
enum { CAL_OK = 0, CAL_DIFFERS = 1, CAL_INPUT = 2, CAL_PROBES = 5, CAL_NO_FIT = 6 };

/* A probe program runs in well under a second: a minute means it hangs. */
#define RUN_TIMEOUT 60
/* Lines of a compiler's or a probe program's output shown with an error. */
#define SHOWN_LINES 20
/* Programs: 0 with the user's flags, 1 also with -std=c++23. */
#define NPROGRAMS 2

static const char usage[] =
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

/* The standard libraries probe.hpp tells apart, as profiles name them. */
static const struct library {
  const char *probe_name; /* what probe.hpp prints */
  const char *name;
  const char *description;
  const char *detect;
} libraries[] = {
    {"libstdc++", "libstdc++", "GNU libstdc++ (GCC)", "bits/c++config.h"},
    {"libc++", "libc++", "LLVM libc++", "__config_site"},
    {"msvc", "MSVC STL", "Microsoft STL", "yvals_core.h"},
};

/* The standard library's wrappers: what the probes construct, and what the
 * profile says besides the measured numbers. */
static const struct std_wrapper {
  const char *name, *rule;
  hl_probe_wrapper probe;
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

static const char *const program_std[NPROGRAMS] = {NULL, "-std=c++23"};

typedef struct strv {
  char **v;
  size_t n, cap;
} strv;

static void strv_add(strv *s, const char *x) { HL_PUSH(s->v, s->n, s->cap, hl_xstrdup(x)); }

/* --emulator's command, split at spaces and tabs (as CMake's
 * CMAKE_CROSSCOMPILING_EMULATOR is a list); given again, it is replaced. */
static void emulator_words(strv *s, const char *cmd) {
  for (size_t i = 0; i < s->n; i++) free(s->v[i]);
  s->n = 0;
  for (const char *p = cmd; *p;) {
    while (*p == ' ' || *p == '\t') p++;
    const char *q = p;
    while (*q && *q != ' ' && *q != '\t') q++;
    if (q > p) HL_PUSH(s->v, s->n, s->cap, hl_xstrndup(p, (size_t)(q - p)));
    p = q;
  }
}

/* s->v as an argv: NULL-terminated (the NULL is not counted). */
static char **strv_argv(strv *s) {
  HL_PUSH(s->v, s->n, s->cap, NULL);
  s->n--;
  return s->v;
}

static void strv_free(strv *s) {
  for (size_t i = 0; i < s->n; i++) free(s->v[i]);
  free(s->v);
  memset(s, 0, sizeof *s);
}

/* One wrapper being measured. */
typedef struct target {
  char *name;        /* the profile's name: "std::function", "my::Callback" */
  const char *rule;
  const char *factory, *emplace;
  const char *replacement;
  int fitted;
  hl_rule_fit fit;
} target;

typedef struct cal {
  const char *output, *compare, *replacement;
  int report, keep;
  strv wrapper_args, headers, include_dirs, command, emulator;

  hl_probe_wrapper *pw; /* the plan's wrappers, parallel to targets */
  target *targets;
  size_t n;
  hl_probe_plan plan;
  int custom;

  char *dir;            /* the probes' work directory */
  unsigned jobs;
  int built[NPROGRAMS]; /* the measuring program was built (and so is run) */
  hl_measured m;
  const struct library *library;
  long sso;
  char *text;           /* the profile */
  hl_profile *written;  /* the profile as the loader reads it back */
  hl_profile *want;     /* --compare's */
} cal;

/* "heaplint: <kind>: <message>" on stderr. */
static void say(const char *kind, const char *fmt, va_list ap) {
  fprintf(stderr, "heaplint: %s: ", kind);
  vfprintf(stderr, fmt, ap);
  fputc('\n', stderr);
}

static void error(const char *fmt, ...) HL_PRINTF(1, 2);
static void error(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  say("error", fmt, ap);
  va_end(ap);
}

static void note(const char *fmt, ...) HL_PRINTF(1, 2);
static void note(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  say("note", fmt, ap);
  va_end(ap);
}

/* ---- the command line ---- */

/* --name=value or --name value (and -Ivalue, -I value). */
/* Returns 0, 1 for --help, or -1 with *err. */
static int parse_options(cal *c, int argc, char **argv, char **err) {
  static const char *const with_value[] = {"-o", "--wrapper", "--header", "-I", "--compare", "--replacement", "--emulator"};
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (!strcmp(a, "--")) {
      for (int k = i + 1; k < argc; k++) strv_add(&c->command, argv[k]);
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
    case 1: strv_add(&c->wrapper_args, v); break;
    case 2: strv_add(&c->headers, v); break;
    case 3: strv_add(&c->include_dirs, v); break;
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
    *err = hl_xasprintf("calibrate: %s is for the wrappers named with --wrapper", c->headers.n ? "--header" : "--replacement");
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
    *err = hl_xasprintf("calibrate: --wrapper '%s': expected a class template with its arguments, e.g. "
                        "'my::Callback<void()>'",
                        spelling);
    free(all);
    return -1;
  }
  char *n = trimmed(spelling, (size_t)(lt - spelling));
  const char *bare = hl_starts_with(n, "::") ? n + 2 : n;
  int ok = *bare != '\0';
  for (const char *p = bare; *p && ok; p++) ok = (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
                                                 (*p >= '0' && *p <= '9') || *p == '_' || *p == ':';
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
    if (p < end && strchr("<([{", *p)) depth++;
    else if (p < end && strchr(">)]}", *p)) depth--;
    else if (p == end || (*p == ',' && depth == 0)) {
      char *arg = trimmed(start, (size_t)(p - start));
      if (strchr(arg, '(')) *signature = arg;
      else free(arg);
      start = p + 1;
    }
  }
  free(all);
  if (!*signature) {
    *err = hl_xasprintf("calibrate: --wrapper '%s': none of its template arguments is a call signature such as "
                        "void() or int(long)",
                        spelling);
    free(*name);
    *name = NULL;
    return -1;
  }
  return 0;
}

/* ---- what is measured ---- */

static int make_plan(cal *c, char **err) {
  if (!c->wrapper_args.n) {
    c->n = NSTD;
    c->pw = hl_xcalloc(NSTD, sizeof *c->pw);
    c->targets = hl_xcalloc(NSTD, sizeof *c->targets);
    for (size_t i = 0; i < NSTD; i++) {
      c->pw[i] = std_wrappers[i].probe;
      c->targets[i] = (target){hl_xstrdup(std_wrappers[i].name), std_wrappers[i].rule, std_wrappers[i].factory,
                               std_wrappers[i].emplace, std_wrappers[i].replacement, 0, {0}};
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
      c->pw[i] = (hl_probe_wrapper){c->wrapper_args.v[i], sig, NULL, 0};
      c->targets[i] = (target){name, "function-sbo", NULL, NULL, c->replacement, 0, {0}};
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

/* ---- files ---- */

static int write_text(const char *path, const char *text) {
  FILE *f = fopen(path, "w");
  if (!f) return -1;
  size_t len = strlen(text);
  int rc = fwrite(text, 1, len, f) == len ? 0 : -1;
  if (fclose(f)) rc = -1;
  return rc;
}

static char *in_dir(const cal *c, const char *fmt, ...) HL_PRINTF(2, 3);
static char *in_dir(const cal *c, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  hl_sb b = {0};
  hl_sb_printf(&b, "%s/", c->dir);
  hl_sb_vprintf(&b, fmt, ap);
  va_end(ap);
  return hl_sb_take(&b);
}

/* The first lines of a file, indented, on stderr. */
static void show(const char *path) {
  char *data;
  size_t len;
  if (hl_read_file(path, &data, &len)) return;
  size_t lines = 0;
  for (char *p = data; *p;) {
    size_t n = strcspn(p, "\n");
    if (lines < SHOWN_LINES) fprintf(stderr, "  %.*s\n", (int)n, p);
    lines++;
    p += n + (p[n] == '\n');
  }
  if (lines > SHOWN_LINES) fprintf(stderr, "  (%zu more lines; --keep keeps them)\n", lines - SHOWN_LINES);
  free(data);
}

/* The first line of a file, or "". Caller frees. */
static char *first_line(const char *path) {
  char *data;
  size_t len;
  if (hl_read_file(path, &data, &len)) return hl_xstrdup("");
  char *r = hl_xstrndup(data, strcspn(data, "\n"));
  free(data);
  return r;
}

/* -o: checked first, by making (and removing) a temporary file beside the
 * output, so that an unwritable path is said before any measuring; the
 * profile is written at the end through hl_write_file_atomic, so that the
 * output appears whole or not at all. */
static int open_output(cal *c) {
  struct stat st;
  if (stat(c->output, &st) == 0 && S_ISDIR(st.st_mode)) {
    error("%s: cannot write the profile: it is a directory", c->output);
    return -1;
  }
  char *tmp = hl_xasprintf("%s.XXXXXX", c->output);
  int fd = mkstemp(tmp);
  if (fd < 0) {
    error("%s: cannot write the profile: %s", c->output, strerror(errno));
    free(tmp);
    return -1;
  }
  close(fd);
  unlink(tmp);
  free(tmp);
  return 0;
}

static int commit_output(cal *c) {
  char *err = NULL;
  if (hl_write_file_atomic(c->output, c->text, strlen(c->text), &err) == 0) return 0;
  error("%s", err);
  free(err);
  return -1;
}

static void remove_dir(const char *dir) {
  DIR *d = opendir(dir);
  if (!d) return;
  struct dirent *e;
  while ((e = readdir(d)))
    if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) {
      char *p = hl_xasprintf("%s/%s", dir, e->d_name);
      unlink(p);
      free(p);
    }
  closedir(d);
  rmdir(dir);
}

/* ---- building and running the probes ---- */

/* The compiler, the user's flags, -I dirs and the program's standard. */
static void compiler_words(const cal *c, int program, strv *argv) {
  for (size_t i = 0; i < c->command.n; i++) strv_add(argv, c->command.v[i]);
  for (size_t i = 0; i < c->include_dirs.n; i++) {
    char *flag = hl_xasprintf("-I%s", c->include_dirs.v[i]);
    strv_add(argv, flag);
    free(flag);
  }
  if (program_std[program]) strv_add(argv, program_std[program]);
}

static int program_used(const cal *c, int program) {
  for (size_t i = 0; i < c->n; i++)
    if (c->pw[i].program == program) return 1;
  return 0;
}

typedef struct job {
  strv argv;
  hl_proc proc;
  char *log;
  int program, opt;
} job;

static void jobs_free(job *v, size_t n) {
  for (size_t i = 0; i < n; i++) {
    strv_free(&v[i].argv);
    free(v[i].log);
  }
  free(v);
}

static void run_jobs(job *v, size_t n, unsigned parallel) {
  hl_proc *procs = hl_xcalloc(n ? n : 1, sizeof *procs);
  for (size_t i = 0; i < n; i++) {
    procs[i] = (hl_proc){.argv = strv_argv(&v[i].argv), .out_path = v[i].log, .err_path = v[i].log};
  }
  hl_proc_run_all(procs, n, parallel);
  for (size_t i = 0; i < n; i++) v[i].proc = procs[i];
  free(procs);
}

/* What went wrong with a compile job, on stderr; returns the exit status. */
static int compile_failed(const job *j) {
  if (j->proc.start_errno) {
    error("cannot run the compiler '%s': %s", j->argv.v[0], strerror(j->proc.start_errno));
    return CAL_INPUT;
  }
  char *cmd = hl_proc_command(j->argv.v);
  char *how = hl_proc_outcome(&j->proc);
  error("the probes do not compile (the compiler %s): %s", how, cmd);
  show(j->log);
  free(cmd);
  free(how);
  return CAL_PROBES;
}

/* Compiles every part of the measuring programs at once, then links them.
 * A failure of program 0 ends the calibration; program 1 (C++23) only
 * loses the wrappers it measures. */
static int build(cal *c) {
  long cpus = sysconf(_SC_NPROCESSORS_ONLN);
  c->jobs = cpus < 1 ? 1 : cpus > 8 ? 8 : (unsigned)cpus;
  int parts[NPROGRAMS] = {(int)(c->jobs > 4 ? 4 : c->jobs), 1};
  job *v = NULL;
  size_t n = 0, cap = 0;
  int status = CAL_OK;
  for (int p = 0; p < NPROGRAMS && !status; p++) {
    if (!program_used(c, p)) continue;
    for (int k = 0; k < parts[p] && !status; k++) {
      char *src = in_dir(c, "p%d-%d.cpp", p, k), *obj = in_dir(c, "p%d-%d.o", p, k);
      char *text = hl_probes_source(&c->plan, p, k, parts[p]);
      if (write_text(src, text)) {
        error("%s: cannot write the probe program: %s", src, strerror(errno));
        status = CAL_PROBES;
      }
      job j = {0};
      j.program = p;
      j.log = in_dir(c, "p%d-%d.log", p, k);
      compiler_words(c, p, &j.argv);
      const char *tail[] = {"-O0", "-w", "-c", src, "-o", obj};
      for (size_t t = 0; t < sizeof tail / sizeof *tail; t++) strv_add(&j.argv, tail[t]);
      HL_PUSH(v, n, cap, j);
      free(text);
      free(src);
      free(obj);
    }
  }
  if (!status) run_jobs(v, n, c->jobs);
  int compiled[NPROGRAMS] = {1, 1};
  for (size_t i = 0; i < n && !status; i++) {
    if (hl_proc_ok(&v[i].proc)) continue;
    if (v[i].program == 0 || v[i].proc.start_errno) {
      status = compile_failed(&v[i]);
    } else if (compiled[v[i].program]) {
      char *line = first_line(v[i].log);
      for (size_t w = 0; w < c->n; w++)
        if (c->pw[w].program == v[i].program)
          note("%s is not measured: the probes do not compile with %s: %s", c->targets[w].name,
               program_std[v[i].program], line);
      free(line);
    }
    compiled[v[i].program] = 0;
  }
  jobs_free(v, n);
  if (status) return status;

  /* Link. */
  v = NULL;
  n = cap = 0;
  for (int p = 0; p < NPROGRAMS; p++) {
    if (!program_used(c, p) || !compiled[p]) continue;
    job j = {0};
    j.program = p;
    j.log = in_dir(c, "p%d.link.log", p);
    compiler_words(c, p, &j.argv);
    for (int k = 0; k < parts[p]; k++) {
      char *obj = in_dir(c, "p%d-%d.o", p, k);
      strv_add(&j.argv, obj);
      free(obj);
    }
    char *exe = in_dir(c, "p%d", p);
    strv_add(&j.argv, "-o");
    strv_add(&j.argv, exe);
    free(exe);
    HL_PUSH(v, n, cap, j);
  }
  run_jobs(v, n, c->jobs);
  for (size_t i = 0; i < n && !status; i++) {
    if (hl_proc_ok(&v[i].proc)) {
      c->built[v[i].program] = 1;
      continue;
    }
    char *cmd = hl_proc_command(v[i].argv.v);
    error("the probes do not link: %s", cmd);
    show(v[i].log);
    free(cmd);
    status = CAL_PROBES;
  }
  jobs_free(v, n);
  return status;
}

/* The wrapper a probe program was measuring when it died, in words. */
static void say_crash(const cal *c, const hl_proc *p, const char *err_path) {
  char *how = hl_proc_outcome(p);
  if (c->m.pending) {
    const hl_probe *t = &c->m.pending_probe;
    error("the probe program %s while storing a target of %ld bytes (align %ld, %s) into %s", how, t->size,
          t->align, hl_kind_name(t->kind), c->pw[c->m.pending_wrapper].type);
  } else {
    error("the probe program %s", how);
  }
  show(err_path);
  free(how);
}

/* The argv that runs exe: through the emulator when there is one. */
static char **run_argv(const cal *c, char *exe) {
  char **argv = hl_xcalloc(c->emulator.n + 2, sizeof *argv);
  for (size_t i = 0; i < c->emulator.n; i++) argv[i] = c->emulator.v[i];
  argv[c->emulator.n] = exe;
  return argv;
}

/* A program of the probes that could not be started: the emulator is
 * missing (an input error), or the program is for another machine. */
static int not_started(const cal *c, const hl_proc *p, const char *what) {
  if (c->emulator.n) {
    error("cannot run the emulator '%s': %s", c->emulator.v[0], strerror(p->start_errno));
    return CAL_INPUT;
  }
  error("cannot run the %s: %s%s", what, strerror(p->start_errno),
        p->start_errno == ENOEXEC ? " (a program for another machine? see --emulator)" : "");
  return CAL_PROBES;
}

static int run(cal *c) {
  int status = CAL_OK;
  hl_measured_init(&c->m, c->n);
  for (int p = 0; p < NPROGRAMS && !status; p++) {
    if (!c->built[p]) continue;
    char *exe = in_dir(c, "p%d", p), *out = in_dir(c, "p%d.out", p), *err = in_dir(c, "p%d.err", p);
    char **argv = run_argv(c, exe);
    hl_proc proc = {.argv = argv, .out_path = out, .err_path = err, .timeout = RUN_TIMEOUT};
    hl_proc_run_all(&proc, 1, 1);
    free(argv);
    char *text = NULL, *why = NULL;
    size_t len;
    if (hl_read_file(out, &text, &len)) text = hl_xstrdup("");
    int unreadable = hl_probes_read(text, &c->m, &why);
    if (proc.start_errno) {
      status = not_started(c, &proc, "probe program");
    } else if (!hl_proc_ok(&proc)) {
      say_crash(c, &proc, err);
      status = CAL_PROBES;
    } else if (unreadable) {
      error("%s", why);
      status = CAL_PROBES;
    }
    free(why);
    free(text);
    free(exe);
    free(out);
    free(err);
  }
  return status;
}

/* ---- from measurements to a profile ---- */

static int fit_all(cal *c) {
  int status = CAL_OK;
  if (!c->custom) {
    for (size_t i = 0; i < sizeof libraries / sizeof *libraries && !c->library; i++)
      if (c->m.library && !strcmp(c->m.library, libraries[i].probe_name)) c->library = &libraries[i];
    if (!c->library) {
      error("the standard library cannot be identified: it defines none of __GLIBCXX__, _LIBCPP_VERSION and "
            "_MSVC_STL_VERSION");
      return CAL_NO_FIT;
    }
    c->sso = hl_fit_sso(c->m.string_allocs, c->m.nstring);
    if (c->sso < 0) {
      error("std::string: no length up to %zu chars is kept without allocating, or every one is: no small-string "
            "capacity fits",
            c->m.nstring ? c->m.nstring - 1 : 0);
      status = CAL_NO_FIT;
    }
  }
  for (size_t i = 0; i < c->n; i++) {
    const hl_probed *p = &c->m.w[i];
    if (p->absent) {
      note("%s has no %s: the profile leaves it out", c->library ? c->library->name : "the library",
           c->targets[i].name);
      continue;
    }
    if (!p->seen) continue;
    char *why;
    if (hl_fit(p, &c->targets[i].fit, &why)) {
      error("%s: %s", c->pw[i].type, why);
      free(why);
      status = CAL_NO_FIT;
      continue;
    }
    c->targets[i].fitted = 1;
  }
  return status;
}

static hl_profile *make_profile(const cal *c) {
  hl_profile *P = hl_xcalloc(1, sizeof *P);
  P->string_sso = -1;
  P->pointer_width = c->m.pointer_width;
  char *cmd = hl_proc_command(c->command.v);
  const char *compiler = c->m.compiler ? c->m.compiler : "an unknown compiler";
  if (c->library) {
    P->library = hl_xstrdup(c->library->name);
    P->description = hl_xasprintf("%s, %d-bit targets", c->library->description, c->m.pointer_width);
    P->detect_include = hl_xstrdup(c->library->detect);
    P->string_sso = c->sso;
  } else {
    hl_sb d = {0};
    for (size_t i = 0; i < c->n; i++) hl_sb_printf(&d, "%s%s", i ? ", " : "", c->targets[i].name);
    hl_sb_printf(&d, ", %d-bit targets, measured with %s", c->m.pointer_width, compiler);
    P->description = hl_sb_take(&d);
  }
  size_t cap = 0;
  for (size_t i = 0; i < c->n; i++) {
    const target *t = &c->targets[i];
    if (!t->fitted) continue;
    hl_wrapper w;
    memset(&w, 0, sizeof w);
    w.name = hl_xstrdup(t->name);
    w.rule = hl_xstrdup(t->rule);
    w.buffer_size = t->fit.buffer_size;
    w.buffer_align = t->fit.buffer_align;
    w.header_size = t->fit.header_size;
    w.header_align = t->fit.header_align;
    w.max_align = t->fit.max_align;
    w.requires = t->fit.requires;
    if (t->factory) {
      w.factories = hl_xcalloc(1, sizeof *w.factories);
      w.factories[w.nfactories++] = hl_xstrdup(t->factory);
    }
    if (t->replacement) w.replacement = hl_xstrdup(t->replacement);
    if (t->emplace) {
      w.emplacers = hl_xcalloc(1, sizeof *w.emplacers);
      w.emplacers[w.nemplacers++] = hl_xstrdup(t->emplace);
    }
    const char *std = program_std[c->pw[i].program];
    char *lib = c->library ? hl_xasprintf("; %s %s", c->library->name, c->m.library_version) : hl_xstrdup("");
    w.source = hl_xasprintf("measured by heaplint calibrate %s: %s%s%s (%s%s)", HEAPLINT_VERSION, cmd,
                            std ? " " : "", std ? std : "", compiler, lib);
    free(lib);
    w.profile = P;
    HL_PUSH(P->wrappers, P->nwrappers, cap, w);
  }
  free(cmd);
  return P;
}

/* Writes the profile as YAML and reads it back with the analyzer's loader:
 * what is written is what heaplint --profile will read. */
static int write_profile(cal *c) {
  hl_profile *P = make_profile(c);
  char *err = NULL;
  int status = CAL_OK;
  if (hl_profile_write(P, &c->text, &err)) {
    status = CAL_PROBES;
  } else {
    char *path = in_dir(c, "profile.yaml");
    if (write_text(path, c->text)) err = hl_xasprintf("%s: cannot write: %s", path, strerror(errno));
    else if (hl_profile_load(path, &c->written, &err)) {
      char *e = err;
      err = hl_xasprintf("the profile written does not load: %s", e);
      free(e);
    }
    free(path);
    if (err) status = CAL_PROBES;
  }
  if (err) {
    error("%s", err);
    free(err);
  }
  hl_profile_free(P);
  return status;
}

/* What was calibrated: "libstdc++ 20220819 (release 12)" or the wrappers'
 * names. Caller frees. */
static char *subject(const cal *c) {
  if (c->library) return hl_xasprintf("%s %s", c->library->name, c->m.library_version);
  hl_sb b = {0};
  for (size_t i = 0; i < c->n; i++) hl_sb_printf(&b, "%s%s", i ? ", " : "", c->targets[i].name);
  return hl_sb_take(&b);
}

/* ---- --report ---- */

static const char *program_label(int p) { return p == 0 ? "" : " (C++23)"; }

typedef struct row {
  const char *what;
  const hl_probe *probe; /* NULL for std::string */
  long allocations;
} row;

typedef struct rows {
  hl_timing *t; /* what the timing programs fill in */
  row *r;       /* what the table says besides */
  size_t n, capt, capr;
} rows;

static void add_row(rows *v, int w, const hl_probe *p, const char *what, long size, long allocations) {
  hl_grow((void **)&v->t, &v->capt, v->n + 1, sizeof *v->t);
  hl_grow((void **)&v->r, &v->capr, v->n + 1, sizeof *v->r);
  v->t[v->n] = (hl_timing){w, p ? p->size : size, p ? p->align : 1, p ? p->kind : HL_KIND_TRIVIAL, {-1, -1}, -1};
  v->r[v->n++] = (row){what, p, allocations};
}

static int by_size_and_kind(const void *a, const void *b) {
  const hl_probe *x = *(const hl_probe *const *)a, *y = *(const hl_probe *const *)b;
  if (x->size != y->size) return (x->size > y->size) - (x->size < y->size);
  return (x->kind > y->kind) - (x->kind < y->kind);
}

/* The probes a reader wants to see: per alignment the largest target kept
 * inline and the smallest allocated, and the trait variants. */
static void choose_rows(const cal *c, rows *v) {
  static const long aligns[] = {1, 2, 4, 8, 16, 32, 64};
  for (size_t i = 0; i < c->n; i++) {
    if (!c->targets[i].fitted) continue;
    const hl_probed *p = &c->m.w[i];
    for (size_t a = 0; a < sizeof aligns / sizeof *aligns; a++) {
      const hl_probe *in = NULL, *out = NULL;
      for (size_t k = 0; k < p->n; k++) {
        const hl_probe *t = &p->v[k];
        if (t->kind != HL_KIND_TRIVIAL || t->align != aligns[a]) continue;
        if (t->allocations == 0 && (!in || t->size > in->size)) in = t;
        if (t->allocations > 0 && (!out || t->size < out->size)) out = t;
      }
      if (in) add_row(v, (int)i, in, "largest inline", 0, in->allocations);
      if (out) add_row(v, (int)i, out, "smallest allocating", 0, out->allocations);
    }
    /* The parts of the program print them in no useful order. */
    const hl_probe **traits = hl_xcalloc(p->n ? p->n : 1, sizeof *traits);
    size_t nt = 0;
    for (size_t k = 0; k < p->n; k++)
      if (p->v[k].kind != HL_KIND_TRIVIAL) traits[nt++] = &p->v[k];
    qsort(traits, nt, sizeof *traits, by_size_and_kind);
    for (size_t k = 0; k < nt; k++) add_row(v, (int)i, traits[k], "trait variant", 0, traits[k]->allocations);
    free(traits);
  }
  if (!c->custom && c->sso >= 0) {
    for (long s = c->sso; s <= c->sso + 1 && (size_t)s < c->m.nstring; s++)
      add_row(v, -1, NULL, s == c->sso ? "longest inline" : "shortest allocating", s, c->m.string_allocs[s]);
  }
}

/* Builds the timing program of each measured program at -O0 and -O2 (at
 * once), then runs them one after another (timings must not compete). */
static int time_rows(cal *c, hl_timing *t, size_t n) {
  static const char *const opts[2] = {"-O0", "-O2"};
  job *v = NULL;
  size_t nj = 0, cap = 0;
  int status = CAL_OK;
  for (int p = 0; p < NPROGRAMS && !status; p++) {
    if (!c->built[p]) continue;
    char *src = in_dir(c, "t%d.cpp", p);
    char *text = hl_probes_timing_source(&c->plan, p, t, n);
    if (write_text(src, text)) {
      error("%s: cannot write the timing program: %s", src, strerror(errno));
      status = CAL_PROBES;
    }
    for (int o = 0; o < 2; o++) {
      job j = {0};
      j.program = p;
      j.opt = o;
      j.log = in_dir(c, "t%d%s.log", p, opts[o]);
      compiler_words(c, p, &j.argv);
      char *exe = in_dir(c, "t%d%s", p, opts[o]);
      const char *tail[] = {opts[o], "-w", src, "-o", exe};
      for (size_t k = 0; k < sizeof tail / sizeof *tail; k++) strv_add(&j.argv, tail[k]);
      free(exe);
      HL_PUSH(v, nj, cap, j);
    }
    free(text);
    free(src);
  }
  if (!status) run_jobs(v, nj, c->jobs);
  for (size_t i = 0; i < nj && !status; i++)
    if (!hl_proc_ok(&v[i].proc)) status = compile_failed(&v[i]);
  for (size_t i = 0; i < nj && !status; i++) {
    int p = v[i].program, o = v[i].opt;
    char *exe = in_dir(c, "t%d%s", p, opts[o]), *out = in_dir(c, "t%d%s.out", p, opts[o]);
    char *err = in_dir(c, "t%d%s.err", p, opts[o]);
    char **argv = run_argv(c, exe);
    hl_proc proc = {.argv = argv, .out_path = out, .err_path = err, .timeout = RUN_TIMEOUT};
    hl_proc_run_all(&proc, 1, 1);
    free(argv);
    char *text = NULL, *why = NULL;
    size_t len;
    if (proc.start_errno) {
      status = not_started(c, &proc, "timing program");
    } else if (!hl_proc_ok(&proc)) {
      char *how = hl_proc_outcome(&proc);
      error("the timing program%s %s", program_label(p), how);
      show(err);
      free(how);
      status = CAL_PROBES;
    } else if (hl_read_file(out, &text, &len) == 0 && hl_probes_read_timing(text, t, n, o, &why)) {
      error("%s", why);
      free(why);
      status = CAL_PROBES;
    }
    free(text);
    free(exe);
    free(out);
    free(err);
  }
  jobs_free(v, nj);
  return status;
}

static char *ns(double v) { return v < 0 ? hl_xstrdup("-") : hl_xasprintf("%.1f", v); }

/* "inline when ..." for a fitted wrapper. */
static char *rule_words(const hl_rule_fit *f) {
  hl_sb b = {0};
  hl_sb_printf(&b, "buffer %ld bytes (align %ld)", f->buffer_size, f->buffer_align);
  if (f->header_size) hl_sb_printf(&b, " holding %ld bytes (align %ld) in front of the target", f->header_size,
                                   f->header_align);
  if (f->max_align) hl_sb_printf(&b, ", targets aligned up to %ld", f->max_align);
  if (f->requires & HL_REQ_TRIVIALLY_COPYABLE) hl_sb_puts(&b, ", trivially copyable");
  if (f->requires & HL_REQ_NOTHROW_COPY) hl_sb_puts(&b, ", nothrow copy constructible");
  if (f->requires & HL_REQ_NOTHROW_MOVE) hl_sb_puts(&b, ", nothrow move constructible");
  if (!f->requires) hl_sb_puts(&b, ", any traits");
  return hl_sb_take(&b);
}

#define NCOLS 10

static void cell_out(FILE *out, const char *s, size_t width, int right) {
  fprintf(out, right ? "| %*s " : "| %-*s ", (int)width, s);
}

static int report(cal *c, FILE *out) {
  rows v = {0};
  choose_rows(c, &v);
  hl_timing *t = v.t;
  row *r = v.r;
  size_t n = v.n;
  int status = time_rows(c, t, n);
  if (status) {
    free(t);
    free(r);
    return status;
  }
  char *cmd = hl_proc_command(c->command.v), *what = subject(c);
  fprintf(out, "%s with %s, %d-bit targets; probes built with: %s\n\n", what, c->m.compiler ? c->m.compiler : "?",
          c->m.pointer_width, cmd);
  free(what);
  free(cmd);
  for (size_t i = 0; i < c->n; i++)
    if (c->targets[i].fitted) {
      char *w = rule_words(&c->targets[i].fit);
      fprintf(out, "%s: %s\n", c->targets[i].name, w);
      free(w);
    }
  if (!c->custom) fprintf(out, "std::string: %ld chars inline\n", c->sso);
  fputc('\n', out);

  static const char *const head[NCOLS] = {"wrapper",     "probe",       "size",
                                          "align",       "traits",      "allocations per construction",
                                          "stored",      "construct ns -O0", "construct ns -O2",
                                          "call ns -O2"};
  static const int right[NCOLS] = {0, 0, 1, 1, 0, 1, 0, 1, 1, 1};
  char **cell = hl_xcalloc((n + 1) * NCOLS, sizeof *cell);
  size_t width[NCOLS];
  for (int k = 0; k < NCOLS; k++) {
    cell[k] = hl_xstrdup(head[k]);
    width[k] = strlen(head[k]);
  }
  for (size_t i = 0; i < n; i++) {
    char **cl = cell + (i + 1) * NCOLS;
    const hl_probe *p = r[i].probe;
    cl[0] = hl_xstrdup(t[i].wrapper < 0 ? "std::string" : c->targets[t[i].wrapper].name);
    cl[1] = hl_xstrdup(r[i].what);
    cl[2] = p ? hl_xasprintf("%ld", p->size) : hl_xasprintf("%ld chars", t[i].size);
    cl[3] = p ? hl_xasprintf("%ld", p->align) : hl_xstrdup("-");
    cl[4] = hl_xstrdup(p ? hl_kind_name(p->kind) : "-");
    cl[5] = hl_xasprintf("%ld", r[i].allocations);
    cl[6] = r[i].allocations ? hl_xstrdup("heap")
            : p && p->offset >= 0 ? hl_xasprintf("inline, +%ld", p->offset)
                                  : hl_xstrdup("inline");
    cl[7] = ns(t[i].construct_ns[0]);
    cl[8] = ns(t[i].construct_ns[1]);
    cl[9] = ns(t[i].call_ns);
    for (int k = 0; k < NCOLS; k++)
      if (strlen(cl[k]) > width[k]) width[k] = strlen(cl[k]);
  }
  for (size_t i = 0; i <= n; i++) {
    for (int k = 0; k < NCOLS; k++) cell_out(out, cell[i * NCOLS + k], width[k], right[k]);
    fputs("|\n", out);
    if (i == 0) {
      for (int k = 0; k < NCOLS; k++) {
        fputs("|", out);
        for (size_t d = 0; d < width[k] + 2; d++) fputc(right[k] && d == width[k] + 1 ? ':' : '-', out);
      }
      fputs("|\n", out);
    }
  }
  for (size_t i = 0; i < (n + 1) * NCOLS; i++) free(cell[i]);
  free(cell);
  free(t);
  free(r);
  fflush(out);
  return CAL_OK;
}

/* ---- the subcommand ---- */

static int compare(const cal *c) {
  hl_msgs d = {0};
  size_t n = hl_profile_diff(c->written, c->want, &d);
  for (size_t i = 0; i < n; i++) fprintf(stderr, "heaplint: %s: %s\n", c->compare, d.v[i]);
  if (n) fprintf(stderr, "heaplint: %s: %zu difference%s from what was measured\n", c->compare, n, n == 1 ? "" : "s");
  else
    fprintf(stderr, "heaplint: %s: every field matches what was measured (description, header.what and source "
                    "are prose and not compared)\n",
            c->compare);
  hl_msgs_free(&d);
  return n ? CAL_DIFFERS : CAL_OK;
}

static double seconds(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void say_done(const cal *c, double elapsed) {
  hl_sb b = {0};
  size_t k = 0;
  for (size_t i = 0; i < c->n; i++)
    if (c->targets[i].fitted) hl_sb_printf(&b, "%s%s", k++ ? ", " : "", c->targets[i].name);
  if (!c->custom) hl_sb_printf(&b, "%sstd::string", k ? ", " : "");
  char *what = subject(c);
  fprintf(stderr, "heaplint: calibrated %s with %s, %d-bit targets, in %.1f s: %s\n", what,
          c->m.compiler ? c->m.compiler : "?", c->m.pointer_width, elapsed, hl_sb_str(&b));
  free(what);
  hl_sb_free(&b);
}

static void cal_free(cal *c) {
  strv_free(&c->wrapper_args);
  strv_free(&c->headers);
  strv_free(&c->emulator);
  strv_free(&c->include_dirs);
  strv_free(&c->command);
  for (size_t i = 0; i < c->n; i++) {
    free(c->targets[i].name);
    if (c->custom) free((char *)c->pw[i].signature);
  }
  free(c->targets);
  free(c->pw);
  for (size_t i = 0; i < c->plan.nincludes; i++) free(c->plan.includes[i]);
  free(c->plan.includes);
  hl_measured_free(&c->m);
  free(c->text);
  hl_profile_free(c->written);
  hl_profile_free(c->want);
  free(c->dir);
}

int hl_calibrate_main(int argc, char **argv) {
  double t0 = seconds();
  cal c;
  memset(&c, 0, sizeof c);
  char *err = NULL;
  int status = parse_options(&c, argc, argv, &err);
  if (status == 1) {
    fputs(usage, stdout);
    cal_free(&c);
    return CAL_OK;
  }
  if (status || make_plan(&c, &err)) {
    error("%s", err);
    free(err);
    cal_free(&c);
    return CAL_INPUT;
  }
  /* Input errors first, before any time is spent measuring. */
  if (c.compare && hl_profile_load(c.compare, &c.want, &err)) {
    error("%s", err);
    free(err);
    cal_free(&c);
    return CAL_INPUT;
  }
  if (c.output && open_output(&c)) {
    cal_free(&c);
    return CAL_INPUT;
  }
  const char *tmp = getenv("TMPDIR");
  c.dir = hl_xasprintf("%s/heaplint-calibrate-XXXXXX", tmp && *tmp ? tmp : "/tmp");
  if (!mkdtemp(c.dir)) {
    error("%s: cannot make a directory for the probes: %s", c.dir, strerror(errno));
    status = CAL_PROBES;
    free(c.dir);
    c.dir = NULL;
  }
  if (!status) status = build(&c);
  if (!status) status = run(&c);
  if (!status) status = fit_all(&c);
  if (!status) status = write_profile(&c);
  if (!status && c.report) status = report(&c, c.output || c.compare ? stdout : stderr);
  if (!status && c.compare) status = compare(&c);
  if (status == CAL_OK || status == CAL_DIFFERS) {
    if (c.output && commit_output(&c)) status = CAL_INPUT;
    else if (!c.output && !c.compare) fputs(c.text, stdout);
    if (status != CAL_INPUT) say_done(&c, seconds() - t0);
  }
  if (c.dir && c.keep) note("the probe programs are in %s", c.dir);
  else if (c.dir) remove_dir(c.dir);
  cal_free(&c);
  return status;
}
