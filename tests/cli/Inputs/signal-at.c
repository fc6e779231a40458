/* Preloaded into heaplint by signals.test: sends the process the signal
 * named by HL_TEST_SIGNAL (INT or TERM), as a user's Ctrl-C would, at the
 * point named by HL_TEST_SIGNAL_AT:
 *   fsync  the first fsync: heaplint's writer flushing a temporary file,
 *          complete and not yet renamed;
 *   save   libclang's clang_saveTranslationUnit: the analysis saving its
 *          precompiled header to a temporary file, to ask about types. */
#define _GNU_SOURCE
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void signal_if(const char *at) {
  const char *where = getenv("HL_TEST_SIGNAL_AT"), *s = getenv("HL_TEST_SIGNAL");
  if (where && !strcmp(where, at)) kill(getpid(), s && !strcmp(s, "INT") ? SIGINT : SIGTERM);
}

int fsync(int fd) {
  (void)fd;
  signal_if("fsync");
  return 0;
}

int clang_saveTranslationUnit(void *tu, const char *file, unsigned options) {
  (void)tu, (void)file, (void)options;
  signal_if("save");
  return 1; /* CXSaveError_Unknown, had the signal not ended the run */
}
