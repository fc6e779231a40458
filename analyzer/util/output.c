#include "util/output.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "util/util.h"

int hl_stdout_ok(void) {
  if (fflush(stdout) == 0 && !ferror(stdout)) return 1;
  fprintf(stderr, "heaplint: error: cannot write to standard output: %s\n", strerror(errno));
  return 0;
}

static void cannot_write(const hl_output *o) {
  fprintf(stderr, "heaplint: error: %s: cannot write%s%s: %s\n", o->path, o->what ? " " : "", o->what ? o->what : "",
          strerror(errno));
}

FILE *hl_output_open(hl_output *o, const char *path, const char *what) {
  memset(o, 0, sizeof *o);
  o->path = path;
  o->what = what;
  o->f = path ? open_memstream(&o->buf, &o->len) : stdout;
  if (!o->f) cannot_write(o);
  return o->f;
}

int hl_output_close(hl_output *o, int ok) {
  if (!o->path) return hl_stdout_ok() && ok ? 0 : -1;
  if (fclose(o->f) != 0 && ok) {
    cannot_write(o);
    ok = 0;
  }
  char *err = NULL;
  if (ok && hl_write_file_atomic(o->path, o->buf, o->len, &err)) {
    fprintf(stderr, "heaplint: error: %s\n", err);
    free(err);
    ok = 0;
  }
  free(o->buf);
  o->buf = NULL;
  return ok ? 0 : -1;
}
