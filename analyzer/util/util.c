#include "util/util.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static void out_of_memory(size_t n) {
  fprintf(stderr, "heaplint: fatal: out of memory (allocating %zu bytes)\n", n);
  abort();
}

void *hl_xmalloc(size_t n) {
  void *p = malloc(n ? n : 1);
  if (!p) out_of_memory(n);
  return p;
}

void *hl_xcalloc(size_t n, size_t size) {
  void *p = calloc(n ? n : 1, size ? size : 1);
  if (!p) out_of_memory(n * size);
  return p;
}

void *hl_xrealloc(void *p, size_t n) {
  void *q = realloc(p, n ? n : 1);
  if (!q) out_of_memory(n);
  return q;
}

char *hl_xstrdup(const char *s) { return hl_xstrndup(s, strlen(s)); }

char *hl_xstrndup(const char *s, size_t n) {
  char *p = hl_xmalloc(n + 1);
  memcpy(p, s, n);
  p[n] = '\0';
  return p;
}

FILE *hl_xmemstream(char **buf, size_t *len) {
  *buf = NULL;
  *len = 0;
  FILE *f = open_memstream(buf, len);
  if (!f) {
    fprintf(stderr, "heaplint: fatal: cannot buffer messages (out of memory)\n");
    abort();
  }
  return f;
}

char *hl_xasprintf(const char *fmt, ...) {
  hl_sb b = {0};
  va_list ap;
  va_start(ap, fmt);
  hl_sb_vprintf(&b, fmt, ap);
  va_end(ap);
  return hl_sb_take(&b);
}

void hl_grow(void **arr, size_t *cap, size_t need, size_t elem) {
  if (need <= *cap) return;
  size_t n = *cap ? *cap : 8;
  while (n < need) n *= 2;
  *arr = hl_xrealloc(*arr, n * elem);
  *cap = n;
}

void hl_sb_putn(hl_sb *b, const char *s, size_t n) {
  hl_grow((void **)&b->s, &b->cap, b->len + n + 1, 1);
  memcpy(b->s + b->len, s, n);
  b->len += n;
  b->s[b->len] = '\0';
}

void hl_sb_puts(hl_sb *b, const char *s) { hl_sb_putn(b, s, strlen(s)); }

void hl_sb_putc(hl_sb *b, char c) { hl_sb_putn(b, &c, 1); }

void hl_sb_vprintf(hl_sb *b, const char *fmt, va_list ap) {
  va_list copy;
  va_copy(copy, ap);
  int n = vsnprintf(NULL, 0, fmt, copy);
  va_end(copy);
  if (n < 0) return;
  hl_grow((void **)&b->s, &b->cap, b->len + (size_t)n + 1, 1);
  vsnprintf(b->s + b->len, (size_t)n + 1, fmt, ap);
  b->len += (size_t)n;
}

void hl_sb_printf(hl_sb *b, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  hl_sb_vprintf(b, fmt, ap);
  va_end(ap);
}

const char *hl_sb_str(const hl_sb *b) { return b->s ? b->s : ""; }

char *hl_sb_take(hl_sb *b) {
  char *s = b->s ? b->s : hl_xstrdup("");
  b->s = NULL;
  b->len = b->cap = 0;
  return s;
}

void hl_sb_free(hl_sb *b) {
  free(b->s);
  b->s = NULL;
  b->len = b->cap = 0;
}

/* 0 when st is a regular file heaplint may read whole (at most max
 * bytes), else the error. */
static int readable(const struct stat *st, size_t max) {
  if (S_ISDIR(st->st_mode)) return EISDIR;
  if (!S_ISREG(st->st_mode)) return HL_READ_NOT_REGULAR;
  if (st->st_size < 0 || (unsigned long long)st->st_size > max) return HL_READ_TOO_BIG;
  return 0;
}

/* Opens path for reading if it is a regular file heaplint may read whole.
 * stat first: opening a device can have effects of its own (a tape
 * rewinds); then O_NONBLOCK and fstat, in case path was swapped for a FIFO
 * in between (opening it for reading would wait for a writer). Returns the
 * descriptor, or -1 with *err set to hl_read_file's error code (and *size
 * to the file's size when it is too big). */
static int open_regular(const char *path, size_t max, int *err, size_t *size) {
  struct stat st;
  if (stat(path, &st) != 0) return *err = errno, -1;
  *size = st.st_size > 0 ? (size_t)st.st_size : 0;
  if ((*err = readable(&st, max)) != 0) return -1;
  int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) return *err = errno, -1;
  *err = fstat(fd, &st) != 0 ? errno : readable(&st, max);
  *size = st.st_size > 0 ? (size_t)st.st_size : 0;
  if (*err) {
    close(fd);
    return -1;
  }
  return fd;
}

int hl_check_file(const char *path) {
  int err;
  size_t size;
  int fd = open_regular(path, HL_READ_MAX, &err, &size);
  if (fd >= 0) close(fd);
  return err;
}

/* The rest of fd, at most max bytes: 0 or the error code (*len then the
 * size read so far when it grew past max while read). */
static int read_all(int fd, size_t max, char **data, size_t *len) {
  int err = 0;
  hl_sb b = {0};
  char chunk[65536];
  while (!err) {
    ssize_t n = read(fd, chunk, sizeof chunk);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0)
      err = errno;
    else if (n == 0)
      break;
    else if (b.len + (size_t)n > max)
      err = HL_READ_TOO_BIG, *len = b.len + (size_t)n; /* it grew while read */
    else
      hl_sb_putn(&b, chunk, (size_t)n);
  }
  if (err) {
    hl_sb_free(&b);
    return err;
  }
  *len = b.len;
  *data = hl_sb_take(&b);
  return 0;
}

int hl_read_file_max(const char *path, size_t max, char **data, size_t *len) {
  int err;
  if (max > HL_READ_MAX) max = HL_READ_MAX;
  int fd = open_regular(path, max, &err, len);
  if (fd < 0) return err;
  err = read_all(fd, max, data, len);
  close(fd);
  return err;
}

int hl_read_file(const char *path, char **data, size_t *len) { return hl_read_file_max(path, HL_READ_MAX, data, len); }

/* As open_regular, with name itself never followed: by fstatat first,
 * then O_NOFOLLOW in case it was swapped for a link in between. */
int hl_read_file_at(int dirfd, const char *name, char **data, size_t *len) {
  struct stat st;
  if (fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW) != 0) return errno;
  if (S_ISLNK(st.st_mode)) return HL_READ_LINK;
  int err = readable(&st, HL_READ_MAX);
  if (err) return err;
  int fd = openat(dirfd, name, O_RDONLY | O_NONBLOCK | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0) return errno == ELOOP ? HL_READ_LINK : errno;
  err = fstat(fd, &st) != 0 ? errno : readable(&st, HL_READ_MAX);
  if (!err) err = read_all(fd, HL_READ_MAX, data, len);
  close(fd);
  return err;
}

const char *hl_read_error(int code) {
  switch (code) {
  case EISDIR: return "is a directory";
  case HL_READ_NOT_REGULAR: return "not a regular file";
  case HL_READ_LINK: return "a symbolic link, not followed";
  case HL_READ_TOO_BIG: return "larger than 256 MiB, the most heaplint reads of a file";
  default: return strerror(code);
  }
}

void hl_size_text(char *buf, size_t n, unsigned long long v) {
  static const char *const units[] = {"KiB", "MiB", "GiB"};
  if (v < 1024) {
    snprintf(buf, n, "%llu byte%s", v, v == 1 ? "" : "s");
    return;
  }
  int u = 0;
  while (u < 2 && v >= (1024ULL << (10 * (u + 1)))) u++;
  unsigned long long unit = 1024ULL << (10 * u);
  if (v % unit == 0)
    snprintf(buf, n, "%llu %s", v / unit, units[u]);
  else
    snprintf(buf, n, "%.1f %s", (double)v / (double)unit, units[u]);
}

char *hl_read_failure(int code, size_t size, size_t max, const char *what) {
  if (code != HL_READ_TOO_BIG) return hl_xstrdup(hl_read_error(code));
  char have[32], most[32];
  hl_size_text(have, sizeof have, size);
  hl_size_text(most, sizeof most, max > HL_READ_MAX ? HL_READ_MAX : max);
  /* The exact count too: "1.0 MiB" can be a little over 1 MiB. */
  if (size >= 1024)
    return hl_xasprintf("%zu bytes (%s), more than the %s heaplint reads of %s", size, have, most, what);
  return hl_xasprintf("%s, more than the %s heaplint reads of %s", have, most, what);
}

/* 0666 less the process's umask: the mode of a newly created file. */
static mode_t new_file_mode(void) {
  mode_t mask = umask(0);
  umask(mask);
  return 0666 & ~mask;
}

/* ---- temporary files removed on SIGINT, SIGTERM, SIGHUP ---- */

/* Fixed storage, no malloc: the handler may only read it and unlink. A slot
 * is in use while its flag is set; the path is complete before that. */
#define MAX_TEMPS 64
static char temp_paths[MAX_TEMPS][PATH_MAX];
static volatile sig_atomic_t temp_used[MAX_TEMPS];
static pthread_mutex_t temp_lock = PTHREAD_MUTEX_INITIALIZER;
static const int temp_signals[] = {SIGINT, SIGTERM, SIGHUP};
static struct sigaction temp_old[3];

static void remove_temps(int sig) {
  for (int i = 0; i < MAX_TEMPS; i++)
    if (temp_used[i]) unlink(temp_paths[i]);
  /* A tracked directory, once the files in it are gone. */
  for (int i = 0; i < MAX_TEMPS; i++)
    if (temp_used[i]) rmdir(temp_paths[i]);
  /* Then what would have happened without us: the previous handler, or
   * the default action (the end of the run, with the signal's status). */
  for (int i = 0; i < 3; i++)
    if (temp_signals[i] == sig) sigaction(sig, &temp_old[i], NULL);
  raise(sig);
}

/* Installed once, for the signals that are not ignored (nohup's SIGHUP, a
 * background job's SIGINT stay ignored). */
static void install_temp_handlers(void) {
  static int installed;
  if (installed) return;
  installed = 1;
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = remove_temps;
  sigemptyset(&sa.sa_mask);
  for (int i = 0; i < 3; i++) {
    if (sigaction(temp_signals[i], NULL, &temp_old[i]) != 0 || temp_old[i].sa_handler == SIG_IGN) continue;
    sigaction(temp_signals[i], &sa, NULL);
  }
}

int hl_temp_track(const char *path) {
  if (strlen(path) >= PATH_MAX) return -1;
  pthread_mutex_lock(&temp_lock);
  install_temp_handlers();
  int slot = -1;
  for (int i = 0; i < MAX_TEMPS && slot < 0; i++)
    if (!temp_used[i]) slot = i;
  if (slot >= 0) {
    strcpy(temp_paths[slot], path);
    temp_used[slot] = 1;
  }
  pthread_mutex_unlock(&temp_lock);
  return slot;
}

void hl_temp_untrack(int slot) {
  if (slot < 0) return;
  pthread_mutex_lock(&temp_lock);
  temp_used[slot] = 0;
  pthread_mutex_unlock(&temp_lock);
}

/* ---- writing ---- */

static int write_all(int fd, const char *data, size_t len) {
  for (size_t done = 0; done < len;) {
    ssize_t n = write(fd, data + done, len - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      if (n == 0) errno = EIO;
      return -1;
    }
    done += (size_t)n;
  }
  return 0;
}

int hl_write_all(int fd, const char *data, size_t len) { return write_all(fd, data, len); }

/* A device or a FIFO (/dev/null, a shell's >(...)) is written into, as a
 * shell's redirection would: replacing it by a regular file would destroy
 * it (as root, /dev/null for the whole system). So is the file standard
 * output or standard error is open on (std_fd >= 0): /dev/stdout, a link
 * to /proc/self/fd/1, or that file by its name — through the descriptor
 * itself, at its offset (a shell's >> appends), after what stdio holds:
 * a regular file there would otherwise be replaced by a new one. */
static int write_into(const char *path, int std_fd, const char *data, size_t len, char **err) {
  if (std_fd >= 0) fflush(std_fd == STDOUT_FILENO ? stdout : stderr);
  int fd = std_fd >= 0 ? std_fd : open(path, O_WRONLY | O_CLOEXEC);
  int ok = fd >= 0 && write_all(fd, data, len) == 0;
  int saved = errno;
  if (fd >= 0 && std_fd < 0 && close(fd) != 0 && ok) {
    ok = 0;
    saved = errno;
  }
  if (!ok) *err = hl_xasprintf("%s: cannot write: %s", path, strerror(saved));
  return ok ? 0 : -1;
}

/* STDOUT_FILENO or STDERR_FILENO when st is the file that descriptor is
 * open on, else -1. */
static int std_fd_of(const struct stat *st) {
  static const int fds[] = {STDOUT_FILENO, STDERR_FILENO};
  struct stat fs;
  for (size_t i = 0; i < sizeof fds / sizeof *fds; i++)
    if (fstat(fds[i], &fs) == 0 && fs.st_dev == st->st_dev && fs.st_ino == st->st_ino) return fds[i];
  return -1;
}

/* Gives the new file fd the owner and group of the file st describes, when
 * they differ from what it got. Returns 0, or -1 with errno. */
static int keep_owner(int fd, const struct stat *st) {
  struct stat fs;
  if (fstat(fd, &fs) != 0) return -1;
  if (fs.st_uid == st->st_uid && fs.st_gid == st->st_gid) return 0;
  return fchown(fd, st->st_uid, st->st_gid);
}

int hl_write_file_atomic_mode(const char *path, const char *data, size_t len, mode_t mode, char **err) {
  struct stat st;
  int exists = stat(path, &st) == 0, std_fd = exists ? std_fd_of(&st) : -1;
  if (std_fd >= 0) return write_into(path, std_fd, data, len, err);
  if (exists && !S_ISREG(st.st_mode)) {
    if (!S_ISDIR(st.st_mode)) return write_into(path, -1, data, len, err);
    *err = hl_xasprintf("%s: cannot write: is a directory", path);
    return -1;
  }
  /* Through a symbolic link, the file it points to is replaced: the link
   * stays a link. */
  char real[PATH_MAX];
  const char *target = realpath(path, real) ? real : path;
  char *tmp = hl_xasprintf("%s.XXXXXX", target);
  int fd = mkstemp(tmp); /* 0600 until the fchmod below */
  if (fd < 0) {
    *err = hl_xasprintf("%s: cannot write: %s", path, strerror(errno));
    free(tmp);
    return -1;
  }
  int slot = hl_temp_track(tmp);
  /* The file keeps its owner and group: root (a CI container over a bind
   * mount, sudo) must not hand a user's file to root. The owner goes first:
   * changing it clears the set-user-ID bit fchmod then sets. */
  int owned = !exists || keep_owner(fd, &st) == 0;
  int ok = owned && write_all(fd, data, len) == 0 && fchmod(fd, mode & 07777) == 0 && fsync(fd) == 0;
  int saved = errno;
  if (close(fd) != 0 && ok) {
    ok = 0;
    saved = errno;
  }
  /* Only a regular file is ever renamed over (one may have been put in its
   * place while this was written). */
  if (ok && lstat(target, &st) == 0 && !S_ISREG(st.st_mode)) {
    ok = 0;
    saved = EEXIST;
  }
  if (ok && rename(tmp, target) != 0) {
    ok = 0;
    saved = errno;
  }
  if (!ok) {
    *err = saved == EEXIST ? hl_xasprintf("%s: cannot write: it is no longer a regular file", path)
           : !owned        ? hl_xasprintf(
                          "%s: not replaced: its copy cannot keep the file's owner and group "
                                 "(%ld:%ld): %s",
                          path, (long)st.st_uid, (long)st.st_gid, strerror(saved))
                    : hl_xasprintf("%s: cannot write: %s", path, strerror(saved));
    unlink(tmp);
  }
  hl_temp_untrack(slot);
  free(tmp);
  return ok ? 0 : -1;
}

int hl_write_file_atomic(const char *path, const char *data, size_t len, char **err) {
  return hl_write_file_atomic_mode(path, data, len, new_file_mode(), err);
}

static char *current_dir;

void hl_paths_init(void) {
  if (current_dir) return;
  char buf[PATH_MAX];
  current_dir = hl_xstrdup(getcwd(buf, sizeof buf) ? buf : "/");
}

static const char *cwd_copy(void) {
  hl_paths_init();
  return current_dir;
}

char *hl_abspath(const char *path) {
  char buf[PATH_MAX];
  if (realpath(path, buf)) return hl_xstrdup(buf);
  if (path[0] == '/') return hl_xstrdup(path);
  return hl_xasprintf("%s/%s", cwd_copy(), path);
}

char *hl_uri_escape(const char *path) {
  hl_sb b = {0};
  hl_sb_puts(&b, "");
  for (const unsigned char *p = (const unsigned char *)path; *p; p++) {
    if (isalnum(*p) || strchr("-._~/", *p))
      hl_sb_putc(&b, (char)*p);
    else
      hl_sb_printf(&b, "%%%02X", *p);
  }
  return hl_sb_take(&b);
}

/* An absolute path with "." and ".." components and repeated slashes
 * resolved by the text alone (a ".." above "/" stays at "/"). */
static char *lexical_normal(const char *path) {
  hl_sb b = {0};
  hl_sb_puts(&b, "");
  for (const char *p = path; *p;) {
    while (*p == '/') p++;
    size_t n = strcspn(p, "/");
    int dot = n == 1 && p[0] == '.', dotdot = n == 2 && p[0] == '.' && p[1] == '.';
    char *last = dotdot ? strrchr(b.s, '/') : NULL;
    if (last)
      *last = '\0', b.len = (size_t)(last - b.s);
    else if (n && !dot && !dotdot)
      hl_sb_printf(&b, "/%.*s", (int)n, p);
    p += n;
  }
  if (!b.len) hl_sb_putc(&b, '/');
  return hl_sb_take(&b);
}

char *hl_exe_relative(const char *rel, const char *fallback) {
  char exe[PATH_MAX];
  ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
  if (n <= 0) return hl_xstrdup(fallback);
  exe[n] = '\0';
  char *slash = strrchr(exe, '/');
  if (slash) *slash = '\0';
  char *joined = hl_xasprintf("%s/%s", exe, rel);
  char buf[PATH_MAX];
  /* A directory that does not exist (docs not installed) keeps no "..":
   * the link is still a valid URI path (SARIF1002), and exe is canonical,
   * so dropping a component for each ".." names what realpath would. */
  char *out = realpath(joined, buf) ? hl_xstrdup(buf) : lexical_normal(joined);
  free(joined);
  return out;
}

char *hl_abspath_link(const char *path) {
  const char *slash = strrchr(path, '/');
  const char *name = slash ? slash + 1 : path;
  char *dir = slash ? hl_xstrndup(path, (size_t)(slash - path) + (slash == path)) : hl_xstrdup(".");
  char buf[PATH_MAX], *out;
  if (*name && strcmp(name, ".") && strcmp(name, "..") && realpath(dir, buf)) {
    out = hl_xasprintf("%s/%s", strcmp(buf, "/") ? buf : "", name);
  } else {
    char *abs = path[0] == '/' ? hl_xstrdup(path) : hl_xasprintf("%s/%s", cwd_copy(), path);
    out = lexical_normal(abs);
    free(abs);
  }
  free(dir);
  return out;
}

/* The canonical path of path, which need not exist: its directory's
 * canonical path and its name. */
static char *canonical(const char *path) {
  char buf[PATH_MAX];
  if (realpath(path, buf)) return hl_xstrdup(buf);
  const char *slash = strrchr(path, '/');
  char *dir = slash ? hl_xstrndup(path, (size_t)(slash - path) + (slash == path)) : hl_xstrdup(".");
  char *out = realpath(dir, buf) ? hl_xasprintf("%s/%s", strcmp(buf, "/") ? buf : "", slash ? slash + 1 : path)
                                 : hl_abspath(path);
  free(dir);
  return out;
}

int hl_same_file(const char *a, const char *b) {
  struct stat sa, sb;
  int ea = stat(a, &sa) == 0, eb = stat(b, &sb) == 0;
  if (ea && eb) return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
  if (ea != eb) return 0;
  char *ca = canonical(a), *cb = canonical(b);
  int same = !strcmp(ca, cb);
  free(ca);
  free(cb);
  return same;
}

const char *hl_display_path(const char *abs) {
  const char *cwd = cwd_copy();
  size_t n = strlen(cwd);
  if (n > 1 && strncmp(abs, cwd, n) == 0 && abs[n] == '/') return abs + n + 1;
  return abs;
}

size_t hl_line_end(const char *text, size_t size, size_t pos, size_t *content) {
  size_t i = pos;
  while (i < size && text[i] != '\n' && text[i] != '\r') i++;
  if (content) *content = i - pos;
  if (i == size) return size;
  return text[i] == '\r' && i + 1 < size && text[i + 1] == '\n' ? i + 2 : i + 1;
}

int hl_ends_with(const char *s, const char *suffix) {
  size_t a = strlen(s), b = strlen(suffix);
  return a >= b && memcmp(s + a - b, suffix, b) == 0;
}

int hl_starts_with(const char *s, const char *prefix) { return strncmp(s, prefix, strlen(prefix)) == 0; }

unsigned long long hl_fnv1a_more(unsigned long long h, const void *data, size_t n) {
  const unsigned char *p = data;
  for (size_t i = 0; i < n; i++) {
    h ^= p[i];
    h *= 0x100000001b3ULL;
  }
  return h;
}

unsigned long long hl_fnv1a(const void *data, size_t n) { return hl_fnv1a_more(0xcbf29ce484222325ULL, data, n); }

/* The length of the valid UTF-8 sequence at p (1 to 4), or 0: overlong
 * forms, surrogates and code points above U+10FFFF are not valid. */
static size_t utf8_sequence(const unsigned char *p) {
  if (p[0] < 0x80) return 1;
  size_t n;
  unsigned cp;
  if (p[0] >= 0xC2 && p[0] <= 0xDF)
    n = 2, cp = p[0] & 0x1F;
  else if (p[0] >= 0xE0 && p[0] <= 0xEF)
    n = 3, cp = p[0] & 0x0F;
  else if (p[0] >= 0xF0 && p[0] <= 0xF4)
    n = 4, cp = p[0] & 0x07;
  else
    return 0;
  for (size_t i = 1; i < n; i++) {
    if ((p[i] & 0xC0) != 0x80) return 0; /* also stops at the terminating NUL */
    cp = cp << 6 | (p[i] & 0x3F);
  }
  if ((n == 3 && cp < 0x800) || (n == 4 && cp < 0x10000) || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return 0;
  return n;
}

int hl_utf8_is_valid(const char *s) {
  for (const unsigned char *p = (const unsigned char *)s; *p;) {
    size_t n = utf8_sequence(p);
    if (!n) return 0;
    p += n;
  }
  return 1;
}

size_t hl_utf16_units(const char *s, size_t n) {
  size_t units = 0;
  for (size_t i = 0; i < n;) {
    size_t k = utf8_sequence((const unsigned char *)s + i);
    if (!k || k > n - i) k = 1;
    units += k == 4 ? 2 : 1;
    i += k;
  }
  return units;
}

char *hl_utf8_sanitize(const char *s) {
  hl_sb b = {0};
  hl_sb_puts(&b, "");
  for (const unsigned char *p = (const unsigned char *)s; *p;) {
    size_t n = utf8_sequence(p);
    if (n) {
      hl_sb_putn(&b, (const char *)p, n);
      p += n;
    } else {
      hl_sb_puts(&b, "\xEF\xBF\xBD"); /* U+FFFD REPLACEMENT CHARACTER */
      p++;
    }
  }
  return hl_sb_take(&b);
}

const char *hl_option_value(int argc, char **argv, int *i, const char *name, int *matched) {
  const char *a = argv[*i];
  size_t n = strlen(name);
  *matched = 0;
  if (strncmp(a, name, n)) return NULL;
  if (a[n] == '=') {
    *matched = 1;
    return a + n + 1;
  }
  if (a[n] == '\0') {
    *matched = 1;
    return *i + 1 < argc ? argv[++*i] : NULL;
  }
  if (name[1] != '-' && n == 2) { /* -pDIR */
    *matched = 1;
    return a + n;
  }
  return NULL;
}

char *hl_inline_type(const char *written, const char *replacement, long capacity, long align) {
  const char *lt = strchr(written, '<');
  const char *gt = strrchr(written, '>');
  if (!lt || !gt || gt < lt) return NULL;
  hl_sb b = {0};
  hl_sb_puts(&b, replacement);
  hl_sb_putn(&b, lt, (size_t)(gt - lt));
  hl_sb_printf(&b, ", %ld", capacity);
  if (align > 16) hl_sb_printf(&b, ", %ld", align);
  hl_sb_putc(&b, '>');
  return hl_sb_take(&b);
}
