#include "engine/inst/callsite.h"

#include "engine/ast.h"
#include "util/util.h"

/* Found from the unit down, through the cursors whose extent holds the
 * location. */
typedef struct call_find {
  CXFile file;
  unsigned offset;
  int in_template;
  CXCursor found;
  CXCursor fn; /* the innermost function holding it */
} call_find;

static int at_offset(CXCursor c, CXFile file, unsigned offset) {
  CXFile f;
  unsigned off;
  clang_getFileLocation(clang_getCursorLocation(c), &f, NULL, NULL, &off);
  return f && clang_File_isEqual(f, file) && off == offset;
}

static enum CXChildVisitResult find_call(CXCursor c, CXCursor parent, CXClientData d) {
  (void)parent;
  call_find *w = d;
  CXSourceRange r = clang_getCursorExtent(c);
  CXFile f, g;
  unsigned b, e;
  clang_getFileLocation(clang_getRangeStart(r), &f, NULL, NULL, &b);
  clang_getFileLocation(clang_getRangeEnd(r), &g, NULL, NULL, &e);
  if (!f || !g || !clang_File_isEqual(f, w->file) || !clang_File_isEqual(g, w->file) || w->offset < b || w->offset >= e)
    return CXChildVisit_Continue;
  enum CXCursorKind k = clang_getCursorKind(c);
  if (k == CXCursor_FunctionTemplate || k == CXCursor_ClassTemplate || k == CXCursor_ClassTemplatePartialSpecialization)
    w->in_template = 1;
  if (hl_is_function_like(k) && k != CXCursor_LambdaExpr) w->fn = c;
  /* The innermost call whose callee's text holds it ("requested here" is
   * at the callee's name: o.f(x), f<T>(x), N::f(x)). */
  if (k == CXCursor_CallExpr) {
    CXSourceRange cr = clang_getCursorExtent(hl_first_child(c));
    clang_getFileLocation(clang_getRangeStart(cr), &f, NULL, NULL, &b);
    clang_getFileLocation(clang_getRangeEnd(cr), &g, NULL, NULL, &e);
    if (at_offset(c, w->file, w->offset) ||
        (f && g && clang_File_isEqual(f, w->file) && clang_File_isEqual(g, w->file) && w->offset >= b && w->offset < e))
      w->found = c;
  }
  return CXChildVisit_Recurse;
}

typedef struct arg_list {
  CXCursor *v;
  size_t n, cap;
  int first;
} arg_list;

static enum CXChildVisitResult list_args(CXCursor c, CXCursor parent, CXClientData d) {
  (void)parent;
  arg_list *a = d;
  if (a->first)
    a->first = 0; /* the callee */
  else
    HL_PUSH(a->v, a->n, a->cap, c);
  return CXChildVisit_Continue;
}

int hl_callsite_at(CXTranslationUnit tu, const hl_loc *at, hl_callsite *out) {
  CXFile f = clang_getFile(tu, at->file);
  if (!f) return -1;
  call_find w = {f, at->offset, 0, clang_getNullCursor(), clang_getNullCursor()};
  clang_visitChildren(clang_getTranslationUnitCursor(tu), find_call, &w);
  *out = (hl_callsite){w.in_template, w.found, w.fn};
  return 0;
}

size_t hl_callsite_args(CXCursor call, CXCursor **out) {
  arg_list a = {NULL, 0, 0, 1};
  clang_visitChildren(call, list_args, &a);
  *out = a.v;
  return a.n;
}
