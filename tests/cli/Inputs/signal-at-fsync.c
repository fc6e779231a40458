/* Preloaded into heaplint by signals.test: the first fsync (heaplint's
 * writer flushing a temporary file before its rename) sends the process the
 * signal named by HL_TEST_SIGNAL, as a user's Ctrl-C at that moment would. */
#define _GNU_SOURCE
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int fsync(int fd) {
  (void)fd;
  const char *s = getenv("HL_TEST_SIGNAL");
  kill(getpid(), s && !strcmp(s, "INT") ? SIGINT : SIGTERM);
  return 0;
}
