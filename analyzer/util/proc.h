/* proc: runs child processes (heaplint calibrate's compiler and probe
 * programs, git for --diff) with their output in files, several at a time,
 * and says in words how each one ended.
 *
 * A program that cannot be started at all (not found, not executable) is
 * told apart from one that started and failed: the first is the user's
 * input error, the second what the program itself said. */
#ifndef HEAPLINT_PROC_H
#define HEAPLINT_PROC_H

#include <sys/types.h>

typedef struct hl_proc {
  char **argv;          /* the command (not owned) */
  const char *out_path; /* stdout goes here (NULL: /dev/null) */
  const char *err_path; /* stderr goes here (NULL: /dev/null; out_path: with stdout) */
  unsigned timeout;     /* seconds; 0: none */

  pid_t pid;
  int start_errno;  /* why it could not be started, or 0 */
  int exited, code; /* exited normally, with this status */
  int signal;       /* or was killed by this signal */
  int timed_out;    /* the signal was the time limit's */
} hl_proc;

/* Runs procs[0..n) with at most jobs (>= 1) of them at a time, and waits
 * for all. Each one's outcome is in its struct. */
void hl_proc_run_all(hl_proc *procs, size_t n, unsigned jobs);

/* 1 when p started and exited with status 0. */
int hl_proc_ok(const hl_proc *p);

/* How p ended, for a message: "exited with status 1", "crashed
 * (Segmentation fault)", "timed out after 60 s", "could not be started: No
 * such file or directory". Caller frees. */
char *hl_proc_outcome(const hl_proc *p);

/* The command line of p, quoted where a word needs it. Caller frees. */
char *hl_proc_command(char *const *argv);

#endif
