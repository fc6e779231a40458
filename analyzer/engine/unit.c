#include "engine/unit.h"

#include <stdlib.h>
#include <string.h>

#include "engine/ast.h"
#include "util/util.h"

/* Keyed by the name libclang gives the file (its real path when it
 * knows one, else its name as included), which with the job's directory
 * is all the path is made from: a location of another parse (a probe's)
 * finds its own file's. */
struct hl_unit_paths {
  unsigned long long *hashes;
  char **keys, **paths;
  size_t n, cap;
};

struct hl_unit_paths *hl_unit_paths_new(void) { return hl_xcalloc(1, sizeof(struct hl_unit_paths)); }

void hl_unit_paths_free(struct hl_unit_paths *p) {
  if (!p) return;
  for (size_t i = 0; i < p->n; i++) {
    free(p->keys[i]);
    free(p->paths[i]);
  }
  free(p->hashes);
  free(p->keys);
  free(p->paths);
  free(p);
}

static char *cached(struct hl_unit_paths *p, CXFile file, const char *workdir, const char *key) {
  unsigned long long h = hl_fnv1a(key, strlen(key));
  for (size_t i = p->n; i-- > 0;)
    if (p->hashes[i] == h && !strcmp(p->keys[i], key)) return hl_xstrdup(p->paths[i]);
  if (p->n == p->cap) {
    p->cap = p->cap ? 2 * p->cap : 16;
    p->hashes = hl_xrealloc(p->hashes, p->cap * sizeof *p->hashes);
    p->keys = hl_xrealloc(p->keys, p->cap * sizeof *p->keys);
    p->paths = hl_xrealloc(p->paths, p->cap * sizeof *p->paths);
  }
  p->hashes[p->n] = h;
  p->keys[p->n] = hl_xstrdup(key);
  p->paths[p->n] = hl_file_abspath(file, workdir);
  return hl_xstrdup(p->paths[p->n++]);
}

/* file's absolute path (hl_file_abspath), made once per name when u has a
 * cache: a walk asks the same few files' thousands of times, and making
 * one costs a system call per directory. */
static char *abspath_of(const hl_unit *u, CXFile file) {
  if (!u->paths) return hl_file_abspath(file, u->job->directory);
  CXString real = clang_File_tryGetRealPathName(file), name = {0};
  const char *key = clang_getCString(real);
  int named = !key || key[0] != '/';
  if (named) {
    name = clang_getFileName(file);
    key = clang_getCString(name);
  }
  char *path = cached(u->paths, file, u->job->directory, key ? key : "");
  clang_disposeString(real);
  if (named) clang_disposeString(name);
  return path;
}

int hl_unit_loc(const hl_unit *u, CXSourceLocation loc, hl_loc *out) {
  CXFile file;
  unsigned line, col, offset;
  clang_getFileLocation(loc, &file, &line, &col, &offset);
  if (!file) return -1;
  out->file = abspath_of(u, file);
  out->line = line;
  out->col = col;
  out->offset = offset;
  return 0;
}

static unsigned offset_of(CXSourceLocation at) {
  unsigned offset = 0;
  clang_getFileLocation(at, NULL, NULL, NULL, &offset);
  return offset;
}

/* Whether tu has an error in its main file at or after offset end. */
static int error_from(CXTranslationUnit tu, size_t end) {
  int found = 0;
  unsigned n = clang_getNumDiagnostics(tu);
  for (unsigned i = 0; i < n && !found; i++) {
    CXDiagnostic d = clang_getDiagnostic(tu, i);
    CXSourceLocation at = clang_getDiagnosticLocation(d);
    found = clang_getDiagnosticSeverity(d) >= CXDiagnostic_Error && clang_Location_isFromMainFile(at) &&
            offset_of(at) >= end;
    clang_disposeDiagnostic(d);
  }
  return found;
}

static enum CXChildVisitResult last_in_main(CXCursor c, CXCursor parent, CXClientData data) {
  (void)parent;
  if (clang_Location_isFromMainFile(clang_getCursorLocation(c))) *(CXCursor *)data = c;
  return CXChildVisit_Continue;
}

size_t hl_unit_questions_at(const hl_unit *u, const char *text, size_t len) {
  size_t end = len;
  while (end && (text[end - 1] == ' ' || text[end - 1] == '\t' || text[end - 1] == '\n' || text[end - 1] == '\r'))
    end--;
  if (!error_from(u->tu, end)) return len;
  /* The declaration left open is the last one (its extent may end before
   * what is open in it: "int f( {"); a declaration's types after an error
   * are not trusted anyway. */
  CXCursor last = clang_getNullCursor();
  clang_visitChildren(clang_getTranslationUnitCursor(u->tu), last_in_main, &last);
  size_t from = clang_Cursor_isNull(last) ? 0 : offset_of(clang_getRangeStart(clang_getCursorExtent(last)));
  return from < len ? from : len;
}
