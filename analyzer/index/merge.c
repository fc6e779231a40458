#include "index/merge.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "index/db.h"
#include "util/util.h"

static const char usage[] =
    "usage: heaplint merge-index -o <out.sqlite> <index.sqlite>...\n"
    "Merges the project indexes that runs with --index wrote (CI shards, build\n"
    "actions) into one; a unit in several takes the last one's summary.\n"
    "Then: heaplint -p <build> --index=<out.sqlite> --link-only\n";

static int fail(const char *what, char *err) {
  fprintf(stderr, "heaplint merge-index: error: %s%s\n", what, err ? err : "");
  free(err);
  return 2;
}

/* Merges the inputs into the new index at tmp. */
static int merge_into(const char *tmp, char **inputs, int n) {
  char *err = NULL;
  hl_index *X = hl_index_open(tmp, &err);
  if (!X) return fail("", err);
  for (int i = 0; i < n; i++)
    if (hl_index_merge(X, inputs[i], &err)) {
      char *ignored = NULL;
      hl_index_close(X, &ignored);
      free(ignored);
      return fail("", err);
    }
  return hl_index_close(X, &err) ? fail("", err) : 0;
}

int hl_merge_index_main(int argc, char **argv) {
  const char *out = NULL;
  int first = 1;
  if (argc > 1 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))) {
    fputs(usage, stdout);
    return 0;
  }
  if (argc > 2 && !strcmp(argv[1], "-o")) out = argv[2], first = 3;
  if (argc > 1 && !strncmp(argv[1], "-o", 2) && argv[1][2]) out = argv[1] + 2, first = 2;
  if (!out || first >= argc) {
    fputs(usage, stderr);
    return 2;
  }
  for (int i = first; i < argc; i++)
    if (access(argv[i], R_OK)) return fail(argv[i], hl_xasprintf(": cannot read it (%s)", strerror(errno)));
  char *tmp = hl_xasprintf("%s.tmp-XXXXXX", out);
  int fd = mkstemp(tmp);
  if (fd < 0) {
    char *why = hl_xasprintf("%s: cannot write beside it (%s)", out, strerror(errno));
    free(tmp);
    return fail("", why);
  }
  close(fd);
  int rc = merge_into(tmp, argv + first, argc - first);
  if (!rc && rename(tmp, out)) rc = fail(out, hl_xasprintf(": cannot write it (%s)", strerror(errno)));
  if (rc) unlink(tmp);
  free(tmp);
  return rc;
}
