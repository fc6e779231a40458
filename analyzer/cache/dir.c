#include "cache/dir.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "util/util.h"

#define TAG_NAME "CACHEDIR.TAG"
/* The standard's first line, then ours: a directory another program tagged
 * (ccache's, a build tool's) is not heaplint's to fill or trim. */
#define TAG_HEAD                                  \
  "Signature: 8a477f597d28d172789f06886806bc55\n" \
  "# This file is a cache directory tag created by heaplint: its result cache (--cache-dir).\n"
#define TAG_TEXT TAG_HEAD "# For information about cache directory tags, see https://bford.info/cachedir/\n"
/* A temporary file this old was left by a run that was killed. */
#define ABANDONED_NS (60LL * 60 * 1000000000LL)

struct hl_cache_dir {
  char *path;
  int fd;               /* the root, opened once: every access is relative to it */
  pthread_mutex_t lock; /* guards seq */
  unsigned seq;
};

static long long now_ns(void) {
  struct timespec t;
  clock_gettime(CLOCK_REALTIME, &t);
  return (long long)t.tv_sec * 1000000000LL + t.tv_nsec;
}

/* ---- the names heaplint makes, matched exactly ---- */

static int lower_hex(const char *s, size_t n) {
  for (size_t i = 0; i < n; i++)
    if (!((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'f'))) return 0;
  return 1;
}

/* <14 hex digits>.json */
static int is_entry_name(const char *s) { return strlen(s) == 19 && lower_hex(s, 14) && !strcmp(s + 14, ".json"); }

/* <base>.tmp-<8 hex digits>, base being n bytes long. */
static int is_temp_of(const char *s, size_t n) {
  return strlen(s) == n + 13 && !memcmp(s + n, ".tmp-", 5) && lower_hex(s + n + 5, 8);
}

static int is_entry_temp(const char *s) {
  char base[20];
  if (strlen(s) < 19) return 0;
  memcpy(base, s, 19);
  base[19] = '\0';
  return is_entry_name(base) && is_temp_of(s, 19);
}

static int is_tag_temp(const char *s) {
  return !strncmp(s, TAG_NAME, strlen(TAG_NAME)) && is_temp_of(s, strlen(TAG_NAME));
}

static int is_sub_name(const char *s) { return strlen(s) == 2 && lower_hex(s, 2); }

static void sub_name(unsigned long long h, char out[3]) { snprintf(out, 3, "%02llx", h >> 56); }
static void entry_name(unsigned long long h, char out[20]) {
  snprintf(out, 20, "%014llx.json", h & 0xffffffffffffffULL);
}

/* A name for a temporary file next to base, unique among the runs and
 * threads writing at once (O_EXCL catches the rest). */
static void temp_name(hl_cache_dir *D, const char *base, char *out, size_t size) {
  pthread_mutex_lock(&D->lock);
  unsigned seq = D->seq++;
  pthread_mutex_unlock(&D->lock);
  long long parts[] = {(long long)getpid(), seq, now_ns()};
  snprintf(out, size, "%s.tmp-%08llx", base, hl_fnv1a(parts, sizeof parts) & 0xffffffffULL);
}

static const char *kind_of(mode_t m) {
  if (S_ISLNK(m)) return "a symbolic link";
  if (S_ISDIR(m)) return "a directory";
  if (S_ISFIFO(m)) return "a FIFO";
  if (S_ISSOCK(m)) return "a socket";
  return "a device";
}

/* ---- the root and its tag ---- */

/* The root's own path may go through links: the user chose it. */
static int mkdir_p(const char *dir) {
  struct stat st;
  if (stat(dir, &st) == 0) return S_ISDIR(st.st_mode) ? 0 : (errno = ENOTDIR, -1);
  char *parent = hl_xstrdup(dir);
  char *slash = strrchr(parent, '/');
  int rc = 0;
  if (slash && slash != parent) {
    *slash = '\0';
    rc = mkdir_p(parent);
  }
  free(parent);
  if (rc == 0 && mkdir(dir, 0777) != 0 && errno != EEXIST) rc = -1;
  return rc;
}

/* 1 when the root has heaplint's tag, 0 when it has none, -1 with *why
 * when CACHEDIR.TAG is something else. */
static int has_tag(const hl_cache_dir *D, char **why) {
  char *text = NULL;
  size_t len = 0;
  int err = hl_read_file_at(D->fd, TAG_NAME, &text, &len);
  if (err == ENOENT) return 0;
  int ours = !err && len >= strlen(TAG_HEAD) && !memcmp(text, TAG_HEAD, strlen(TAG_HEAD));
  if (!ours)
    *why = err ? hl_xasprintf("its %s cannot be read: %s", TAG_NAME, hl_read_error(err))
           : hl_starts_with(text, "Signature: 8a477f597d28d172789f06886806bc55\n")
               ? hl_xasprintf("its %s says it is another program's cache", TAG_NAME)
               : hl_xasprintf("its %s is not a cache directory tag", TAG_NAME);
  free(text);
  return ours ? 1 : -1;
}

/* Whether the root holds nothing, or only what a run marking it at the
 * same time makes (another shard starting on the same new directory). */
static int is_empty(const hl_cache_dir *D) {
  int fd = openat(D->fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
  if (!d) {
    if (fd >= 0) close(fd);
    return 0;
  }
  struct dirent *de;
  int empty = 1;
  while (empty && (de = readdir(d)))
    empty = !strcmp(de->d_name, ".") || !strcmp(de->d_name, "..") || !strcmp(de->d_name, TAG_NAME) ||
            is_tag_temp(de->d_name);
  closedir(d);
  return empty;
}

/* Writes the tag whole under a temporary name, then links it into place: a
 * run that looks meanwhile sees no tag or all of it, and of two runs
 * marking the directory at once one links, the other finds it there. */
static int write_tag(hl_cache_dir *D) {
  char tmp[64];
  temp_name(D, TAG_NAME, tmp, sizeof tmp);
  int fd = openat(D->fd, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
  if (fd < 0) return -1;
  int ok = hl_write_all(fd, TAG_TEXT, strlen(TAG_TEXT)) == 0;
  int saved = errno;
  if (close(fd) != 0 && ok) ok = 0, saved = errno;
  /* A file system without hard links: a rename, which may only replace
   * the same text linked by another run. */
  if (ok && linkat(D->fd, tmp, D->fd, TAG_NAME, 0) != 0 && errno != EEXIST &&
      renameat(D->fd, tmp, D->fd, TAG_NAME) != 0)
    ok = 0, saved = errno;
  unlinkat(D->fd, tmp, 0);
  errno = saved;
  return ok ? 0 : -1;
}

/* NULL when the root is heaplint's cache (marked now if it was empty),
 * else why not (malloc'd). */
static char *claim(hl_cache_dir *D) {
  char *why = NULL;
  int tag = has_tag(D, &why);
  if (tag) return tag > 0 ? NULL : why;
  if (!is_empty(D)) {
    /* Unless another run marked it while this one looked. */
    tag = has_tag(D, &why);
    if (tag) return tag > 0 ? NULL : why;
    return hl_xasprintf(
        "it is not empty and has no %s of heaplint's (heaplint makes its cache only in a new or "
        "empty directory)",
        TAG_NAME);
  }
  if (write_tag(D) != 0) return hl_xasprintf("cannot write its %s: %s", TAG_NAME, strerror(errno));
  tag = has_tag(D, &why);
  return tag > 0 ? NULL : tag < 0 ? why : hl_xasprintf("its %s vanished", TAG_NAME);
}

hl_cache_dir *hl_cache_dir_open(const char *dir, char **err) {
  int fd = mkdir_p(dir) == 0 ? open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC) : -1;
  if (fd < 0) {
    *err = hl_xasprintf("%s: cannot use it as the cache directory: %s", dir, strerror(errno));
    return NULL;
  }
  hl_cache_dir *D = hl_xcalloc(1, sizeof *D);
  D->path = hl_xstrdup(dir);
  D->fd = fd;
  pthread_mutex_init(&D->lock, NULL);
  char *why = claim(D);
  if (why) {
    *err = hl_xasprintf("%s: not used as the cache directory: %s", dir, why);
    free(why);
    hl_cache_dir_close(D);
    return NULL;
  }
  return D;
}

void hl_cache_dir_close(hl_cache_dir *D) {
  if (!D) return;
  close(D->fd);
  pthread_mutex_destroy(&D->lock);
  free(D->path);
  free(D);
}

/* ---- entries ---- */

/* root/rel as messages show it (malloc'd). */
static char *shown(const hl_cache_dir *D, const char *rel) {
  char *full = hl_xasprintf("%s/%s", D->path, rel);
  char *s = hl_xstrdup(hl_display_path(full));
  free(full);
  return s;
}

char *hl_cache_dir_entry_path(const hl_cache_dir *D, unsigned long long h) {
  char sub[3], name[20];
  sub_name(h, sub);
  entry_name(h, name);
  return hl_xasprintf("%s/%s/%s", D->path, sub, name);
}

/* The subdirectory sub, never through a link (ELOOP, or ENOTDIR for what
 * is not a directory); made first when create. A descriptor, or -1. */
static int open_sub(const hl_cache_dir *D, const char *sub, int create) {
  if (create && mkdirat(D->fd, sub, 0777) != 0 && errno != EEXIST) return -1;
  return openat(D->fd, sub, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
}

/* Why sub cannot be used (open_sub's errno), malloc'd. */
static char *sub_error(const hl_cache_dir *D, const char *sub, int err) {
  struct stat st;
  char *where = shown(D, sub), *why;
  if (fstatat(D->fd, sub, &st, AT_SYMLINK_NOFOLLOW) == 0 && !S_ISDIR(st.st_mode))
    why = hl_xasprintf("%s is %s, not a directory heaplint made", where,
                       S_ISREG(st.st_mode) ? "a file" : kind_of(st.st_mode));
  else
    why = hl_xasprintf("%s: %s", where, strerror(err));
  free(where);
  return why;
}

int hl_cache_dir_read(hl_cache_dir *D, unsigned long long h, char **text, size_t *len, char **why) {
  char sub[3], name[20];
  sub_name(h, sub);
  entry_name(h, name);
  int fd = open_sub(D, sub, 0);
  if (fd < 0) {
    if (errno == ENOENT) return 1;
    *why = sub_error(D, sub, errno);
    return -1;
  }
  int err = hl_read_file_at(fd, name, text, len);
  close(fd);
  if (err == ENOENT) return 1;
  if (err) *why = hl_xstrdup(hl_read_error(err));
  return err ? -1 : 0;
}

void hl_cache_dir_touch(hl_cache_dir *D, unsigned long long h) {
  char sub[3], name[20];
  sub_name(h, sub);
  entry_name(h, name);
  int fd = open_sub(D, sub, 0);
  if (fd < 0) return;
  utimensat(fd, name, NULL, AT_SYMLINK_NOFOLLOW);
  close(fd);
}

/* NULL when name in fd is a regular file or nothing, else what it is. */
static const char *not_regular(int fd, const char *name) {
  struct stat st;
  return fstatat(fd, name, &st, AT_SYMLINK_NOFOLLOW) == 0 && !S_ISREG(st.st_mode) ? kind_of(st.st_mode) : NULL;
}

/* Writes text to a new temporary file in fd and renames it to name, unless
 * a file that is not regular is there (checked again just before the
 * rename; one put there after it is replaced as a name, never written
 * through). No fsync: a reader checks an entry's checksum, and one torn by
 * a crash is a miss. 0, or -1 with *err. */
static int replace(hl_cache_dir *D, int fd, const char *sub, const char *name, const char *text, size_t len,
                   char **err) {
  char *rel = hl_xasprintf("%s/%s", sub, name), *where = shown(D, rel);
  const char *kind = not_regular(fd, name);
  char tmp[64];
  temp_name(D, name, tmp, sizeof tmp);
  int out = kind ? -1 : openat(fd, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
  int ok = out >= 0, saved = errno;
  if (ok) {
    char *tmp_path = hl_xasprintf("%s/%s/%s", D->path, sub, tmp);
    int slot = hl_temp_track(tmp_path);
    ok = hl_write_all(out, text, len) == 0;
    saved = errno;
    if (close(out) != 0 && ok) ok = 0, saved = errno;
    if (ok && !(kind = not_regular(fd, name)) && renameat(fd, tmp, fd, name) != 0) ok = 0, saved = errno;
    if (!ok || kind) unlinkat(fd, tmp, 0);
    hl_temp_untrack(slot);
    free(tmp_path);
  }
  if (kind)
    *err = hl_xasprintf("%s is %s: left as it is", where, kind);
  else if (!ok)
    *err = hl_xasprintf("%s: cannot write: %s", where, strerror(saved));
  free(where);
  free(rel);
  return ok && !kind ? 0 : -1;
}

int hl_cache_dir_write(hl_cache_dir *D, unsigned long long h, const char *text, size_t len, char **err) {
  char sub[3], name[20];
  sub_name(h, sub);
  entry_name(h, name);
  int fd = open_sub(D, sub, 1);
  if (fd < 0) {
    char *why = sub_error(D, sub, errno);
    *err = hl_xasprintf("%s: nothing is written into it", why);
    free(why);
    return -1;
  }
  int rc = replace(D, fd, sub, name, text, len, err);
  close(fd);
  return rc;
}

/* ---- trimming ---- */

typedef struct stored {
  char sub[3], name[20];
  long long size, mtime;
} stored;

static long long mtime_ns(const struct stat *st) {
  return (long long)st->st_mtim.tv_sec * 1000000000LL + st->st_mtim.tv_nsec;
}

static int older_first(const void *a, const void *b) {
  const stored *x = a, *y = b;
  return x->mtime < y->mtime ? -1 : x->mtime > y->mtime;
}

/* Calls f for each regular file of the directory fd whose name matches
 * (closes fd). */
static void each_file(int fd, int (*match)(const char *),
                      void (*f)(int fd, const char *name, const struct stat *st, void *data), void *data) {
  DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
  if (!d) {
    if (fd >= 0) close(fd);
    return;
  }
  struct dirent *de;
  struct stat st;
  while ((de = readdir(d)))
    if (match(de->d_name) && fstatat(dirfd(d), de->d_name, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISREG(st.st_mode))
      f(dirfd(d), de->d_name, &st, data);
  closedir(d);
}

typedef struct listing {
  const char *sub;
  long long abandoned; /* a temporary file older than this is removed */
  stored *v;
  size_t n, cap;
} listing;

static int is_entry_or_temp(const char *s) { return is_entry_name(s) || is_entry_temp(s); }

static void list_one(int fd, const char *name, const struct stat *st, void *data) {
  listing *L = data;
  if (!is_entry_name(name)) {
    if (mtime_ns(st) < L->abandoned) unlinkat(fd, name, 0);
    return;
  }
  stored s;
  memcpy(s.sub, L->sub, 3);
  snprintf(s.name, sizeof s.name, "%s", name);
  s.size = (long long)st->st_size;
  s.mtime = mtime_ns(st);
  HL_PUSH(L->v, L->n, L->cap, s);
}

static void remove_tag_temp(int fd, const char *name, const struct stat *st, void *data) {
  if (mtime_ns(st) < *(const long long *)data) unlinkat(fd, name, 0);
}

/* Removes the entry s, if it still is a regular file. */
static void remove_entry(const hl_cache_dir *D, const stored *s) {
  int fd = open_sub(D, s->sub, 0);
  if (fd < 0) return;
  if (!not_regular(fd, s->name)) unlinkat(fd, s->name, 0);
  close(fd);
}

void hl_cache_dir_trim(hl_cache_dir *D, unsigned long long max) {
  listing L = {NULL, now_ns() - ABANDONED_NS, NULL, 0, 0};
  int fd = openat(D->fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
  struct dirent *de;
  while (d && (de = readdir(d))) {
    if (!is_sub_name(de->d_name)) continue;
    L.sub = de->d_name;
    each_file(open_sub(D, de->d_name, 0), is_entry_or_temp, list_one, &L);
  }
  if (d)
    closedir(d);
  else if (fd >= 0)
    close(fd);
  each_file(openat(D->fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC), is_tag_temp, remove_tag_temp, &L.abandoned);
  unsigned long long total = 0;
  for (size_t i = 0; i < L.n; i++) total += (unsigned long long)L.v[i].size;
  if (total > max) {
    qsort(L.v, L.n, sizeof *L.v, older_first);
    /* Entries another run removes meanwhile are simply gone. */
    for (size_t i = 0; i < L.n && total > max / 10 * 9; i++) {
      remove_entry(D, &L.v[i]);
      total -= (unsigned long long)L.v[i].size;
    }
  }
  free(L.v);
}
