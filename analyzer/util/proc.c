#include "util/proc.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "util/util.h"

static int redirect(const char *path, int fd) {
  int f = open(path ? path : "/dev/null", O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (f < 0) return -1;
  int rc = dup2(f, fd) < 0 ? -1 : 0;
  close(f);
  return rc;
}

/* Forks and execs p. An exec that fails reports its errno through a pipe
 * closed on exec, so that "not found" is known here, not guessed from an
 * exit status. */
static void start(hl_proc *p) {
  int fds[2];
  p->pid = -1;
  if (pipe(fds)) {
    p->start_errno = errno;
    return;
  }
  if (fcntl(fds[0], F_SETFD, FD_CLOEXEC) || fcntl(fds[1], F_SETFD, FD_CLOEXEC)) {
    p->start_errno = errno;
    close(fds[0]);
    close(fds[1]);
    return;
  }
  pid_t pid = fork();
  if (pid < 0) {
    p->start_errno = errno;
    close(fds[0]);
    close(fds[1]);
    return;
  }
  if (pid == 0) {
    int e = 0;
    /* One file for both keeps their lines in the order they were written. */
    int same = p->out_path && p->err_path && !strcmp(p->out_path, p->err_path);
    if (redirect(p->out_path, STDOUT_FILENO) ||
        (same ? dup2(STDOUT_FILENO, STDERR_FILENO) < 0 : redirect(p->err_path, STDERR_FILENO) != 0))
      e = errno;
    if (!e) {
      /* The limit survives exec; its SIGALRM ends the child. */
      if (p->timeout) alarm(p->timeout);
      /* A path is run as it is: execvp would hand a program it cannot
       * run (ENOEXEC: one for another machine) to /bin/sh, whose syntax
       * errors would hide the cause. A bare name is looked up in PATH. */
      if (strchr(p->argv[0], '/'))
        execv(p->argv[0], p->argv);
      else
        execvp(p->argv[0], p->argv);
      e = errno;
    }
    ssize_t w = write(fds[1], &e, sizeof e);
    (void)w;
    _exit(127);
  }
  close(fds[1]);
  int e = 0;
  ssize_t r;
  while ((r = read(fds[0], &e, sizeof e)) < 0 && errno == EINTR) {
  }
  close(fds[0]);
  if (r == (ssize_t)sizeof e) {
    p->start_errno = e;
    while (waitpid(pid, NULL, 0) < 0 && errno == EINTR) {
    }
    return;
  }
  p->pid = pid;
}

static void finish(hl_proc *p, int status) {
  p->pid = -1;
  if (WIFEXITED(status)) {
    p->exited = 1;
    p->code = WEXITSTATUS(status);
  } else if (WIFSIGNALED(status)) {
    p->signal = WTERMSIG(status);
    p->timed_out = p->timeout && p->signal == SIGALRM;
  }
}

void hl_proc_run_all(hl_proc *procs, size_t n, unsigned jobs) {
  size_t next = 0, running = 0;
  if (jobs == 0) jobs = 1;
  while (next < n || running > 0) {
    while (next < n && running < jobs) {
      start(&procs[next]);
      if (procs[next].pid > 0) running++;
      next++;
    }
    if (running == 0) continue;
    int status;
    pid_t pid = waitpid(-1, &status, 0);
    if (pid < 0) {
      if (errno == EINTR) continue;
      break; /* no children left: nothing more to wait for */
    }
    for (size_t i = 0; i < next; i++)
      if (procs[i].pid == pid) {
        finish(&procs[i], status);
        running--;
        break;
      }
  }
}

int hl_proc_ok(const hl_proc *p) { return !p->start_errno && p->exited && p->code == 0; }

char *hl_proc_outcome(const hl_proc *p) {
  if (p->start_errno) return hl_xasprintf("could not be started: %s", strerror(p->start_errno));
  if (p->timed_out) return hl_xasprintf("timed out after %u s", p->timeout);
  if (p->signal) return hl_xasprintf("crashed (%s)", strsignal(p->signal));
  return hl_xasprintf("exited with status %d", p->code);
}

static int plain_word(const char *s) {
  if (!*s) return 0;
  for (; *s; s++)
    if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_=+./,:@%", *s)) return 0;
  return 1;
}

char *hl_proc_command(char *const *argv) {
  hl_sb b = {0};
  for (size_t i = 0; argv[i]; i++) {
    if (i) hl_sb_putc(&b, ' ');
    if (plain_word(argv[i])) {
      hl_sb_puts(&b, argv[i]);
      continue;
    }
    hl_sb_putc(&b, '\'');
    for (const char *s = argv[i]; *s; s++)
      if (*s == '\'')
        hl_sb_puts(&b, "'\\''");
      else
        hl_sb_putc(&b, *s);
    hl_sb_putc(&b, '\'');
  }
  return hl_sb_take(&b);
}
