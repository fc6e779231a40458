/* output: where a command's output goes — standard output, or a file that
 * appears whole or not at all: the output is kept in memory and written to
 * the file atomically (hl_write_file_atomic) once complete. Failures are
 * said on stderr, naming the output. */
#ifndef HEAPLINT_UTIL_OUTPUT_H
#define HEAPLINT_UTIL_OUTPUT_H

#include <stddef.h>
#include <stdio.h>

typedef struct hl_output {
  const char *path; /* NULL: standard output */
  const char *what; /* in messages: "cannot write <what>" ("the report"), or NULL */
  FILE *f;
  char *buf;
  size_t len;
} hl_output;

/* Opens the output for path (NULL: stdout). Returns the stream to write
 * to, or NULL (said on stderr). */
FILE *hl_output_open(hl_output *o, const char *path, const char *what);

/* Finishes the output; ok: the caller wrote everything it meant to (its
 * own failures it has said). With a file, writes it when ok; with stdout,
 * checks that everything written reached it. Returns 0, or -1. */
int hl_output_close(hl_output *o, int ok);

/* Everything written to stdout reached it (a full disk, a closed pipe, a
 * file over quota would otherwise pass silently with exit status 0); if
 * not, says so. */
int hl_stdout_ok(void);
/* After writing to stdout on a thread that may not be the one that calls
 * hl_stdout_ok: keeps the reason of a failed write for its message. */
void hl_stdout_check(void);

#endif
