#include "calibrate/calibrate.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "calibrate/build.h"
#include "calibrate/cal.h"
#include "calibrate/cli.h"
#include "calibrate/profile_write.h"
#include "calibrate/report.h"
#include "calibrate/result.h"
#include "util/util.h"

/* -o: checked first, by making (and removing) a temporary file beside the
 * output, so that an unwritable path is said before any measuring; the
 * profile is written at the end through hl_write_file_atomic, so that the
 * output appears whole or not at all. */
static int open_output(hl_cal *c) {
  struct stat st;
  if (stat(c->output, &st) == 0 && S_ISDIR(st.st_mode)) {
    hl_cal_error("%s: cannot write the profile: it is a directory", c->output);
    return -1;
  }
  char *tmp = hl_xasprintf("%s.XXXXXX", c->output);
  int fd = mkstemp(tmp);
  if (fd < 0) {
    hl_cal_error("%s: cannot write the profile: %s", c->output, strerror(errno));
    free(tmp);
    return -1;
  }
  close(fd);
  unlink(tmp);
  free(tmp);
  return 0;
}

static int commit_output(hl_cal *c) {
  char *err = NULL;
  if (hl_write_file_atomic(c->output, c->text, strlen(c->text), &err) == 0) return 0;
  hl_cal_error("%s", err);
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

/* ---- the subcommand ---- */

static int compare(const hl_cal *c) {
  hl_strv d = {0};
  size_t n = hl_profile_diff(c->written, c->want, &d);
  for (size_t i = 0; i < n; i++) fprintf(stderr, "heaplint: %s: %s\n", c->compare, d.v[i]);
  if (n)
    fprintf(stderr, "heaplint: %s: %zu difference%s from what was measured\n", c->compare, n, n == 1 ? "" : "s");
  else
    fprintf(stderr,
            "heaplint: %s: every field matches what was measured (description, header.what and source "
            "are prose and not compared)\n",
            c->compare);
  hl_strv_free(&d);
  return n ? CAL_DIFFERS : CAL_OK;
}

static double seconds(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void say_done(const hl_cal *c, double elapsed) {
  hl_sb b = {0};
  size_t k = 0;
  for (size_t i = 0; i < c->n; i++)
    if (c->targets[i].fitted) hl_sb_printf(&b, "%s%s", k++ ? ", " : "", c->targets[i].name);
  if (!c->custom) hl_sb_printf(&b, "%sstd::string", k ? ", " : "");
  char *what = hl_cal_subject(c);
  fprintf(stderr, "heaplint: calibrated %s with %s, %d-bit targets, in %.1f s: %s\n", what,
          c->m.compiler ? c->m.compiler : "?", c->m.pointer_width, elapsed, hl_sb_str(&b));
  free(what);
  hl_sb_free(&b);
}

static void cal_free(hl_cal *c) {
  hl_strv_free(&c->wrapper_args);
  hl_strv_free(&c->headers);
  hl_strv_free(&c->emulator);
  hl_strv_free(&c->include_dirs);
  hl_strv_free(&c->command);
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

int hl_calibrate_main(int argc, char **argv, const struct hl_rule *const *rules) {
  double t0 = seconds();
  hl_cal c;
  memset(&c, 0, sizeof c);
  c.rules = rules;
  for (size_t t = 0; t < HL_SSO_KINDS; t++) c.sso[t] = -1;
  char *err = NULL;
  int status = hl_cal_parse_options(&c, argc, argv, &err);
  if (status == 1) {
    fputs(hl_cal_usage, stdout);
    cal_free(&c);
    return CAL_OK;
  }
  if (status || hl_cal_choose_targets(&c, &err)) {
    hl_cal_error("%s", err);
    free(err);
    cal_free(&c);
    return CAL_INPUT;
  }
  /* Input errors first, before any time is spent measuring. */
  if (c.compare && hl_profile_load(c.compare, rules, &c.want, &err)) {
    hl_cal_error("%s", err);
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
    hl_cal_error("%s: cannot make a directory for the probes: %s", c.dir, strerror(errno));
    status = CAL_PROBES;
    free(c.dir);
    c.dir = NULL;
  }
  if (!status) status = hl_cal_build(&c);
  if (!status) status = hl_cal_run(&c);
  if (!status) status = hl_cal_fit_all(&c);
  if (!status) status = hl_cal_write_profile(&c);
  if (!status && c.report) status = hl_cal_report(&c, c.output || c.compare ? stdout : stderr);
  if (!status && c.compare) status = compare(&c);
  if (status == CAL_OK || status == CAL_DIFFERS) {
    if (c.output && commit_output(&c))
      status = CAL_INPUT;
    else if (!c.output && !c.compare)
      fputs(c.text, stdout);
    if (status != CAL_INPUT) say_done(&c, seconds() - t0);
  }
  if (c.dir && c.keep)
    hl_cal_note("the probe programs are in %s", c.dir);
  else if (c.dir)
    remove_dir(c.dir);
  cal_free(&c);
  return status;
}
