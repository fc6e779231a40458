#include "util/output.h"

#include <errno.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "util/util.h"

/* The errno of the first failed write to stdout, when hl_stdout_check saw
 * it (on the thread that wrote: errno is per thread). */
static _Atomic int first_error;

void hl_stdout_check(void) {
  int none = 0;
  if (ferror(stdout)) atomic_compare_exchange_strong(&first_error, &none, errno ? errno : EIO);
}

int hl_stdout_ok(void) {
  int flushed = fflush(stdout) == 0;
  if (flushed && !ferror(stdout)) return 1;
  int e = !flushed ? errno : first_error ? first_error : errno;
  fprintf(stderr, "heaplint: error: cannot write to standard output: %s\n", strerror(e));
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
