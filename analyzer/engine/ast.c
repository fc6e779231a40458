#include "engine/ast.h"

#include "engine/typeinfo.h"
#include "util/util.h"

char *hl_cx(CXString s) {
  const char *p = clang_getCString(s);
  char *r = hl_xstrdup(p ? p : "");
  clang_disposeString(s);
  return r;
}

static enum CXChildVisitResult take_first(CXCursor c, CXCursor parent, CXClientData d) {
  (void)parent;
  *(CXCursor *)d = c;
  return CXChildVisit_Break;
}

static enum CXChildVisitResult take_last(CXCursor c, CXCursor parent, CXClientData d) {
  (void)parent;
  *(CXCursor *)d = c;
  return CXChildVisit_Continue;
}

CXCursor hl_first_child(CXCursor c) {
  CXCursor r = clang_getNullCursor();
  clang_visitChildren(c, take_first, &r);
  return r;
}

CXCursor hl_last_child(CXCursor c) {
  CXCursor r = clang_getNullCursor();
  clang_visitChildren(c, take_last, &r);
  return r;
}

int hl_is_transparent(CXCursor c) {
  enum CXCursorKind k = clang_getCursorKind(c);
  return k == CXCursor_UnexposedExpr || k == CXCursor_ParenExpr;
}

CXCursor hl_strip(CXCursor c) {
  while (hl_is_transparent(c)) c = hl_first_child(c);
  return c;
}

int hl_is_function_template_specialization(CXCursor fn) {
  CXCursor t = clang_getSpecializedCursorTemplate(fn);
  return !clang_Cursor_isNull(t) && clang_getCursorKind(t) == CXCursor_FunctionTemplate;
}

int hl_is_function_like(enum CXCursorKind k) {
  return k == CXCursor_FunctionDecl || k == CXCursor_CXXMethod || k == CXCursor_Constructor ||
         k == CXCursor_Destructor || k == CXCursor_ConversionFunction || k == CXCursor_FunctionTemplate ||
         k == CXCursor_LambdaExpr;
}

int hl_is_ref(CXType t) { return t.kind == CXType_LValueReference || t.kind == CXType_RValueReference; }

CXType hl_unref(CXType t) {
  if (hl_is_ref(t)) return clang_getPointeeType(t);
  CXType c = clang_getCanonicalType(t);
  return hl_is_ref(c) ? clang_getPointeeType(c) : t;
}

char *hl_template_name(CXType t) {
  CXCursor d = clang_getTypeDeclaration(clang_getCanonicalType(t));
  if (clang_Cursor_isNull(d)) return hl_xstrdup("");
  CXCursor tmpl = clang_getSpecializedCursorTemplate(d);
  return clang_Cursor_isNull(tmpl) ? hl_xstrdup("") : hl_decl_name(tmpl);
}

int hl_same_class(CXType a, CXType b) {
  CXCursor da = clang_getTypeDeclaration(clang_getCanonicalType(hl_unref(a)));
  CXCursor db = clang_getTypeDeclaration(clang_getCanonicalType(hl_unref(b)));
  return !clang_Cursor_isNull(da) && !clang_Cursor_isNull(db) &&
         clang_equalCursors(clang_getCanonicalCursor(da), clang_getCanonicalCursor(db));
}
