#include "lsp/cached.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <clang-c/Index.h>

#include "cache/cache.h"
#include "lsp/diagnostics.h"
#include "lsp/rpc.h"
#include "lsp/uri.h"
#include "report/pipeline.h"
#include "report/source.h"
#include "util/util.h"

/* The caches opened for one answer, one per directory. */
typedef struct caches {
  char **dirs;
  hl_cache **v; /* NULL: that directory cannot be used */
  size_t n, cap, capv;
} caches;

static hl_cache *cache_in(caches *K, const lsp_analyzer *A, const char *dir) {
  for (size_t i = 0; i < K->n; i++)
    if (!strcmp(K->dirs[i], dir)) return K->v[i];
  /* A directory the check never made is no cache: never made here. */
  struct stat st;
  if (stat(dir, &st) || !S_ISDIR(st.st_mode)) return NULL;
  CXString v = clang_getClangVersion();
  char *tool = hl_xasprintf("heaplint %s (%s)", HEAPLINT_VERSION, clang_getCString(v));
  clang_disposeString(v);
  char *err = NULL;
  hl_cache *C = hl_cache_open(dir, HL_CACHE_DEFAULT_MAX, tool, A->run.profiles, 0, &err);
  free(tool);
  free(err); /* no cache there: its files are left out, as those of a unit not stored */
  size_t n = K->n;
  HL_PUSH(K->dirs, K->n, K->cap, hl_xstrdup(dir));
  HL_PUSH(K->v, n, K->capv, C);
  return C;
}

static void caches_free(caches *K) {
  for (size_t i = 0; i < K->n; i++) {
    free(K->dirs[i]);
    hl_cache_free(K->v[i]);
  }
  free(K->dirs);
  free(K->v);
}

/* The cache directory of a unit under cfg, as the check finds it. */
static const char *cache_dir(const lsp_analyzer *A, const hl_config *cfg) {
  const char *env = getenv("HEAPLINT_CACHE_DIR");
  return A->S->opt.cli.cache_dir ? A->S->opt.cli.cache_dir : env && *env ? env : cfg->cache_dir;
}

/* The diagnostics of res in job's main file, as the analysis of an open
 * document makes them (analysis.c's report, without the edits: no text
 * is open to edit). */
static json_t *items_of(lsp_analyzer *A, const hl_job *job, hl_tu_result *res) {
  hl_sources *src = hl_sources_new();
  char *main_file = job->file;
  hl_findings_settle(&res->findings, src, &main_file, 1);
  lsp_conv *c = lsp_conv_new(src, A->S->enc, NULL, NULL, 0);
  lsp_result *r = hl_xcalloc(1, sizeof *r);
  for (size_t i = 0; i < res->findings.n; i++) {
    const hl_finding *f = res->findings.v[i];
    if (!f->undecided && f->loc.file && !strcmp(f->loc.file, job->file)) lsp_result_add_finding(r, f, c, &A->S->opt);
  }
  json_t *items = json_array();
  for (size_t i = 0; i < r->nitems; i++) json_array_append(items, r->items[i].diagnostic);
  lsp_result_free(r);
  lsp_conv_free(c);
  hl_sources_free(src);
  return items;
}

static int is_open(const char *path, char *const *open, size_t n) {
  for (size_t i = 0; i < n; i++)
    if (!strcmp(open[i], path)) return 1;
  return 0;
}

/* The client's previous resultId for uri, or NULL. */
static const char *previous(const json_t *params, const char *uri) {
  size_t i;
  json_t *p;
  json_array_foreach(json_object_get(params, "previousResultIds"), i, p) {
    const char *u = lsp_json_string(json_object_get(p, "uri"));
    if (u && !strcmp(u, uri)) return lsp_json_string(json_object_get(p, "value"));
  }
  return NULL;
}

/* One file's WorkspaceDocumentDiagnosticReport; its resultId is a hash of
 * its diagnostics, so that the same findings are "unchanged". */
static json_t *report(const json_t *params, const char *path, json_t *items) {
  char *text = json_dumps(items, JSON_COMPACT | JSON_SORT_KEYS);
  char rid[32];
  snprintf(rid, sizeof rid, "c%016llx", hl_fnv1a(text, strlen(text)));
  free(text);
  char *uri = lsp_path_uri(path);
  const char *was = previous(params, uri);
  json_t *r;
  if (was && !strcmp(was, rid)) {
    r = json_pack("{s:s, s:s, s:n, s:s}", "kind", "unchanged", "uri", uri, "version", "resultId", rid);
    json_decref(items);
  } else {
    r = json_pack("{s:s, s:s, s:n, s:s, s:o}", "kind", "full", "uri", uri, "version", "resultId", rid, "items", items);
  }
  free(uri);
  return r;
}

json_t *lsp_cached_reports(lsp_analyzer *A, const json_t *params, char *const *open, size_t n) {
  hl_strv msgs = {0};
  const hl_job **units = NULL;
  size_t nunits = 0;
  lsp_project_units(A->project, A->S->root, &msgs, &units, &nunits);
  hl_strv_free(&msgs); /* said when an open file's analysis reads the database */
  caches K;
  memset(&K, 0, sizeof K);
  json_t *items = json_array();
  for (size_t i = 0; i < nunits; i++) {
    const hl_job *job = units[i];
    const hl_config *cfg = NULL;
    char *err = NULL;
    if (is_open(job->file, open, n) || hl_config_for(A->configs, job->file, &cfg, &err)) {
      free(err);
      continue;
    }
    const char *dir = cache_dir(A, cfg);
    hl_cache *C = dir ? cache_in(&K, A, dir) : NULL;
    char *buf;
    size_t len;
    FILE *log = hl_xmemstream(&buf, &len);
    hl_tu_result res;
    memset(&res, 0, sizeof res);
    if (C && hl_cache_restore(C, job, cfg, &res, log) && res.result == HL_ANALYZED)
      json_array_append_new(items, report(params, job->file, items_of(A, job, &res)));
    hl_tu_result_free(&res);
    fclose(log);
    free(buf);
  }
  free(units);
  caches_free(&K);
  return json_pack("{s:o}", "items", items);
}
