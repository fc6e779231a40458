#include "rules/strings/fix.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "util/util.h"
#include "rules/lib/rewrite.h"
#include "rules/lib/uses.h"
#include "rules/strings/length.h"

/* The const members std::basic_string_view shares with std::basic_string,
 * with the same meaning and result types (not substr: it returns a view). */
static const char *const view_members[] = {
    "size",
    "length",
    "empty",
    "data",
    "begin",
    "end",
    "cbegin",
    "cend",
    "rbegin",
    "rend",
    "crbegin",
    "crend",
    "front",
    "back",
    "operator[]",
    "at",
    "find",
    "rfind",
    "find_first_of",
    "find_last_of",
    "find_first_not_of",
    "find_last_not_of",
    "compare",
    "starts_with",
    "ends_with",
    "contains",
    "copy",
    "max_size",
};

/* Operators a view (and a const string) takes as well as a string. */
static const char *const view_operators[] = {
    "operator==", "operator!=", "operator<", "operator<=", "operator>", "operator>=", "operator<=>", "operator<<"};

static int listed(const char *name, const char *const *list, size_t n) {
  for (size_t i = 0; i < n; i++)
    if (!strcmp(name, list[i])) return 1;
  return 0;
}

static void block(hl_strfix *x, int kind, const char *fmt, const char *a, const hl_loc *at) {
  if (x->blocked[kind]) return;
  char *where = hl_loc_where(at);
  x->blocked[kind] = hl_xasprintf(fmt, a, where);
  free(where);
}

static void block_all(hl_strfix *x, const char *fmt, const char *a, const hl_loc *at) {
  for (int k = 0; k < HL_STRFIX_KINDS; k++) block(x, k, fmt, a, at);
}

static int is_view(CXType t) {
  return hl_type_is_template(clang_getCanonicalType(hl_unref(t)), "std::basic_string_view");
}

/* A parameter that can change what it is given: a reference to non-const
 * (or an rvalue reference: it may be moved from). */
static int may_modify(CXType p) {
  CXType c = clang_getCanonicalType(p);
  if (c.kind == CXType_RValueReference) return 1;
  return c.kind == CXType_LValueReference && !clang_isConstQualifiedType(clang_getPointeeType(c));
}

/* The variable is the object of method m. */
static void member(hl_strfix *x, CXCursor m, const hl_loc *at) {
  /* Its conversion to a std::string_view: what a view is already. */
  if (clang_getCursorKind(m) == CXCursor_ConversionFunction && is_view(clang_getCursorResultType(m))) return;
  char *name = hl_cxstring_take(clang_getCursorSpelling(m));
  int is_const = clang_CXXMethod_isConst(m);
  if (!is_const) block(x, HL_STRFIX_STATIC, "its %s() at %s modifies it", name, at);
  if (!is_const || !listed(name, view_members, sizeof view_members / sizeof *view_members))
    block(x, HL_STRFIX_VIEW, "its %s() at %s is no member of std::string_view", name, at);
  CXType fty = clang_getCursorType(m);
  int tied = hl_string_char_type(clang_getResultType(fty), NULL) && !hl_is_ref(clang_getResultType(fty));
  for (int i = 0; i < clang_getNumArgTypes(fty) && !tied; i++)
    tied = hl_string_char_type(clang_getArgType(fty, (unsigned)i), NULL) != NULL;
  if (tied) block(x, HL_STRFIX_POOL, "its %s() at %s takes or returns a std::string", name, at);
  free(name);
}

/* The variable is argument i of a call of fn (another string the other
 * operand of an operator, when other is not null). */
static void argument(hl_strfix *x, CXCursor fn, int i, CXCursor other, const hl_loc *at) {
  CXType fty = clang_getCursorType(fn);
  char *name = hl_cxstring_take(clang_getCursorSpelling(fn));
  char *shown = hl_xasprintf("%s()", name);
  if (i < 0 || i >= clang_getNumArgTypes(fty)) {
    block_all(x, "it is passed to %s at %s", shown, at);
  } else {
    CXType p = clang_getArgType(fty, (unsigned)i);
    int op = listed(name, view_operators, sizeof view_operators / sizeof *view_operators);
    if (may_modify(p)) block_all(x, "it is passed to %s at %s, which may modify it", shown, at);
    if (!op && !is_view(p)) block(x, HL_STRFIX_VIEW, "it is passed to %s at %s as a std::string", shown, at);
    if ((!op && !is_view(p) && clang_getCanonicalType(hl_unref(p)).kind != CXType_Pointer) ||
        (op && !clang_Cursor_isNull(other) && hl_string_char_type(clang_getCursorType(other), NULL)))
      block(x, HL_STRFIX_POOL, "it is passed to %s at %s with a std::string", shown, at);
  }
  free(shown);
  free(name);
}

/* The variable is the argument of a constructor call p (ancestor k of the
 * reference), which copies or moves it into a new string: say into what —
 * returned, another variable, a call's argument — as the statement reads,
 * not as the constructor's name ("basic_string()"). */
static void constructed(hl_ctx *ctx, hl_strfix *x, size_t k, CXCursor p, CXCursor fn, const hl_loc *at) {
  size_t m = k + 1;
  CXCursor q = hl_ctx_opaque_ancestor(ctx, &m, p, NULL);
  enum CXCursorKind qk = clang_getCursorKind(q);
  CXType fty = clang_getCursorType(fn);
  int moved = clang_getNumArgTypes(fty) > 0 && may_modify(clang_getArgType(fty, 0));
  char *into = NULL;
  if (qk == CXCursor_ReturnStmt) {
    block_all(x, "it is %s at %s", "returned", at);
    return;
  }
  if (qk == CXCursor_CallExpr) {
    char *f = hl_callee_phrase(q);
    into = hl_xasprintf("%s into an argument of %s", moved ? "moved" : "copied", f);
    free(f);
  } else if (qk == CXCursor_VarDecl || qk == CXCursor_FieldDecl) {
    char *n = hl_cxstring_take(clang_getCursorSpelling(q));
    into = hl_xasprintf("%s into '%s'", moved ? "moved" : "copied", n);
    free(n);
  } else {
    into = hl_xstrdup(moved ? "moved into another string" : "copied into another string");
  }
  if (moved) block_all(x, "it is %s at %s", into, at);
  block(x, HL_STRFIX_VIEW, "it is %s at %s, which a view does not convert to", into, at);
  block(x, HL_STRFIX_POOL, "it is %s at %s, a std::string", into, at);
  free(into);
}

/* The call p (the opaque ancestor k of ref, below being its child on the way). */
static void in_call(hl_ctx *ctx, hl_strfix *x, size_t k, CXCursor p, CXCursor below, const hl_loc *at) {
  CXCursor fn = clang_getCursorReferenced(p);
  enum CXCursorKind fk = clang_getCursorKind(fn);
  if (fk == CXCursor_Constructor) {
    constructed(ctx, x, k, p, fn, at);
    return;
  }
  if ((fk == CXCursor_CXXMethod || fk == CXCursor_ConversionFunction) && clang_equalCursors(hl_first_child(p), below)) {
    member(x, fn, at);
    return;
  }
  int n = clang_Cursor_getNumArguments(p), i = -1;
  for (int a = 0; a < n && i < 0; a++)
    if (clang_equalCursors(clang_Cursor_getArgument(p, (unsigned)a), below)) i = a;
  CXCursor other = n == 2 && i >= 0 ? clang_Cursor_getArgument(p, (unsigned)(1 - i)) : clang_getNullCursor();
  if (clang_Cursor_isNull(fn))
    block_all(x, "it is passed to %s at %s", "a call heaplint cannot follow", at);
  else
    argument(x, fn, i, other, at);
}

void hl_strfix_use(hl_ctx *ctx, CXCursor ref, hl_strfix *x) {
  hl_loc at;
  if (hl_ctx_loc(ctx, clang_getCursorLocation(ref), &at)) return;
  size_t k = 0;
  CXCursor below, p = hl_ctx_opaque_ancestor(ctx, &k, ref, &below);
  switch (clang_getCursorKind(p)) {
  case CXCursor_MemberRefExpr: {
    size_t m = k + 1;
    CXCursor q = hl_ctx_opaque_ancestor(ctx, &m, p, NULL), method = clang_getCursorReferenced(p);
    enum CXCursorKind mk = clang_getCursorKind(method);
    if (clang_getCursorKind(q) == CXCursor_CallExpr && (mk == CXCursor_CXXMethod || mk == CXCursor_ConversionFunction))
      member(x, method, &at);
    else
      block_all(x, "%s at %s", "one of its members is used", &at);
    break;
  }
  case CXCursor_CallExpr: in_call(ctx, x, k, p, below, &at); break;
  case CXCursor_CXXForRangeStmt:
    if (may_modify(clang_getCursorType(hl_first_child(p)))) {
      block(x, HL_STRFIX_STATIC, "%s at %s", "a range-based for binds its characters to references", &at);
      block(x, HL_STRFIX_VIEW, "%s at %s", "a range-based for binds its characters to references", &at);
    }
    break;
  case CXCursor_ReturnStmt: block_all(x, "it is %s at %s", "returned", &at); break;
  case CXCursor_VarDecl:
    if (may_modify(clang_getCursorType(p))) block_all(x, "it is %s at %s", "bound to a reference", &at);
    block(x, HL_STRFIX_VIEW, "it is %s at %s", "bound to a reference", &at);
    block(x, HL_STRFIX_POOL, "it is %s at %s", "bound to a reference", &at);
    break;
  case CXCursor_UnaryOperator: block_all(x, "its %s at %s", "address is taken", &at); break;
  default: block_all(x, "it is %s at %s", "used in an expression heaplint does not follow", &at); break;
  }
  hl_loc_free(&at);
}

void hl_strfix_free(hl_strfix *x) {
  for (int k = 0; k < HL_STRFIX_KINDS; k++) free(x->blocked[k]);
  memset(x, 0, sizeof *x);
}

/* ---- the declared type ---- */

static const char *const aliases[] = {"string", "wstring", "u8string", "u16string", "u32string"};

static enum CXChildVisitResult find_alias(CXCursor c, CXCursor parent, CXClientData d) {
  (void)parent;
  enum CXCursorKind k = clang_getCursorKind(c);
  if (k == CXCursor_TypeRef) {
    *(CXCursor *)d = c;
    return CXChildVisit_Break;
  }
  return k == CXCursor_NamespaceRef ? CXChildVisit_Continue : CXChildVisit_Break;
}

/* text is "[const] [::]std::<alias>" (spaces between the tokens allowed). */
static const char *match_type(const char *text, size_t n, int *is_const) {
  size_t p = 0;
#define SKIP_SPACE() \
  while (p < n && isspace((unsigned char)text[p])) p++
#define EAT(lit) (n - p >= sizeof lit - 1 && !memcmp(text + p, lit, sizeof lit - 1) ? (p += sizeof lit - 1, 1) : 0)
  SKIP_SPACE();
  *is_const = EAT("const") && p < n && isspace((unsigned char)text[p]);
  if (!*is_const) p = 0;
  SKIP_SPACE();
  EAT("::");
  SKIP_SPACE();
  if (!EAT("std")) return NULL;
  SKIP_SPACE();
  if (!EAT("::")) return NULL;
  SKIP_SPACE();
  for (size_t i = 0; i < sizeof aliases / sizeof *aliases; i++)
    if (n - p == strlen(aliases[i]) && !memcmp(text + p, aliases[i], n - p)) return aliases[i];
  return NULL;
#undef EAT
#undef SKIP_SPACE
}

int hl_strfix_type(hl_ctx *ctx, CXCursor decl, hl_edit *e, char **name, int *is_const, char **why) {
  memset(e, 0, sizeof *e);
  *why = NULL;
  CXCursor ref = clang_getNullCursor();
  clang_visitChildren(decl, find_alias, &ref);
  CXFile f1, f2;
  unsigned start, end;
  if (clang_getCursorType(decl).kind == CXType_Auto) {
    *why = hl_xstrdup("its type is deduced (auto)");
    return -1;
  }
  if (clang_Cursor_isNull(ref) ||
      !hl_rewrite_spelled_at(clang_getRangeStart(clang_getCursorExtent(decl)), &f1, &start) ||
      !hl_rewrite_spelled_at(clang_getRangeEnd(clang_getCursorExtent(ref)), &f2, &end) || !clang_File_isEqual(f1, f2) ||
      end <= start) {
    *why = hl_xstrdup("its type is not written as std::string outside a macro");
    return -1;
  }
  size_t size;
  const char *text = clang_getFileContents(hl_ctx_tu(ctx), f1, &size);
  const char *alias = text && end <= size ? match_type(text + start, end - start, is_const) : NULL;
  if (!alias || hl_rewrite_span(ctx, f1, start, end, e)) {
    *why = hl_xstrdup("its type is not written as std::string (or const std::string)");
    return -1;
  }
  *name = hl_xstrdup(alias);
  return 0;
}
