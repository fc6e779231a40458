/* death: runs a function in a child process and checks that it aborts
 * (SIGABRT) with a message containing the given text on stderr. This is how
 * the debug checks' tests see a detection fire without dying themselves. */
#ifndef HEAPLINT_TESTS_DEATH_H
#define HEAPLINT_TESTS_DEATH_H

#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* Returns NULL when fn aborted with a message containing expect, else a
 * description of what happened instead. */
static const char *hl_death(void (*fn)(void *), void *arg, const char *expect) {
  static char why[4096 + 128];
  static char out[4096];
  int fds[2];
  if (pipe(fds) != 0) return "pipe failed";
  fflush(NULL);
  pid_t pid = fork();
  if (pid < 0) return "fork failed";
  if (pid == 0) {
    signal(SIGABRT, SIG_DFL);
    dup2(fds[1], 2);
    close(fds[0]);
    fn(arg);
    _exit(0);
  }
  close(fds[1]);
  size_t len = 0;
  ssize_t n;
  while ((n = read(fds[0], out + len, sizeof out - 1 - len)) > 0) len += (size_t)n;
  out[len] = '\0';
  close(fds[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  if (!WIFSIGNALED(status) || WTERMSIG(status) != SIGABRT) {
    snprintf(why, sizeof why, "child did not abort (status %d), stderr: %s", status, out);
    return why;
  }
  if (!strstr(out, expect)) {
    snprintf(why, sizeof why, "abort message lacks \"%s\": %s", expect, out);
    return why;
  }
  return NULL;
}

#define assert_dies(fn, arg, expect)                                      \
  do {                                                                    \
    const char *hl_why_ = hl_death((fn), (arg), (expect));                \
    if (hl_why_) fail_msg("%s", hl_why_);                                 \
  } while (0)

#endif
