#include "engine/flow/decls.h"

#include <stdlib.h>
#include <string.h>

#include "engine/ast.h"
#include "engine/flow/flow_impl.h"
#include "util/util.h"

int hl_flow_is_wrapper_value(const hl_ctx *ctx, CXType t) {
  return !hl_is_ref(t) && !hl_is_ref(clang_getCanonicalType(t)) && hl_ctx_wrapper_of_type(ctx, t);
}

static CXCursor enclosing_class(CXCursor field) { return clang_getCursorSemanticParent(field); }

/* A parameter const W &: what it refers to is the caller's value, which the
 * callee cannot change (a copy of it copies that value). */
int hl_flow_is_const_wrapper_ref(const hl_ctx *ctx, CXType t) {
  CXType c = clang_getCanonicalType(t);
  return c.kind == CXType_LValueReference && clang_isConstQualifiedType(clang_getPointeeType(c)) &&
         hl_ctx_wrapper_of_type(ctx, clang_getPointeeType(c));
}

typedef struct field_find {
  char *name;
  CXCursor found;
} field_find;

static enum CXChildVisitResult same_named_field(CXCursor c, CXCursor parent, CXClientData data) {
  (void)parent;
  field_find *F = data;
  if (clang_getCursorKind(c) != CXCursor_FieldDecl) return CXChildVisit_Continue;
  char *name = hl_cxstring_take(clang_getCursorSpelling(c));
  int same = !strcmp(name, F->name);
  free(name);
  if (same) F->found = c;
  return same ? CXChildVisit_Break : CXChildVisit_Continue;
}

/* A member of a class template's specialization (o.cb of a tm<int> o) is
 * the template's own member: the template's code names that one. */
static CXCursor pattern_field(CXCursor f) {
  if (clang_getCursorKind(f) != CXCursor_FieldDecl) return f;
  CXCursor tmpl = clang_getSpecializedCursorTemplate(enclosing_class(f));
  if (clang_Cursor_isNull(tmpl)) return f;
  field_find F = {hl_cxstring_take(clang_getCursorSpelling(f)), f};
  clang_visitChildren(tmpl, same_named_field, &F);
  free(F.name);
  return F.found;
}

/* A declaration whose every write and use this translation unit shows: a
 * local variable (not static or thread_local), a by-value parameter, or a member of a class
 * defined in the main file (a header's class may be written by other
 * translation units). A parameter's writes are its function's calls: they
 * are all seen only for a function with internal linkage. */
int hl_flow_trackable(const hl_ctx *ctx, CXCursor d) {
  enum CXCursorKind k = clang_getCursorKind(d);
  if (k == CXCursor_ParmDecl && hl_flow_is_const_wrapper_ref(ctx, clang_getCursorType(d))) return 1;
  if (!hl_flow_is_wrapper_value(ctx, clang_getCursorType(d))) return 0;
  if (k == CXCursor_VarDecl)
    return clang_Cursor_getStorageClass(d) != CX_SC_Static && clang_Cursor_getStorageClass(d) != CX_SC_Extern &&
           clang_getCursorTLSKind(d) == CXTLS_None &&
           hl_is_function_like(clang_getCursorKind(clang_getCursorSemanticParent(d)));
  if (k == CXCursor_ParmDecl) return 1;
  if (k == CXCursor_FieldDecl) return clang_Location_isFromMainFile(clang_getCursorLocation(enclosing_class(d)));
  return 0;
}

int hl_flow_decl_index(hl_flow *F, CXCursor d) {
  CXCursor canon = clang_getCanonicalCursor(pattern_field(d));
  for (size_t i = 0; i < F->ndecls; i++)
    if (clang_equalCursors(F->decls[i].cursor, canon)) return (int)i;
  flow_decl n = {canon, 0, 0, 0, 0, 0, -1, 0, NULL};
  HL_PUSH(F->decls, F->ndecls, F->capdecls, n);
  return (int)F->ndecls - 1;
}

/* The tracked declaration an expression names (through implicit
 * conversions and parentheses), or -1. */
int hl_flow_named_decl(const hl_ctx *ctx, hl_flow *F, CXCursor e, CXCursor *ref) {
  e = hl_strip(e);
  enum CXCursorKind k = clang_getCursorKind(e);
  if (k != CXCursor_DeclRefExpr && k != CXCursor_MemberRefExpr) return -1;
  CXCursor d = clang_getCursorReferenced(e);
  if (!hl_flow_trackable(ctx, d)) return -1;
  if (ref) *ref = e;
  return hl_flow_decl_index(F, d);
}
