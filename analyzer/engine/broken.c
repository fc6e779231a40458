#include "engine/broken.h"

#include <stdlib.h>
#include <string.h>

#include "engine/ast.h"
#include "util/util.h"

typedef struct point {
  CXFile file;
  unsigned offset;
} point;

struct hl_broken {
  CXTranslationUnit tu;
  point *v;
  size_t n, cap;
};

static void add(hl_broken *b, CXSourceLocation loc) {
  point p;
  clang_getFileLocation(loc, &p.file, NULL, NULL, &p.offset);
  if (p.file) HL_PUSH(b->v, b->n, b->cap, p);
}

/* A class clang marked invalid, or one whose members, bases or template
 * arguments are of such a class. The library's own classes are not
 * searched (an error there is not the user's code), nor deeper than a few
 * levels (a class that holds itself through a pointer is not a record
 * member). */
static int invalid_type(CXType t, int depth);

typedef struct fields {
  int depth, bad;
} fields;

static enum CXVisitorResult field(CXCursor c, CXClientData data) {
  fields *f = data;
  f->bad = invalid_type(clang_getCursorType(c), f->depth + 1);
  return f->bad ? CXVisit_Break : CXVisit_Continue;
}

static enum CXChildVisitResult base(CXCursor c, CXCursor parent, CXClientData data) {
  (void)parent;
  fields *f = data;
  if (clang_getCursorKind(c) == CXCursor_CXXBaseSpecifier) f->bad = invalid_type(clang_getCursorType(c), f->depth + 1);
  return f->bad ? CXChildVisit_Break : CXChildVisit_Continue;
}

static int invalid_type(CXType t, int depth) {
  CXType c = clang_getCanonicalType(hl_unref(t));
  while (c.kind == CXType_ConstantArray || c.kind == CXType_IncompleteArray) c = clang_getArrayElementType(c);
  if (c.kind != CXType_Record || depth > 4) return 0;
  CXCursor decl = clang_getTypeDeclaration(c);
  if (clang_isInvalidDeclaration(decl)) return 1;
  if (clang_Location_isInSystemHeader(clang_getCursorLocation(decl))) return 0;
  fields f = {depth, 0};
  clang_Type_visitFields(c, field, &f);
  if (!f.bad) clang_visitChildren(decl, base, &f);
  int n = clang_Type_getNumTemplateArguments(c);
  for (int i = 0; i < n && !f.bad; i++)
    f.bad = invalid_type(clang_Type_getTemplateArgumentAsType(c, (unsigned)i), depth + 1);
  return f.bad;
}

/* A capture the lambda's source names but its closure does not hold: the
 * name's token belongs to no capture, only to the lambda itself. */
static int lost_capture(CXTranslationUnit tu, CXCursor lambda) {
  CXToken *toks;
  unsigned n;
  clang_tokenize(tu, clang_getCursorExtent(lambda), &toks, &n);
  int lost = 0, depth = 0;
  for (unsigned i = 0; i < n && !lost; i++) {
    char *s = hl_cxstring_take(clang_getTokenSpelling(tu, toks[i]));
    if (!strcmp(s, "["))
      depth++;
    else if (!strcmp(s, "]"))
      depth--;
    else if (clang_getTokenKind(toks[i]) == CXToken_Identifier && strcmp(s, "this")) {
      CXCursor at = clang_getCursor(tu, clang_getTokenLocation(tu, toks[i]));
      lost = clang_getCursorKind(at) == CXCursor_LambdaExpr &&
             clang_equalLocations(clang_getCursorLocation(at), clang_getCursorLocation(lambda));
    }
    free(s);
    if (depth == 0) break;
  }
  clang_disposeTokens(tu, toks, n);
  return lost;
}

typedef struct walk {
  hl_broken *b;
  int in_template;
} walk;

static int is_template(enum CXCursorKind k) {
  return k == CXCursor_FunctionTemplate || k == CXCursor_ClassTemplate ||
         k == CXCursor_ClassTemplatePartialSpecialization || k == CXCursor_TypeAliasTemplateDecl;
}

static enum CXChildVisitResult find(CXCursor c, CXCursor parent, CXClientData data) {
  (void)parent;
  walk *w = data;
  if (clang_Location_isInSystemHeader(clang_getCursorLocation(c))) return CXChildVisit_Continue;
  enum CXCursorKind k = clang_getCursorKind(c);
  int bad = clang_isDeclaration(k) && clang_isInvalidDeclaration(c);
  if (!bad && clang_isExpression(k)) {
    CXCursor ref = clang_getCursorReferenced(c);
    CXType t = clang_getCursorType(c);
    /* Outside a template only an error makes an expression dependent. */
    bad = (t.kind == CXType_Dependent && !w->in_template) ||
          (!clang_Cursor_isNull(ref) && clang_isInvalidDeclaration(ref)) || invalid_type(t, 0) ||
          (k == CXCursor_LambdaExpr && lost_capture(w->b->tu, c));
  }
  if (bad) add(w->b, clang_getCursorLocation(c));
  walk inner = {w->b, w->in_template || is_template(k)};
  clang_visitChildren(c, find, &inner);
  return CXChildVisit_Continue;
}

hl_broken *hl_broken_find(CXTranslationUnit tu) {
  hl_broken *b = hl_xcalloc(1, sizeof *b);
  b->tu = tu;
  unsigned n = clang_getNumDiagnostics(tu);
  for (unsigned i = 0; i < n; i++) {
    CXDiagnostic d = clang_getDiagnostic(tu, i);
    if (clang_getDiagnosticSeverity(d) >= CXDiagnostic_Error) add(b, clang_getDiagnosticLocation(d));
    clang_disposeDiagnostic(d);
  }
  walk w = {b, 0};
  clang_visitChildren(clang_getTranslationUnitCursor(tu), find, &w);
  return b;
}

int hl_broken_covers(const hl_broken *b, CXCursor c) {
  enum CXCursorKind k = clang_getCursorKind(c);
  if (!clang_isExpression(k) && k != CXCursor_VarDecl && k != CXCursor_FieldDecl) return 0;
  CXSourceRange r = clang_getCursorExtent(c);
  CXFile bf, ef;
  unsigned bo, eo;
  clang_getFileLocation(clang_getRangeStart(r), &bf, NULL, NULL, &bo);
  clang_getFileLocation(clang_getRangeEnd(r), &ef, NULL, NULL, &eo);
  if (!bf || !ef || !clang_File_isEqual(bf, ef)) return 0;
  for (size_t i = 0; i < b->n; i++)
    if (clang_File_isEqual(b->v[i].file, bf) && bo <= b->v[i].offset && b->v[i].offset <= eo) return 1;
  return 0;
}

void hl_broken_free(hl_broken *b) {
  if (!b) return;
  free(b->v);
  free(b);
}
