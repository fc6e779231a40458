#include "engine/ast.h"

#include <stdlib.h>
#include <string.h>

#include "util/util.h"

char *hl_cxstring_take(CXString s) {
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

typedef struct children {
  CXCursor *v;
  size_t n, cap;
} children;

static enum CXChildVisitResult push_child(CXCursor c, CXCursor parent, CXClientData d) {
  (void)parent;
  children *C = d;
  HL_PUSH(C->v, C->n, C->cap, c);
  return CXChildVisit_Continue;
}

CXCursor *hl_children(CXCursor c, size_t *n) {
  children C = {0};
  clang_visitChildren(c, push_child, &C);
  *n = C.n;
  return C.v;
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

/* The spelling of clang's placeholder types is their name in angle
 * brackets ("<overloaded function type>", "<bound member function type>");
 * libclang exposes only the first by kind. No type the code can name
 * spells that way: classes, lambdas ("(lambda at ...)") and the dependent
 * type ("<dependent type>", which libclang answers) aside. */
static int is_placeholder(CXType t) {
  CXType c = clang_getCanonicalType(t);
  if (c.kind == CXType_Overload) return 1;
  if (c.kind != CXType_Unexposed) return 0;
  CXString s = clang_getTypeSpelling(c);
  const char *p = clang_getCString(s);
  int placeholder = p && p[0] == '<' && strcmp(p, "<dependent type>") != 0;
  clang_disposeString(s);
  return placeholder;
}

long long hl_type_size(CXType t) {
  if (is_placeholder(hl_is_ref(t) ? clang_getPointeeType(t) : t)) return CXTypeLayoutError_Invalid;
  return clang_Type_getSizeOf(t);
}

long long hl_type_align(CXType t) {
  if (is_placeholder(hl_is_ref(t) ? clang_getPointeeType(t) : t)) return CXTypeLayoutError_Invalid;
  return clang_Type_getAlignOf(t);
}

int hl_type_is_dependent(CXType t) { return hl_type_size(t) == CXTypeLayoutError_Dependent; }

int hl_is_ref(CXType t) { return t.kind == CXType_LValueReference || t.kind == CXType_RValueReference; }

CXType hl_unref(CXType t) {
  if (hl_is_ref(t)) return clang_getPointeeType(t);
  CXType c = clang_getCanonicalType(t);
  return hl_is_ref(c) ? clang_getPointeeType(c) : t;
}

/* The name of the template the class of canon specializes; for a class
 * that specializes none, its own name (or_class) or "". */
static char *specialized_name(CXType canon, int or_class) {
  CXCursor d = clang_getTypeDeclaration(canon);
  if (clang_Cursor_isNull(d)) return hl_xstrdup("");
  CXCursor tmpl = clang_getSpecializedCursorTemplate(d);
  if (clang_Cursor_isNull(tmpl)) return or_class ? hl_decl_name(d) : hl_xstrdup("");
  return hl_decl_name(tmpl);
}

char *hl_template_name(CXType t) { return specialized_name(clang_getCanonicalType(t), 0); }

int hl_type_is_template(CXType t, const char *name) {
  char *n = hl_template_name(t);
  int r = !strcmp(n, name);
  free(n);
  return r;
}

char *hl_class_name(CXType t) { return specialized_name(clang_getCanonicalType(hl_unref(t)), 1); }

int hl_same_class(CXType a, CXType b) {
  CXCursor da = clang_getTypeDeclaration(clang_getCanonicalType(hl_unref(a)));
  CXCursor db = clang_getTypeDeclaration(clang_getCanonicalType(hl_unref(b)));
  return !clang_Cursor_isNull(da) && !clang_Cursor_isNull(db) &&
         clang_equalCursors(clang_getCanonicalCursor(da), clang_getCanonicalCursor(db));
}

char *hl_type_spelling(CXType t) { return hl_cxstring_take(clang_getTypeSpelling(t)); }

char *hl_type_readable(CXType t) {
  char *a = hl_type_spelling(t), *b = hl_type_spelling(clang_getCanonicalType(t));
  if (strlen(b) < strlen(a)) {
    free(a);
    return b;
  }
  free(b);
  return a;
}

int hl_type_is_lambda(CXType t) {
  char *s = hl_type_spelling(clang_getCanonicalType(t));
  int r = hl_starts_with(s, "(lambda at ") || strstr(s, "::(lambda at ") != NULL;
  free(s);
  return r;
}

static int is_scope(enum CXCursorKind k) {
  return k == CXCursor_Namespace || k == CXCursor_StructDecl || k == CXCursor_ClassDecl || k == CXCursor_UnionDecl ||
         k == CXCursor_ClassTemplate || k == CXCursor_ClassTemplatePartialSpecialization || k == CXCursor_EnumDecl;
}

char *hl_decl_name(CXCursor decl) {
  char *parts[64];
  size_t n = 0;
  for (CXCursor c = decl; n < 64; c = clang_getCursorSemanticParent(c)) {
    enum CXCursorKind k = clang_getCursorKind(c);
    if (clang_Cursor_isNull(c) || k == CXCursor_TranslationUnit || clang_isInvalid(k)) break;
    if (c.kind == CXCursor_Namespace && clang_Cursor_isInlineNamespace(c)) continue;
    if (n > 0 && !is_scope(k)) break; /* a local class: its function is no scope */
    parts[n++] = hl_cxstring_take(clang_getCursorSpelling(c));
  }
  hl_sb b = {0};
  while (n > 0) {
    hl_sb_puts(&b, parts[--n]);
    free(parts[n]);
    if (n) hl_sb_puts(&b, "::");
  }
  return hl_sb_take(&b);
}

char *hl_file_abspath(CXFile f, const char *workdir) {
  CXString real = clang_File_tryGetRealPathName(f);
  const char *r = clang_getCString(real);
  char *path = NULL;
  if (r && r[0] == '/') path = hl_abspath(r);
  clang_disposeString(real);
  if (path) return path;
  CXString name = clang_getFileName(f);
  const char *n = clang_getCString(name);
  char *joined = (n && n[0] != '/' && workdir) ? hl_xasprintf("%s/%s", workdir, n) : hl_xstrdup(n ? n : "");
  clang_disposeString(name);
  path = hl_abspath(joined);
  free(joined);
  return path;
}

const struct CXUnsavedFile *hl_unsaved_find(const struct CXUnsavedFile *base, unsigned nbase, const char *name) {
  for (unsigned i = 0; i < nbase; i++)
    if (!strcmp(base[i].Filename, name)) return &base[i];
  return NULL;
}

struct CXUnsavedFile *hl_unsaved_copy(const struct CXUnsavedFile *v, unsigned n) {
  struct CXUnsavedFile *c = hl_xcalloc(n ? n : 1, sizeof *c);
  for (unsigned i = 0; i < n; i++) {
    char *text = hl_xmalloc(v[i].Length + 1);
    memcpy(text, v[i].Contents, v[i].Length);
    text[v[i].Length] = '\0';
    c[i] = (struct CXUnsavedFile){hl_xstrdup(v[i].Filename), text, v[i].Length};
  }
  return c;
}

void hl_unsaved_free(struct CXUnsavedFile *v, unsigned n) {
  for (unsigned i = 0; i < n; i++) {
    free((char *)v[i].Filename);
    free((char *)v[i].Contents);
  }
  free(v);
}

struct CXUnsavedFile *hl_unsaved_with(const struct CXUnsavedFile *base, unsigned nbase,
                                      const struct CXUnsavedFile *over, unsigned nover, unsigned *n) {
  struct CXUnsavedFile *v = hl_xcalloc(nbase + nover ? nbase + nover : 1, sizeof *v);
  *n = 0;
  for (unsigned i = 0; i < nover; i++) v[(*n)++] = over[i];
  for (unsigned i = 0; i < nbase; i++)
    if (!hl_unsaved_find(over, nover, base[i].Filename)) v[(*n)++] = base[i];
  return v;
}
