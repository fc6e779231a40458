#include "fuzz_files.h"

#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char dir[256];

static void remove_dir(void) {
  DIR *d = opendir(dir);
  if (!d) return;
  struct dirent *e;
  char path[512];
  while ((e = readdir(d)))
    if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) {
      snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
      unlink(path);
    }
  closedir(d);
  rmdir(dir);
}

const char *hl_fuzz_dir(void) {
  if (!dir[0]) {
    const char *tmp = getenv("TMPDIR");
    snprintf(dir, sizeof dir, "%s/heaplint-fuzz.XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(dir)) {
      perror("heaplint fuzz: mkdtemp");
      abort();
    }
    atexit(remove_dir);
  }
  return dir;
}

const char *hl_fuzz_write(const char *name, const uint8_t *data, size_t size) {
  static char path[512];
  snprintf(path, sizeof path, "%s/%s", hl_fuzz_dir(), name);
  /* A new file each time: rewriting one in place (O_TRUNC) makes ext4
   * flush it to disk on close, which would slow the run a hundredfold. */
  unlink(path);
  int fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0600);
  if (fd < 0 || (size && write(fd, data, size) != (ssize_t)size) || close(fd) != 0) {
    perror("heaplint fuzz: writing the input");
    abort();
  }
  return path;
}
