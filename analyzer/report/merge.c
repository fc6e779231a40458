#include "report/merge.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/emit.h"
#include "report/pipeline.h"
#include "util/output.h"
#include "util/util.h"

static const char merge_usage[] =
    "usage: heaplint merge-sarif [-o <file>] <log.sarif>...\n"
    "\n"
    "Joins the SARIF logs of heaplint's shards (--shard=k/n --format=sarif) into\n"
    "one: the rules' union, every result once, in file and line order, and every\n"
    "shard's notifications. Written to stdout, or with -o through a temporary\n"
    "file and a rename.\n";

/* The logs named, and -o; returns -1 after printing the usage (*help) or
 * saying what is wrong. */
static int parse(int argc, char **argv, const char **output, char **logs, size_t *nlogs, int *help) {
  for (int i = 1; i < argc; i++) {
    int matched = 0;
    const char *v = hl_option_value(argc, argv, &i, "-o", &matched);
    if (matched) {
      if (!v || !*v) {
        fprintf(stderr, "heaplint: error: merge-sarif: option '-o' needs a value\n");
        return -1;
      }
      *output = v;
    } else if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
      fputs(merge_usage, stdout);
      *help = 1;
      return -1;
    } else if (!strcmp(argv[i], "--")) {
      while (++i < argc) logs[(*nlogs)++] = argv[i];
    } else if (argv[i][0] == '-' && argv[i][1]) {
      fprintf(stderr, "heaplint: error: merge-sarif: unknown option '%s' (see heaplint merge-sarif --help)\n", argv[i]);
      return -1;
    } else {
      logs[(*nlogs)++] = argv[i];
    }
  }
  if (!*nlogs) {
    fprintf(stderr, "heaplint: error: usage: heaplint merge-sarif [-o <file>] <log.sarif>...\n");
    return -1;
  }
  return 0;
}

/* -o must not name one of the logs: it would replace what it merges.
 * Compared as files (a link, a hard link name it too). */
static int output_is_log(const char *output, char *const *logs, size_t nlogs) {
  for (size_t i = 0; output && i < nlogs; i++)
    if (hl_same_file(output, logs[i])) {
      fprintf(stderr, "heaplint: error: %s: refusing to write the merged log there: it is one of the logs merged (%s)\n",
              output, logs[i]);
      return 1;
    }
  return 0;
}

int hl_merge_sarif_main(int argc, char **argv) {
  const char *output = NULL;
  char **logs = hl_xcalloc((size_t)argc, sizeof *logs);
  size_t nlogs = 0;
  int help = 0, rc = HL_EXIT_INPUT;
  hl_output out;
  FILE *f;
  char *err = NULL;
  if (parse(argc, argv, &output, logs, &nlogs, &help)) {
    if (help && hl_stdout_ok()) rc = HL_EXIT_RAN;
  } else if (output_is_log(output, logs, nlogs)) {
    /* rc stays HL_EXIT_INPUT */
  } else if ((f = hl_output_open(&out, output, NULL))) {
    int merged = hl_sarif_merge(f, logs, nlogs, &err) == 0;
    if (!merged) {
      fprintf(stderr, "heaplint: error: %s\n", err);
      free(err);
    }
    if (hl_output_close(&out, merged) == 0) rc = HL_EXIT_RAN;
  }
  free(logs);
  return rc;
}
