#include "rules/lib/operator_new.h"

#include <stdlib.h>
#include <string.h>

#include "util/util.h"

/* How deep the bases are searched. */
#define MAX_BASE_DEPTH 16

typedef struct walk {
  CXCursor found;
  int depth;
} walk;

static void search(CXCursor cls, walk *w);

static enum CXChildVisitResult member(CXCursor c, CXCursor parent, CXClientData d) {
  (void)parent;
  walk *w = d;
  enum CXCursorKind k = clang_getCursorKind(c);
  if (k == CXCursor_CXXMethod) {
    char *n = hl_cxstring_take(clang_getCursorSpelling(c));
    if (!strcmp(n, "operator new")) w->found = c;
    free(n);
  } else if (k == CXCursor_CXXBaseSpecifier && w->depth < MAX_BASE_DEPTH) {
    w->depth++;
    search(clang_getTypeDeclaration(clang_getCanonicalType(clang_getCursorType(c))), w);
    w->depth--;
  }
  return clang_Cursor_isNull(w->found) ? CXChildVisit_Continue : CXChildVisit_Break;
}

static void search(CXCursor cls, walk *w) {
  CXCursor def = clang_getCursorDefinition(cls);
  if (!clang_Cursor_isNull(def)) clang_visitChildren(def, member, w);
}

CXCursor hl_class_operator_new(CXType t) {
  CXType c = clang_getCanonicalType(t);
  walk w = {clang_getNullCursor(), 0};
  if (c.kind == CXType_Record) search(clang_getTypeDeclaration(c), &w);
  return w.found;
}
