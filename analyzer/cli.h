/* cli: heaplint's command line, parsed into options. Parsing never exits;
 * an unknown option or a missing value comes back as an error message. */
#ifndef HEAPLINT_CLI_H
#define HEAPLINT_CLI_H

#include <stddef.h>

typedef struct hl_strs {
  char **v;
  size_t n, cap;
} hl_strs;

typedef struct hl_options {
  hl_strs files;         /* files named on the command line */
  hl_strs flags;         /* compiler flags after "--" */
  int dashdash;          /* "--" was given */
  const char *build_path;/* -p */
  hl_strs extra_before;  /* --extra-arg-before */
  hl_strs extra_after;   /* --extra-arg */
  hl_strs profiles;      /* --profile */
  const char *profile_dir;
  int werror, verbose, list_rules, version, help;
} hl_options;

/* Returns 0, or -1 with *err (caller frees). */
int hl_cli_parse(int argc, char **argv, hl_options *o, char **err);
void hl_cli_free(hl_options *o);

extern const char hl_cli_usage[];

#endif
