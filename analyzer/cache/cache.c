#include "cache/cache.h"

#include <jansson.h>
#include <limits.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cache/dir.h"
#include "cache/entry.h"
#include "util/strv.h"
#include "util/util.h"

/* A file changed less than this before it was read may change again
 * within the same timestamp (coarse clocks, 2-second file systems): its
 * times are not trusted, its hash is compared. */
#define RACY_NS (2LL * 1000000000LL)

/* The environment variables libclang 19's driver reads that change what a
 * unit's parse sees, whatever its compile command says: the include
 * paths of every target (CPATH and the per-language ones), of MSVC targets
 * (INCLUDE, EXTERNAL_INCLUDE), of VE and XCore (NCC_*, XCC_*), the SDKs of
 * Darwin, PlayStation and HIP targets, Darwin's deployment targets (they
 * set availability macros), the driver's program prefixes (COMPILER_PATH,
 * as -B) and whether it reads its default configuration files. Not
 * here: SOURCE_DATE_EPOCH (only __DATE__ and __TIME__, and a key on it
 * would miss at every commit of a reproducible build), what only links or
 * caches modules (LIBRARY_PATH, HIP_DEVICE_LIB_PATH, CLANG_MODULE_CACHE_PATH),
 * and what libclang does not read (GCC_EXEC_PREFIX; CCC_OVERRIDE_OPTIONS is
 * the clang program's). */
static const char *const parse_env[] = {"CPATH",
                                        "C_INCLUDE_PATH",
                                        "CPLUS_INCLUDE_PATH",
                                        "OBJC_INCLUDE_PATH",
                                        "OBJCPLUS_INCLUDE_PATH",
                                        "INCLUDE",
                                        "EXTERNAL_INCLUDE",
                                        "NCC_C_INCLUDE_PATH",
                                        "NCC_CPLUS_INCLUDE_PATH",
                                        "XCC_C_INCLUDE_PATH",
                                        "XCC_CPLUS_INCLUDE_PATH",
                                        "SDKROOT",
                                        "SCE_ORBIS_SDK_DIR",
                                        "SCE_PROSPERO_SDK_DIR",
                                        "HIP_PATH",
                                        "ROCM_PATH",
                                        "MACOSX_DEPLOYMENT_TARGET",
                                        "IPHONEOS_DEPLOYMENT_TARGET",
                                        "TVOS_DEPLOYMENT_TARGET",
                                        "WATCHOS_DEPLOYMENT_TARGET",
                                        "XROS_DEPLOYMENT_TARGET",
                                        "DRIVERKIT_DEPLOYMENT_TARGET",
                                        "COMPILER_PATH",
                                        "CLANG_NO_DEFAULT_CONFIG"};

typedef struct config_key {
  const hl_config *cfg;
  json_t *key;
} config_key;

struct hl_cache {
  hl_cache_dir *D;
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

static long long ctime_ns(const struct stat *st) {
  return (long long)st->st_ctim.tv_sec * 1000000000LL + st->st_ctim.tv_nsec;
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

/* What the run's messages depend on besides the units: the current
 * directory (they show paths relative to it), -v (remarks) and the
 * environment that changes a parse. */
static json_t *run_context(int verbose) {
  char cwd[PATH_MAX];
  json_t *env = json_object();
  for (size_t i = 0; i < sizeof parse_env / sizeof *parse_env; i++) {
    const char *v = getenv(parse_env[i]);
    json_object_set_new(env, parse_env[i], v ? hl_entry_text(v) : json_null());
  }
  return json_pack("{s:o, s:b, s:o}", "cwd", getcwd(cwd, sizeof cwd) ? hl_entry_text(cwd) : json_null(), "verbose",
                   verbose, "env", env);
}

hl_cache *hl_cache_open(const char *dir, unsigned long long max_size, const char *tool, const hl_profile_set *profiles,
                        int verbose, char **err) {
  hl_cache_dir *D = hl_cache_dir_open(dir, err);
  if (!D) return NULL;
  hl_cache *C = hl_xcalloc(1, sizeof *C);
  C->D = D;
  C->max_size = max_size;
  C->verbose = verbose;
  pthread_mutex_init(&C->lock, NULL);
  json_t *p = json_array();
  for (size_t i = 0; i < profiles->nbase; i++) json_array_append_new(p, file_key(profiles->base[i]->path));
  for (size_t i = 0; i < profiles->nextra; i++) json_array_append_new(p, file_key(profiles->extra[i]->path));
  /* The executable's own hash: a rebuilt heaplint keeps its version number
   * but may judge differently. */
  C->run_key = json_pack("{s:o, s:o, s:o, s:o}", "tool", hl_entry_text(tool), "exe", file_key("/proc/self/exe"),
                         "profiles", p, "context", run_context(verbose));
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

/* The key's hash, which names its entry. */
static unsigned long long key_hash(const json_t *key) {
  char *text = json_dumps(key, JSON_COMPACT | JSON_SORT_KEYS);
  unsigned long long h = hl_fnv1a(text ? text : "", text ? strlen(text) : 0);
  free(text);
  return h;
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

static void note_ignored(hl_cache *C, unsigned long long h, const char *why, FILE *log) {
  char *path = hl_cache_dir_entry_path(C->D, h);
  fprintf(log, "heaplint: note: %s: cache entry ignored (%s); the unit is analyzed again\n", hl_display_path(path),
          why);
  free(path);
}

/* The document of entry h if it is key's, else NULL: *why says why for
 * -v; one that cannot be read is also noted on log. */
static json_t *read_entry(hl_cache *C, unsigned long long h, const json_t *key, FILE *log, char **why) {
  char *text = NULL, *bad = NULL;
  size_t len = 0;
  json_t *doc = NULL;
  int rc = hl_cache_dir_read(C->D, h, &text, &len, &bad);
  if (rc == 0) rc = hl_entry_parse(text, len, &doc, &bad);
  free(text);
  if (rc < 0) {
    note_ignored(C, h, bad, log);
    free(bad);
    *why = hl_xstrdup("its cache entry cannot be used");
    return NULL;
  }
  /* None, another format's, or (a hash collision) another unit's: it is
   * replaced. */
  if (rc > 0 || !json_equal(json_object_get(doc, "key"), (json_t *)key)) {
    *why = hl_xstrdup("not in the cache");
    json_decref(doc);
    return NULL;
  }
  return doc;
}

/* What an entry knows of a file besides its size and hash, as of
 * st at time t: its modification and inode change times and inode number
 * (as git's index: no user can set the inode change time back, so a
 * same-size edit whose modification time was restored is seen); the times
 * are 0, never trusted, when the file changed just before t. */
static void set_stamp(json_t *x, const struct stat *st, long long t) {
  int trusted = ctime_ns(st) < t - RACY_NS;
  json_array_set_new(x, HL_INPUT_MTIME, json_integer(trusted ? mtime_ns(st) : 0));
  json_array_set_new(x, HL_INPUT_CTIME, json_integer(trusted ? ctime_ns(st) : 0));
  json_array_set_new(x, HL_INPUT_INO, json_integer((json_int_t)st->st_ino));
}

static json_int_t field(const json_t *x, size_t i) { return json_integer_value(json_array_get(x, i)); }

/* Whether input x (hl_entry_parse checked it) is as it was: by its stamp
 * when that is the file's, else by its hash; *refresh when only its stamp
 * differs (x then gets the new one). */
static int input_unchanged(json_t *x, long long now, int *refresh, char **why) {
  char *path = hl_entry_text_value(json_array_get(x, HL_INPUT_PATH));
  struct stat st;
  int same = stat(path, &st) == 0 && st.st_size == field(x, HL_INPUT_SIZE);
  if (same && !(field(x, HL_INPUT_MTIME) && field(x, HL_INPUT_MTIME) == mtime_ns(&st) &&
                field(x, HL_INPUT_CTIME) == ctime_ns(&st) && field(x, HL_INPUT_INO) == (json_int_t)st.st_ino)) {
    char *text = NULL;
    size_t len = 0;
    char h[17];
    same = hl_read_file(path, &text, &len) == 0;
    snprintf(h, sizeof h, "%016llx", same ? hl_fnv1a(text, len) : 0ULL);
    same = same && !strcmp(h, json_string_value(json_array_get(x, HL_INPUT_HASH)));
    free(text);
    if (same) {
      json_t *was = json_deep_copy(x);
      set_stamp(x, &st, now);
      *refresh |= !json_equal(was, x);
      json_decref(was);
    }
  }
  if (!same) *why = hl_xasprintf("%s changed", hl_display_path(path));
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

static void write_entry(hl_cache *C, unsigned long long h, const json_t *doc, FILE *log);

int hl_cache_restore(hl_cache *C, const hl_job *job, const hl_config *cfg, hl_tu_result *res, FILE *log) {
  json_t *key = job_key(C, job, cfg);
  unsigned long long h = key_hash(key);
  char *why = NULL, *text = NULL;
  json_t *doc = read_entry(C, h, key, log, &why);
  int refresh = 0, hit = doc && inputs_unchanged(json_object_get(doc, "inputs"), &refresh, &why);
  if (hit && hl_entry_unpack(doc, cfg->registry, intern, C, res, &text, &why)) {
    note_ignored(C, h, why, log);
    free(why);
    why = hl_xstrdup("its cache entry cannot be used");
    hit = 0;
  }
  if (hit) {
    fputs(text, log);
    /* Used now: the trim removes the entries used longest ago. */
    if (refresh)
      write_entry(C, h, doc, log);
    else
      hl_cache_dir_touch(C->D, h);
  }
  if (C->verbose)
    fprintf(log, "heaplint: remark: %s: %s%s%s\n", hl_display_path(job->file),
            hit ? "restored from the cache" : "analyzed (", hit ? "" : why, hit ? "" : ")");
  pthread_mutex_lock(&C->lock);
  if (hit)
    C->stats.hits++;
  else
    C->stats.misses++;
  pthread_mutex_unlock(&C->lock);
  free(text);
  free(why);
  json_decref(doc);
  json_decref(key);
  return hit;
}

/* ---- storing ---- */

static void write_entry(hl_cache *C, unsigned long long h, const json_t *doc, FILE *log) {
  size_t len = 0;
  char *text = hl_entry_frame(doc, &len), *err = NULL;
  if (!text) {
    char *path = hl_cache_dir_entry_path(C->D, h);
    err = hl_xasprintf("%s: cannot write: out of memory", path);
    free(path);
  } else if (len > HL_READ_MAX) {
    char *path = hl_cache_dir_entry_path(C->D, h);
    err = hl_xasprintf("%s: not written: %s", path, hl_read_error(HL_READ_TOO_BIG));
    free(path);
  } else {
    hl_cache_dir_write(C->D, h, text, len, &err);
  }
  if (err) {
    pthread_mutex_lock(&C->lock);
    int first = !C->write_failed;
    C->write_failed = 1;
    pthread_mutex_unlock(&C->lock);
    if (first) fprintf(log, "heaplint: warning: %s; the result is not cached (said once per run)\n", err);
  }
  free(err);
  free(text);
}

/* The inputs as an entry keeps them, or NULL when one changed since the
 * unit read it (the result is then not the files' on disk): by its inode
 * change time, which a restored modification time does not hide. */
static json_t *stat_inputs(const hl_tu_result *res) {
  json_t *inputs = json_array();
  for (size_t i = 0; i < res->ninputs; i++) {
    const hl_tu_input *in = &res->inputs[i];
    struct stat st;
    if (stat(in->path, &st) != 0 || (unsigned long long)st.st_size != in->size || ctime_ns(&st) > res->read_at) {
      json_decref(inputs);
      return NULL;
    }
    json_t *x = json_pack("[o, I, I, I, I, o]", hl_entry_text(in->path), (json_int_t)in->size, (json_int_t)0,
                          (json_int_t)0, (json_int_t)0, hex64(in->hash));
    set_stamp(x, &st, res->read_at);
    json_array_append_new(inputs, x);
  }
  return inputs;
}

void hl_cache_store(hl_cache *C, const hl_job *job, const hl_config *cfg, const hl_tu_result *res, const char *text,
                    size_t len, FILE *log) {
  json_t *inputs = res->result == HL_ANALYZED && res->ninputs ? stat_inputs(res) : NULL;
  if (!inputs) return;
  json_t *key = job_key(C, job, cfg);
  json_t *doc = json_pack("{s:O, s:o, s:o}", "key", key, "inputs", inputs, "result", hl_entry_pack(res, text, len));
  write_entry(C, key_hash(key), doc, log);
  json_decref(doc);
  json_decref(key);
}

void hl_cache_finish(hl_cache *C, hl_cache_stats *st) {
  hl_cache_dir_trim(C->D, C->max_size);
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
  hl_cache_dir_close(C->D);
  free(C);
}
