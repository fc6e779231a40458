#include "lsp/snapshot.h"

#include <stdlib.h>
#include <string.h>

#include "util/util.h"

static int by_name(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

void lsp_paths_sort(hl_strv *paths) {
  if (paths->n < 2) return;
  qsort(paths->v, paths->n, sizeof *paths->v, by_name);
  size_t out = 1;
  for (size_t i = 1; i < paths->n; i++) {
    if (strcmp(paths->v[i], paths->v[out - 1]))
      paths->v[out++] = paths->v[i];
    else
      free(paths->v[i]);
  }
  paths->n = out;
  paths->v[out] = NULL;
}

static int read_by(const hl_strv *reads, const char *path) {
  return reads && reads->n && bsearch(&path, reads->v, reads->n, sizeof *reads->v, by_name);
}

static void put_file(lsp_snapshot *sn, const lsp_doc *d) {
  char *text = hl_xmalloc(d->text.len + 1);
  memcpy(text, d->text.s, d->text.len + 1);
  struct CXUnsavedFile f = {hl_xstrdup(d->path), text, (unsigned long)d->text.len};
  HL_PUSH(sn->files, sn->n, sn->cap, f);
}

static int has_file(const lsp_snapshot *sn, const char *path) {
  for (unsigned i = 0; i < sn->n; i++)
    if (!strcmp(sn->files[i].Filename, path)) return 1;
  return 0;
}

unsigned lsp_snapshot_add(lsp_server *S, const lsp_doc *d, const hl_strv *reads, lsp_snapshot *sn) {
  unsigned added = 0;
  for (size_t i = 0; i < S->ndocs; i++) {
    const lsp_doc *o = S->docs[i];
    if (o != d && read_by(reads, o->path) && !has_file(sn, o->path)) {
      put_file(sn, o);
      added++;
    }
  }
  return added;
}

void lsp_snapshot_take(lsp_server *S, const lsp_doc *d, const hl_strv *reads, lsp_snapshot *sn) {
  memset(sn, 0, sizeof *sn);
  sn->gen = d->gen;
  sn->version = d->version;
  sn->lost = d->lost;
  sn->saves = S->saves;
  put_file(sn, d);
  lsp_snapshot_add(S, d, reads, sn);
  /* The analyzed document's URI first: it wins over another that opened
   * the same file. */
  sn->paths = hl_xcalloc(S->ndocs + 1, sizeof *sn->paths);
  sn->uris = hl_xcalloc(S->ndocs + 1, sizeof *sn->uris);
  sn->paths[sn->ndocs] = hl_xstrdup(d->path);
  sn->uris[sn->ndocs++] = hl_xstrdup(d->uri);
  for (size_t i = 0; i < S->ndocs; i++)
    if (S->docs[i] != d) {
      sn->paths[sn->ndocs] = hl_xstrdup(S->docs[i]->path);
      sn->uris[sn->ndocs++] = hl_xstrdup(S->docs[i]->uri);
    }
}

void lsp_snapshot_free(lsp_snapshot *sn) {
  for (unsigned i = 0; i < sn->n; i++) {
    free((char *)sn->files[i].Filename);
    free((char *)sn->files[i].Contents);
  }
  free(sn->files);
  for (size_t i = 0; i < sn->ndocs; i++) {
    free(sn->paths[i]);
    free(sn->uris[i]);
  }
  free(sn->paths);
  free(sn->uris);
  memset(sn, 0, sizeof *sn);
}
