#include "calibrate/build.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/proc.h"
#include "util/util.h"

/* A probe program runs in well under a second: a minute means it hangs. */
#define RUN_TIMEOUT 60
/* Lines of a compiler's or a probe program's output shown with an error. */
#define SHOWN_LINES 20

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
/* The compiler, the user's flags, -I dirs and the program's standard. */
static void compiler_words(const hl_cal *c, int program, hl_strv *argv) {
  for (size_t i = 0; i < c->command.n; i++) hl_strv_add(argv, c->command.v[i]);
  for (size_t i = 0; i < c->include_dirs.n; i++) {
    char *flag = hl_xasprintf("-I%s", c->include_dirs.v[i]);
    hl_strv_add(argv, flag);
    free(flag);
  }
  if (hl_cal_program_std[program]) hl_strv_add(argv, hl_cal_program_std[program]);
}

static int program_used(const hl_cal *c, int program) {
  for (size_t i = 0; i < c->n; i++)
    if (c->pw[i].program == program) return 1;
  return 0;
}

/* A child process of the calibration: a compile or link of a program. */
typedef struct proc_job {
  hl_strv argv;
  hl_proc proc;
  char *log;
  int program, opt;
} proc_job;

static void jobs_free(proc_job *v, size_t n) {
  for (size_t i = 0; i < n; i++) {
    hl_strv_free(&v[i].argv);
    free(v[i].log);
  }
  free(v);
}

static void run_jobs(proc_job *v, size_t n, unsigned parallel) {
  hl_proc *procs = hl_xcalloc(n ? n : 1, sizeof *procs);
  for (size_t i = 0; i < n; i++) {
    procs[i] = (hl_proc){.argv = hl_strv_argv(&v[i].argv), .out_path = v[i].log, .err_path = v[i].log};
  }
  hl_proc_run_all(procs, n, parallel);
  for (size_t i = 0; i < n; i++) v[i].proc = procs[i];
  free(procs);
}

/* What went wrong with a compile job, on stderr; returns the exit status. */
static int compile_failed(const proc_job *j) {
  if (j->proc.start_errno) {
    hl_cal_error("cannot run the compiler '%s': %s", j->argv.v[0], strerror(j->proc.start_errno));
    return CAL_INPUT;
  }
  char *cmd = hl_proc_command(j->argv.v);
  char *how = hl_proc_outcome(&j->proc);
  hl_cal_error("the probes do not compile (the compiler %s): %s", how, cmd);
  show(j->log);
  free(cmd);
  free(how);
  return CAL_PROBES;
}

/* Compiles every part of the measuring programs at once; compiled[p]
 * becomes 0 for a program that does not compile. */
static int compile_parts(hl_cal *c, const int *parts, int *compiled) {
  proc_job *v = NULL;
  size_t n = 0, cap = 0;
  int status = CAL_OK;
  for (int p = 0; p < NPROGRAMS && !status; p++) {
    if (!program_used(c, p)) continue;
    for (int k = 0; k < parts[p] && !status; k++) {
      char *src = hl_cal_path(c, "p%d-%d.cpp", p, k), *obj = hl_cal_path(c, "p%d-%d.o", p, k);
      char *text = hl_cal_program_source(&c->plan, p, k, parts[p]);
      if (hl_cal_write_text(src, text)) {
        hl_cal_error("%s: cannot write the probe program: %s", src, strerror(errno));
        status = CAL_PROBES;
      }
      proc_job j = {0};
      j.program = p;
      j.log = hl_cal_path(c, "p%d-%d.log", p, k);
      compiler_words(c, p, &j.argv);
      const char *tail[] = {"-O0", "-w", "-c", src, "-o", obj};
      for (size_t t = 0; t < sizeof tail / sizeof *tail; t++) hl_strv_add(&j.argv, tail[t]);
      HL_PUSH(v, n, cap, j);
      free(text);
      free(src);
      free(obj);
    }
  }
  if (!status) run_jobs(v, n, c->jobs);
  for (size_t i = 0; i < n && !status; i++) {
    if (hl_proc_ok(&v[i].proc)) continue;
    if (v[i].program == 0 || v[i].proc.start_errno) {
      status = compile_failed(&v[i]);
    } else if (compiled[v[i].program]) {
      char *line = first_line(v[i].log);
      for (size_t w = 0; w < c->n; w++)
        if (c->pw[w].program == v[i].program)
          hl_cal_note("%s is not measured: the probes do not compile with %s: %s", c->targets[w].name,
                      hl_cal_program_std[v[i].program], line);
      free(line);
    }
    compiled[v[i].program] = 0;
  }
  jobs_free(v, n);
  return status;
}

/* Links the programs whose parts compiled. */
static int link_programs(hl_cal *c, const int *parts, const int *compiled) {
  proc_job *v = NULL;
  size_t n = 0, cap = 0;
  int status = CAL_OK;
  for (int p = 0; p < NPROGRAMS; p++) {
    if (!program_used(c, p) || !compiled[p]) continue;
    proc_job j = {0};
    j.program = p;
    j.log = hl_cal_path(c, "p%d.link.log", p);
    compiler_words(c, p, &j.argv);
    for (int k = 0; k < parts[p]; k++) {
      char *obj = hl_cal_path(c, "p%d-%d.o", p, k);
      hl_strv_add(&j.argv, obj);
      free(obj);
    }
    char *exe = hl_cal_path(c, "p%d", p);
    hl_strv_add(&j.argv, "-o");
    hl_strv_add(&j.argv, exe);
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
    hl_cal_error("the probes do not link: %s", cmd);
    show(v[i].log);
    free(cmd);
    status = CAL_PROBES;
  }
  jobs_free(v, n);
  return status;
}

/* Compiles every part of the measuring programs at once, then links them.
 * A failure of program 0 ends the calibration; program 1 (C++23) only
 * loses the wrappers it measures. */
int hl_cal_build(hl_cal *c) {
  long cpus = sysconf(_SC_NPROCESSORS_ONLN);
  c->jobs = cpus < 1 ? 1 : cpus > 8 ? 8 : (unsigned)cpus;
  int parts[NPROGRAMS] = {(int)(c->jobs > 4 ? 4 : c->jobs), 1};
  int compiled[NPROGRAMS] = {1, 1};
  int status = compile_parts(c, parts, compiled);
  return status ? status : link_programs(c, parts, compiled);
}

/* The wrapper a probe program was measuring when it died, in words. */
static void say_crash(const hl_cal *c, const hl_proc *p, const char *err_path) {
  char *how = hl_proc_outcome(p);
  if (c->m.pending) {
    const hl_cal_prog_probe *t = &c->m.pending_probe;
    hl_cal_error("the probe program %s while storing a target of %ld bytes (align %ld, %s) into %s", how, t->size,
                 t->align, hl_kind_name(t->kind), c->pw[c->m.pending_wrapper].type);
  } else {
    hl_cal_error("the probe program %s", how);
  }
  show(err_path);
  free(how);
}

/* The argv that runs exe: through the emulator when there is one. */
static char **run_argv(const hl_cal *c, char *exe) {
  char **argv = hl_xcalloc(c->emulator.n + 2, sizeof *argv);
  for (size_t i = 0; i < c->emulator.n; i++) argv[i] = c->emulator.v[i];
  argv[c->emulator.n] = exe;
  return argv;
}

/* Runs exe (through the emulator when there is one), its output into
 * out and err, within the time limit; the result says how it ended. */
static hl_proc run_program(const hl_cal *c, char *exe, const char *out, const char *err) {
  char **argv = run_argv(c, exe);
  hl_proc proc = {.argv = argv, .out_path = out, .err_path = err, .timeout = RUN_TIMEOUT};
  hl_proc_run_all(&proc, 1, 1);
  free(argv);
  proc.argv = NULL;
  return proc;
}

/* A program of the probes that could not be started: the emulator is
 * missing (an input hl_cal_error), or the program is for another machine. */
static int not_started(const hl_cal *c, const hl_proc *p, const char *what) {
  if (c->emulator.n) {
    hl_cal_error("cannot run the emulator '%s': %s", c->emulator.v[0], strerror(p->start_errno));
    return CAL_INPUT;
  }
  hl_cal_error("cannot run the %s: %s%s", what, strerror(p->start_errno),
               p->start_errno == ENOEXEC ? " (a program for another machine? see --emulator)" : "");
  return CAL_PROBES;
}

int hl_cal_run(hl_cal *c) {
  int status = CAL_OK;
  hl_measured_init(&c->m, c->n);
  for (int p = 0; p < NPROGRAMS && !status; p++) {
    if (!c->built[p]) continue;
    char *exe = hl_cal_path(c, "p%d", p), *out = hl_cal_path(c, "p%d.out", p), *err = hl_cal_path(c, "p%d.err", p);
    hl_proc proc = run_program(c, exe, out, err);
    char *text = NULL, *why = NULL;
    size_t len;
    if (hl_read_file(out, &text, &len)) text = hl_xstrdup("");
    int unreadable = hl_cal_read_measured(text, &c->m, &why);
    if (proc.start_errno) {
      status = not_started(c, &proc, "probe program");
    } else if (!hl_proc_ok(&proc)) {
      say_crash(c, &proc, err);
      status = CAL_PROBES;
    } else if (unreadable) {
      hl_cal_error("%s", why);
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

static const char *program_label(int p) { return p == 0 ? "" : " (C++23)"; }

/* Builds the timing program of each measured program at -O0 and -O2 (at
 * once), then runs them one after another (timings must not compete). */
int hl_cal_time_rows(hl_cal *c, hl_timing *t, size_t n) {
  static const char *const opts[2] = {"-O0", "-O2"};
  proc_job *v = NULL;
  size_t nj = 0, cap = 0;
  int status = CAL_OK;
  for (int p = 0; p < NPROGRAMS && !status; p++) {
    if (!c->built[p]) continue;
    char *src = hl_cal_path(c, "t%d.cpp", p);
    char *text = hl_cal_timing_source(&c->plan, p, t, n);
    if (hl_cal_write_text(src, text)) {
      hl_cal_error("%s: cannot write the timing program: %s", src, strerror(errno));
      status = CAL_PROBES;
    }
    for (int o = 0; o < 2; o++) {
      proc_job j = {0};
      j.program = p;
      j.opt = o;
      j.log = hl_cal_path(c, "t%d%s.log", p, opts[o]);
      compiler_words(c, p, &j.argv);
      char *exe = hl_cal_path(c, "t%d%s", p, opts[o]);
      const char *tail[] = {opts[o], "-w", src, "-o", exe};
      for (size_t k = 0; k < sizeof tail / sizeof *tail; k++) hl_strv_add(&j.argv, tail[k]);
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
    char *exe = hl_cal_path(c, "t%d%s", p, opts[o]), *out = hl_cal_path(c, "t%d%s.out", p, opts[o]);
    char *err = hl_cal_path(c, "t%d%s.err", p, opts[o]);
    hl_proc proc = run_program(c, exe, out, err);
    char *text = NULL, *why = NULL;
    size_t len;
    if (proc.start_errno) {
      status = not_started(c, &proc, "timing program");
    } else if (!hl_proc_ok(&proc)) {
      char *how = hl_proc_outcome(&proc);
      hl_cal_error("the timing program%s %s", program_label(p), how);
      show(err);
      free(how);
      status = CAL_PROBES;
    } else if (hl_read_file(out, &text, &len) == 0 && hl_cal_read_timing(text, t, n, o, &why)) {
      hl_cal_error("%s", why);
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
