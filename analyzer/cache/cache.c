#include "cache/cache.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cache/entry.h"
#include "util/strv.h"
#include "util/util.h"

/* Changes whenever an entry's layout does: an entry of another format is
 * not this run's. */
#define CACHE_FORMAT 1
/* A file modified less than this before it was read may change again
 * within the same timestamp (coarse clocks, 2-second file systems): its
 * time is not trusted, its hash is compared. */
#define RACY_NS (2LL * 1000000000LL)
/* A temporary file this old was left by a run that was killed. */
#define ABANDONED_S (60 * 60)

typedef struct config_key {
  const hl_config *cfg;
  json_t *key;
} config_key;

struct hl_cache {
  char *dir;
  unsigned long long max_size;
  int verbose;
  json_t *run_key;
  pthread_mutex_t lock; /* guards what follows */
  config_key *configs;
  size_t nconfigs, capconfigs;
  hl_strv interned;
  hl_cache_stats stats;
  int write_failed;
};

static long long now_ns(void) {
  struct timespec t;
  clock_gettime(CLOCK_REALTIME, &t);
  return (long long)t.tv_sec * 1000000000LL + t.tv_nsec;
}

static long long mtime_ns(const struct stat *st) {
  return (long long)st->st_mtim.tv_sec * 1000000000LL + st->st_mtim.tv_nsec;
}

static json_t *hex64(unsigned long long h) {
  char s[17];
  snprintf(s, sizeof s, "%016llx", h);
  return json_string(s);
}

/* [path, hash of its content] for a key; the hash is null when the file
 * cannot be read (the key then changes when it can). */
static json_t *file_key(const char *path) {
  char *text = NULL;
  size_t len = 0;
  json_t *hash = hl_read_file(path, &text, &len) == 0 ? hex64(hl_fnv1a(text, len)) : json_null();
  free(text);
  return json_pack("[o, o]", hl_entry_text(path), hash);
}

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

hl_cache *hl_cache_open(const char *dir, unsigned long long max_size, const char *tool, const hl_profile_set *profiles,
                        int verbose, char **err) {
  if (mkdir_p(dir)) {
    *err = hl_xasprintf("%s: cannot use it as the cache directory: %s", dir, strerror(errno));
    return NULL;
  }
  hl_cache *C = hl_xcalloc(1, sizeof *C);
  C->dir = hl_xstrdup(dir);
  C->max_size = max_size;
  C->verbose = verbose;
  pthread_mutex_init(&C->lock, NULL);
  json_t *p = json_array();
  for (size_t i = 0; i < profiles->nbase; i++) json_array_append_new(p, file_key(profiles->base[i]->path));
  for (size_t i = 0; i < profiles->nextra; i++) json_array_append_new(p, file_key(profiles->extra[i]->path));
  /* The executable's own hash: a rebuilt heaplint keeps its version number
   * but may judge differently. */
  C->run_key = json_pack("{s:i, s:o, s:o, s:o}", "format", CACHE_FORMAT, "tool", hl_entry_text(tool), "exe",
                         file_key("/proc/self/exe"), "profiles", p);
  return C;
}

/* The configuration's part of a key, made once per configuration. */
static json_t *config_key_of(hl_cache *C, const hl_config *cfg) {
  json_t *key = NULL;
  pthread_mutex_lock(&C->lock);
  for (size_t i = 0; i < C->nconfigs && !key; i++)
    if (C->configs[i].cfg == cfg) key = C->configs[i].key;
  if (!key) {
    json_t *p = json_array();
    for (size_t i = 0; i < cfg->nprofiles; i++) json_array_append_new(p, file_key(cfg->profiles[i]->path));
    /* The command line's layer over it (-checks, -config=, ...) decides
     * too. */
    const hl_config_cli *cli = cfg->layer ? &cfg->layer->cli : NULL;
    json_t *layer = json_array();
    const char *parts[] = {cli ? cli->text : NULL, cli ? cli->checks : NULL, cli ? cli->warnings_as_errors : NULL,
                           cli ? cli->header_filter : NULL, cli ? cli->exclude_header_filter : NULL};
    for (size_t i = 0; i < sizeof parts / sizeof *parts; i++)
      json_array_append_new(layer, parts[i] ? hl_entry_text(parts[i]) : json_null());
    json_array_append_new(layer, json_integer(cli ? cli->system_headers : -1));
    key = json_pack("{s:o, s:o, s:o}", "file", cfg->path ? file_key(cfg->path) : json_null(), "profiles", p,
                    "command-line", layer);
    config_key k = {cfg, key};
    HL_PUSH(C->configs, C->nconfigs, C->capconfigs, k);
  }
  json_incref(key);
  pthread_mutex_unlock(&C->lock);
  return key;
}

static json_t *job_key(hl_cache *C, const hl_job *job, const hl_config *cfg) {
  json_t *args = json_array();
  for (size_t i = 0; i < job->nargs; i++) json_array_append_new(args, hl_entry_text(job->args[i]));
  return json_pack("{s:O, s:o, s:o, s:o, s:o, s:o}", "run", C->run_key, "config", config_key_of(C, cfg), "file",
                   hl_entry_text(job->file), "source", hl_entry_text(job->source), "directory",
                   job->directory ? hl_entry_text(job->directory) : json_null(), "args", args);
}

/* dir/ab/cdef...json, named by the key's hash. */
static char *entry_path(const hl_cache *C, const json_t *key) {
  char *text = json_dumps(key, JSON_COMPACT | JSON_SORT_KEYS);
  unsigned long long h = hl_fnv1a(text ? text : "", text ? strlen(text) : 0);
  free(text);
  return hl_xasprintf("%s/%02llx/%014llx.json", C->dir, h >> 56, h & 0xffffffffffffffULL);
}

static const char *intern(void *data, const char *s) {
  hl_cache *C = data;
  const char *out = NULL;
  pthread_mutex_lock(&C->lock);
  for (size_t i = 0; i < C->interned.n && !out; i++)
    if (!strcmp(C->interned.v[i], s)) out = C->interned.v[i];
  if (!out) {
    hl_strv_add(&C->interned, s);
    out = C->interned.v[C->interned.n - 1];
  }
  pthread_mutex_unlock(&C->lock);
  return out;
}

/* ---- restoring ---- */

/* The entry at path if it is key's, else NULL: *why says why for -v; one
 * that cannot be read is also noted on log. */
static json_t *read_entry(const char *path, const json_t *key, FILE *log, char **why) {
  char *text = NULL;
  size_t len = 0;
  int rerr = hl_read_file(path, &text, &len);
  if (rerr == ENOENT) {
    *why = hl_xstrdup("not in the cache");
    return NULL;
  }
  json_error_t e;
  json_t *entry = rerr ? NULL : json_loadb(text, len, 0, &e);
  free(text);
  json_t *inputs = json_object_get(entry, "inputs");
  char *bad = rerr ? hl_xstrdup(hl_read_error(rerr)) : !entry ? hl_xasprintf("not JSON: %s", e.text) : NULL;
  if (!bad && (!json_is_integer(json_object_get(entry, "heaplint-cache")) || !json_is_array(inputs) ||
               json_array_size(inputs) == 0 || !json_is_object(json_object_get(entry, "result"))))
    bad = hl_xstrdup("not a cache entry");
  if (bad) {
    fprintf(log, "heaplint: note: %s: cache entry ignored (%s); the unit is analyzed again\n", hl_display_path(path),
            bad);
    *why = hl_xstrdup("its cache entry cannot be used");
    free(bad);
    json_decref(entry);
    return NULL;
  }
  /* Another format's, or (a hash collision) another unit's: replaced. */
  if (json_integer_value(json_object_get(entry, "heaplint-cache")) != CACHE_FORMAT ||
      !json_equal(json_object_get(entry, "key"), (json_t *)key)) {
    *why = hl_xstrdup("not in the cache");
    json_decref(entry);
    return NULL;
  }
  return entry;
}

/* Whether input x = [path, size, mtime, hash] is as it was; *refresh when
 * only its time differs (x then gets the new time). */
static int input_unchanged(json_t *x, long long now, int *refresh, char **why) {
  char *path = hl_entry_text_value(json_array_get(x, 0));
  json_int_t size = json_integer_value(json_array_get(x, 1)), mtime = json_integer_value(json_array_get(x, 2));
  const char *hash = json_string_value(json_array_get(x, 3));
  struct stat st;
  int same = path && hash && stat(path, &st) == 0 && st.st_size == size;
  if (same && (mtime == 0 || mtime != mtime_ns(&st))) {
    char *text = NULL;
    size_t len = 0;
    char h[17];
    same = hl_read_file(path, &text, &len) == 0;
    snprintf(h, sizeof h, "%016llx", same ? hl_fnv1a(text, len) : 0ULL);
    same = same && !strcmp(h, hash);
    free(text);
    if (same && mtime != (mtime_ns(&st) < now - RACY_NS ? mtime_ns(&st) : 0)) {
      json_array_set_new(x, 2, json_integer(mtime_ns(&st) < now - RACY_NS ? mtime_ns(&st) : 0));
      *refresh = 1;
    }
  }
  if (!same) *why = hl_xasprintf("%s changed", path ? hl_display_path(path) : "a file it includes");
  free(path);
  return same;
}

static int inputs_unchanged(json_t *inputs, int *refresh, char **why) {
  long long now = now_ns();
  size_t i;
  json_t *x;
  json_array_foreach(inputs, i, x) if (!input_unchanged(x, now, refresh, why)) return 0;
  return 1;
}

static void write_entry(hl_cache *C, const char *path, const json_t *entry, FILE *log);

/* The files a restored unit read, as its entry lists them (the check makes
 * sure no output is one of them). */
static void restore_inputs(json_t *inputs, hl_tu_result *res) {
  size_t i, cap = 0;
  json_t *x;
  json_array_foreach(inputs, i, x) {
    char *path = hl_entry_text_value(json_array_get(x, 0));
    const char *hash = json_string_value(json_array_get(x, 3));
    if (!path) continue;
    hl_tu_input in = {path, (unsigned long long)json_integer_value(json_array_get(x, 1)),
                      hash ? strtoull(hash, NULL, 16) : 0};
    HL_PUSH(res->inputs, res->ninputs, cap, in);
  }
}

int hl_cache_restore(hl_cache *C, const hl_job *job, const hl_config *cfg, hl_tu_result *res, FILE *log) {
  json_t *key = job_key(C, job, cfg);
  char *path = entry_path(C, key), *why = NULL, *text = NULL;
  json_t *entry = read_entry(path, key, log, &why);
  int refresh = 0, hit = entry && inputs_unchanged(json_object_get(entry, "inputs"), &refresh, &why);
  if (hit && hl_entry_unpack(json_object_get(entry, "result"), intern, C, res, &text, &why)) {
    fprintf(log, "heaplint: note: %s: cache entry ignored (%s); the unit is analyzed again\n", hl_display_path(path),
            why);
    free(why);
    why = hl_xstrdup("its cache entry cannot be used");
    hit = 0;
  }
  if (hit) {
    restore_inputs(json_object_get(entry, "inputs"), res);
    fputs(text, log);
    /* Used now: the trim removes the entries used longest ago. */
    if (refresh) write_entry(C, path, entry, log);
    else utimensat(AT_FDCWD, path, NULL, 0);
  }
  if (C->verbose)
    fprintf(log, "heaplint: remark: %s: %s%s%s\n", hl_display_path(job->file), hit ? "restored from the cache" : "analyzed (",
            hit ? "" : why, hit ? "" : ")");
  pthread_mutex_lock(&C->lock);
  if (hit) C->stats.hits++;
  else C->stats.misses++;
  pthread_mutex_unlock(&C->lock);
  free(text);
  free(why);
  free(path);
  json_decref(entry);
  json_decref(key);
  return hit;
}

/* ---- storing ---- */

static void write_entry(hl_cache *C, const char *path, const json_t *entry, FILE *log) {
  char *text = json_dumps(entry, JSON_COMPACT);
  char *dir = hl_xstrndup(path, (size_t)(strrchr(path, '/') - path));
  char *err = NULL;
  int rc = -1;
  if (!text) err = hl_xasprintf("%s: cannot write: out of memory", path);
  else if (mkdir_p(dir)) err = hl_xasprintf("%s: cannot write: %s", dir, strerror(errno));
  else rc = hl_write_file_atomic(path, text, strlen(text), &err);
  if (rc) {
    pthread_mutex_lock(&C->lock);
    int first = !C->write_failed;
    C->write_failed = 1;
    pthread_mutex_unlock(&C->lock);
    if (first) fprintf(log, "heaplint: warning: %s; results are not cached\n", err);
  }
  free(err);
  free(dir);
  free(text);
}

/* The inputs as an entry keeps them, or NULL when one changed since the
 * unit read it (the result is then not the files' on disk). */
static json_t *stat_inputs(const hl_tu_result *res) {
  json_t *inputs = json_array();
  for (size_t i = 0; i < res->ninputs; i++) {
    const hl_tu_input *in = &res->inputs[i];
    struct stat st;
    if (stat(in->path, &st) != 0 || (unsigned long long)st.st_size != in->size || mtime_ns(&st) > res->read_at) {
      json_decref(inputs);
      return NULL;
    }
    long long mtime = mtime_ns(&st) < res->read_at - RACY_NS ? mtime_ns(&st) : 0;
    json_array_append_new(inputs, json_pack("[o, I, I, o]", hl_entry_text(in->path), (json_int_t)in->size,
                                            (json_int_t)mtime, hex64(in->hash)));
  }
  return inputs;
}

void hl_cache_store(hl_cache *C, const hl_job *job, const hl_config *cfg, const hl_tu_result *res, const char *text,
                    size_t len, FILE *log) {
  json_t *inputs = res->result == HL_ANALYZED && res->ninputs ? stat_inputs(res) : NULL;
  if (!inputs) return;
  json_t *key = job_key(C, job, cfg);
  char *path = entry_path(C, key);
  json_t *entry = json_pack("{s:i, s:O, s:o, s:o}", "heaplint-cache", CACHE_FORMAT, "key", key, "inputs", inputs,
                            "result", hl_entry_pack(res, text, len));
  write_entry(C, path, entry, log);
  json_decref(entry);
  json_decref(key);
  free(path);
}

/* ---- trimming ---- */

typedef struct stored {
  char *path;
  long long size, mtime;
} stored;

static int older_first(const void *a, const void *b) {
  const stored *x = a, *y = b;
  return x->mtime < y->mtime ? -1 : x->mtime > y->mtime;
}

/* The entries of dir/xx/ into *v (and away with what a killed run left). */
static void list_entries(const char *sub, stored **v, size_t *n, size_t *cap) {
  DIR *d = opendir(sub);
  struct dirent *de;
  long long now = now_ns();
  while (d && (de = readdir(d))) {
    char *path = hl_xasprintf("%s/%s", sub, de->d_name);
    struct stat st;
    if (de->d_name[0] != '.' && lstat(path, &st) == 0 && S_ISREG(st.st_mode)) {
      if (hl_ends_with(de->d_name, ".json")) {
        stored s = {path, (long long)st.st_size, mtime_ns(&st)};
        HL_PUSH(*v, *n, *cap, s);
        continue;
      }
      if (mtime_ns(&st) < now - ABANDONED_S * 1000000000LL) unlink(path);
    }
    free(path);
  }
  if (d) closedir(d);
}

/* Least recently used first, down to 90% of the maximum, so that the next
 * runs do not trim again at once. Entries another run removes meanwhile
 * are simply gone. */
static void trim(const hl_cache *C) {
  stored *v = NULL;
  size_t n = 0, cap = 0;
  long long total = 0;
  DIR *d = opendir(C->dir);
  struct dirent *de;
  while (d && (de = readdir(d))) {
    if (strlen(de->d_name) != 2 || !strchr("0123456789abcdef", de->d_name[0]) || !strchr("0123456789abcdef", de->d_name[1]))
      continue;
    char *sub = hl_xasprintf("%s/%s", C->dir, de->d_name);
    list_entries(sub, &v, &n, &cap);
    free(sub);
  }
  if (d) closedir(d);
  for (size_t i = 0; i < n; i++) total += v[i].size;
  if ((unsigned long long)total > C->max_size) {
    qsort(v, n, sizeof *v, older_first);
    long long target = (long long)(C->max_size / 10 * 9);
    for (size_t i = 0; i < n && total > target; i++)
      if (unlink(v[i].path) == 0 || errno == ENOENT) total -= v[i].size;
  }
  for (size_t i = 0; i < n; i++) free(v[i].path);
  free(v);
}

void hl_cache_finish(hl_cache *C, hl_cache_stats *st) {
  trim(C);
  st->hits += C->stats.hits;
  st->misses += C->stats.misses;
}

void hl_cache_free(hl_cache *C) {
  if (!C) return;
  for (size_t i = 0; i < C->nconfigs; i++) json_decref(C->configs[i].key);
  free(C->configs);
  hl_strv_free(&C->interned);
  json_decref(C->run_key);
  pthread_mutex_destroy(&C->lock);
  free(C->dir);
  free(C);
}
