#include "calibrate/cal.h"

#include <stdarg.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/util.h"

const char *const hl_cal_program_std[NPROGRAMS] = {NULL, "-std=c++23"};

/* "heaplint: <kind>: <message>" on stderr. */
static void say(const char *kind, const char *fmt, va_list ap) {
  fprintf(stderr, "heaplint: %s: ", kind);
  vfprintf(stderr, fmt, ap);
  fputc('\n', stderr);
}

void hl_cal_error(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  say("error", fmt, ap);
  va_end(ap);
}

void hl_cal_note(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  say("note", fmt, ap);
  va_end(ap);
}

int hl_cal_write_text(const char *path, const char *text) {
  FILE *f = fopen(path, "w");
  if (!f) return -1;
  size_t len = strlen(text);
  int rc = fwrite(text, 1, len, f) == len ? 0 : -1;
  if (fclose(f)) rc = -1;
  return rc;
}

char *hl_cal_path(const hl_cal *c, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  hl_sb b = {0};
  hl_sb_printf(&b, "%s/", c->dir);
  hl_sb_vprintf(&b, fmt, ap);
  va_end(ap);
  return hl_sb_take(&b);
}

/* What was calibrated: "libstdc++ 20220819 (release 12)" (and its ABI
 * variant, when not the default one) or the wrappers' names. Caller frees. */
char *hl_cal_subject(const hl_cal *c) {
  if (c->library)
    return hl_xasprintf("%s %s%s%s", c->library->name, c->m.library_version, c->m.abi ? ", " : "",
                        c->m.abi ? c->m.abi : "");
  hl_sb b = {0};
  for (size_t i = 0; i < c->n; i++) hl_sb_printf(&b, "%s%s", i ? ", " : "", c->targets[i].name);
  return hl_sb_take(&b);
}
