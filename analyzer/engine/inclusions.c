#include "engine/inclusions.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "engine/ast.h"
#include "util/util.h"

static void list_file(CXFile f, CXSourceLocation *stack, unsigned len, CXClientData data) {
  (void)stack;
  hl_inclusions *in = data;
  CXString name = clang_getFileName(f);
  const char *path = clang_getCString(name);
  if (in->files.n == in->captop) {
    in->captop = in->captop ? 2 * in->captop : 64;
    in->top = hl_xrealloc(in->top, in->captop);
  }
  in->top[in->files.n] = len == 0;
  hl_strv_add(&in->files, path ? path : "");
  clang_disposeString(name);
}

/* pre, then each file's path and what it is now (an editor's unsaved text
 * by its content, a file on disk by its identity); the main file is left
 * out (its preprocessor lines are in pre), as any visited at the top. */
static unsigned long long key_files(const hl_inclusions *in, const struct CXUnsavedFile *unsaved, unsigned nunsaved) {
  unsigned long long h = in->pre;
  for (size_t i = 0; i < in->files.n; i++) {
    if (in->top[i]) continue;
    const char *path = in->files.v[i];
    h = hl_fnv1a_more(h, path, strlen(path) + 1);
    const struct CXUnsavedFile *u = hl_unsaved_find(unsaved, nunsaved, path);
    struct stat st;
    if (u) {
      h = hl_fnv1a_more(h, u->Contents, u->Length);
    } else if (stat(path, &st) == 0) {
      long long id[5] = {(long long)st.st_dev, (long long)st.st_ino, (long long)st.st_size,
                         (long long)st.st_mtim.tv_sec, (long long)st.st_mtim.tv_nsec};
      h = hl_fnv1a_more(h, id, sizeof id);
    } else {
      h = hl_fnv1a_more(h, "?", 1);
    }
  }
  return h;
}

/* The main file's preprocessor lines (a line whose first non-blank is #). */
static unsigned long long key_directives(unsigned long long h, const char *text, size_t len) {
  size_t i = 0;
  while (i < len) {
    size_t end = i;
    while (end < len && text[end] != '\n') end++;
    size_t j = i;
    while (j < end && (text[j] == ' ' || text[j] == '\t')) j++;
    if (j < end && text[j] == '#') h = hl_fnv1a_more(h, text + j, end - j + 1 <= len - j ? end - j + 1 : end - j);
    i = end + 1;
  }
  return h;
}

unsigned long long hl_inclusions_update(hl_inclusions *in, CXTranslationUnit tu, const char *const *args, size_t nargs,
                                        const struct CXUnsavedFile *unsaved, unsigned nunsaved, const char *main_text,
                                        size_t len) {
  unsigned long long pre = hl_fnv1a("heaplint trait memo", 19);
  for (size_t i = 0; i < nargs; i++) pre = hl_fnv1a_more(pre, args[i], strlen(args[i]) + 1);
  pre = key_directives(pre, main_text ? main_text : "", main_text ? len : 0);
  /* The same arguments and lines over the same files read the same files. */
  if (in->listed && pre == in->pre && key_files(in, unsaved, nunsaved) == in->key) return in->key;
  hl_strv_free(&in->files);
  if (tu) clang_getInclusions(tu, list_file, in);
  in->pre = pre;
  in->listed = tu != NULL;
  in->key = key_files(in, unsaved, nunsaved);
  return in->key;
}

void hl_inclusions_free(hl_inclusions *in) {
  hl_strv_free(&in->files);
  free(in->top);
  memset(in, 0, sizeof *in);
}
