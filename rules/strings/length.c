#include "rules/strings/length.h"

#include <stdlib.h>
#include <string.h>

#include "util/util.h"
#include "rules/lib/tokens.h"

/* How deep a std::string_view constant may be initialized from another. */
#define MAX_VIEW_DEPTH 8

/* The character type c is (const or not: a literal's elements are const;
 * libclang 14 has no clang_getUnqualifiedType), or NULL. */
static const char *char_type_name(CXType c) {
  static const char *const types[] = {"char", "wchar_t", "char8_t", "char16_t", "char32_t"};
  char *s = hl_type_spelling(clang_getCanonicalType(c));
  const char *t = s, *r = NULL;
  if (hl_starts_with(t, "const ")) t += 6;
  for (size_t i = 0; i < sizeof types / sizeof *types && !r; i++)
    if (!strcmp(t, types[i])) r = types[i];
  free(s);
  return r;
}

const char *hl_string_char_type(CXType t, int *std_traits) {
  CXType c = clang_getCanonicalType(hl_unref(t));
  if (c.kind != CXType_Record || !hl_type_is_template(c, "std::basic_string") ||
      clang_Type_getNumTemplateArguments(c) < 3 ||
      !hl_type_is_template(clang_Type_getTemplateArgumentAsType(c, 2), "std::allocator"))
    return NULL;
  if (std_traits) *std_traits = hl_type_is_template(clang_Type_getTemplateArgumentAsType(c, 1), "std::char_traits");
  return char_type_name(clang_Type_getTemplateArgumentAsType(c, 0));
}

static int is_view(CXType t) {
  CXType c = clang_getCanonicalType(hl_unref(t));
  return c.kind == CXType_Record && hl_type_is_template(c, "std::basic_string_view");
}

static char *spelling(CXCursor c) { return hl_cxstring_take(clang_getCursorSpelling(c)); }

static int callee_is(CXCursor call, const char *name) {
  char *n = spelling(clang_getCursorReferenced(call));
  int r = !strcmp(n, name);
  free(n);
  return r;
}

/* Where loc is spelled, as a location of its own (in a macro's body for
 * a literal a macro writes). */
static CXSourceLocation spelled(CXTranslationUnit tu, CXSourceLocation loc, int *in_macro) {
  CXFile f, ff;
  unsigned off, foff;
  clang_getSpellingLocation(loc, &f, NULL, NULL, &off);
  clang_getFileLocation(loc, &ff, NULL, NULL, &foff);
  *in_macro = !f || !ff || !clang_File_isEqual(f, ff) || off != foff;
  return f ? clang_getLocationForOffset(tu, f, off) : loc;
}

/* An escape in the literal that may write a NUL ("\0", "\x0", "\u0000"):
 * read through a pointer (char_traits::length), the string ends there.
 * A literal written in a macro's body is read there, its first token. */
static int may_hold_nul(hl_ctx *ctx, CXCursor lit) {
  CXTranslationUnit tu = hl_ctx_tu(ctx);
  CXSourceRange r = clang_getCursorExtent(lit);
  int macro_start, macro_end;
  CXSourceLocation from = spelled(tu, clang_getRangeStart(r), &macro_start);
  spelled(tu, clang_getRangeEnd(r), &macro_end);
  if (macro_start || macro_end) r = clang_getRange(from, from);
  hl_strv t = hl_tokens(ctx, r);
  int nul = t.n == 0;
  for (size_t i = 0; i < t.n && !nul; i++) {
    const char *s = t.v[i];
    /* A raw string (R before the quote) has no escapes. */
    const char *quote = strchr(s, '"');
    int raw = quote && memchr(s, 'R', (size_t)(quote - s));
    nul =
        !quote || (!raw && (strstr(s, "\\0") || strstr(s, "\\x0") || strstr(s, "\\u0000") || strstr(s, "\\U00000000")));
  }
  hl_strv_free(&t);
  return nul;
}

/* A string literal's characters: its array's size less the terminator;
 * through_pointer, up to its first NUL. */
static int literal(hl_ctx *ctx, CXCursor lit, int through_pointer, hl_strlen *out) {
  CXType t = clang_getCursorType(lit);
  long long size = clang_getArraySize(t);
  if (size < 1 || !char_type_name(clang_getArrayElementType(t)) || (through_pointer && may_hold_nul(ctx, lit)))
    return -1;
  *out = (hl_strlen){(long)size - 1, 1, 1, "a string literal", through_pointer ? lit : clang_getNullCursor()};
  return 0;
}

/* A constant count of characters (the n of std::string(n, c)). */
static int count(CXCursor e, long *n) {
  CXEvalResult r = clang_Cursor_Evaluate(e);
  if (!r) return -1;
  int ok = clang_EvalResult_getKind(r) == CXEval_Int && clang_EvalResult_getAsLongLong(r) >= 0;
  if (ok) *n = (long)clang_EvalResult_getAsLongLong(r);
  clang_EvalResult_dispose(r);
  return ok ? 0 : -1;
}

static int is_constant(CXCursor e) {
  CXEvalResult r = clang_Cursor_Evaluate(e);
  if (!r) return 0;
  int ok = clang_EvalResult_getKind(r) == CXEval_Int;
  clang_EvalResult_dispose(r);
  return ok;
}

/* The literal operators: "..."s (a std::string) and "..."sv: the whole
 * array, NULs included (the operator gets its length). */
static int suffixed(hl_ctx *ctx, CXCursor call, hl_strlen *out) {
  if (!callee_is(call, "operator\"\"s") && !callee_is(call, "operator\"\"sv")) return -1;
  CXCursor lit = hl_strip(clang_Cursor_getArgument(call, 0));
  if (clang_getCursorKind(lit) != CXCursor_StringLiteral || literal(ctx, lit, 0, out)) return -1;
  out->what = callee_is(call, "operator\"\"s") ? "a \"...\"s literal" : "a \"...\"sv literal";
  return 0;
}

/* The arguments a call writes (default arguments have no place in the source). */
static int written(CXCursor call) {
  int n = clang_Cursor_getNumArguments(call), given = 0;
  while (given < n && !clang_Range_isNull(clang_getCursorExtent(clang_Cursor_getArgument(call, (unsigned)given))))
    given++;
  return given;
}

static int view(hl_ctx *ctx, CXCursor e, int depth, hl_strlen *out);

/* A std::string_view built from a literal, a literal and a count, or
 * another view. */
static int view_construct(hl_ctx *ctx, CXCursor call, int depth, hl_strlen *out) {
  int n = written(call);
  CXCursor a0 = hl_strip(clang_Cursor_getArgument(call, 0));
  if (n == 1 && clang_getCursorKind(a0) == CXCursor_StringLiteral) return literal(ctx, a0, 1, out);
  if (n == 1) return view(ctx, a0, depth + 1, out);
  long len;
  if (n == 2 && clang_getCursorKind(a0) == CXCursor_StringLiteral && !count(clang_Cursor_getArgument(call, 1), &len)) {
    *out = (hl_strlen){len, 1, 1, "a string literal", clang_getNullCursor()};
    return 0;
  }
  return -1;
}

/* A std::string_view whose characters are known: a const variable
 * initialized from a literal, or a temporary view of one. */
static int view(hl_ctx *ctx, CXCursor e, int depth, hl_strlen *out) {
  e = hl_strip(e);
  if (depth > MAX_VIEW_DEPTH || !is_view(clang_getCursorType(e))) return -1;
  enum CXCursorKind k = clang_getCursorKind(e);
  if (k == CXCursor_CallExpr) {
    CXCursor fn = clang_getCursorReferenced(e);
    if (clang_getCursorKind(fn) == CXCursor_Constructor) return view_construct(ctx, e, depth, out);
    return suffixed(ctx, e, out);
  }
  if (k != CXCursor_DeclRefExpr) return -1;
  CXCursor d = clang_getCursorReferenced(e);
  if (clang_getCursorKind(d) != CXCursor_VarDecl || !clang_isConstQualifiedType(clang_getCursorType(d))) return -1;
  CXCursor init = hl_last_child(d);
  if (!clang_isExpression(clang_getCursorKind(init)) || view(ctx, init, depth + 1, out)) return -1;
  out->what = "a std::string_view constant";
  out->literal = clang_getNullCursor();
  return 0;
}

int hl_strlen_source(hl_ctx *ctx, CXCursor e, hl_strlen *out) {
  CXCursor s = hl_strip(e);
  if (clang_getCursorKind(s) == CXCursor_StringLiteral) return literal(ctx, s, 1, out);
  return view(ctx, s, 0, out);
}

/* The parameter of fn's type at i, canonical, references looked through. */
static CXType param(CXCursor fn, unsigned i, int *ref) {
  CXType p = clang_getArgType(clang_getCursorType(fn), i);
  if (ref) *ref = hl_is_ref(clang_getCanonicalType(p));
  return clang_getCanonicalType(hl_unref(p));
}

static int is_integer(CXType t) { return t.kind >= CXType_Char_U && t.kind <= CXType_Int128 && !char_type_name(t); }

int hl_strlen_construct(hl_ctx *ctx, CXCursor call, hl_strlen *out) {
  CXCursor fn = clang_getCursorReferenced(call);
  int n = written(call), np = clang_getNumArgTypes(clang_getCursorType(fn));
  if (clang_getCursorKind(fn) != CXCursor_Constructor || n < 1 || np < n) return -1;
  CXCursor a0 = clang_Cursor_getArgument(call, 0), lit = hl_strip(a0);
  CXType p0 = param(fn, 0, NULL);
  int is_lit = clang_getCursorKind(lit) == CXCursor_StringLiteral;
  long len;
  if (p0.kind == CXType_Pointer && n == 1 && is_lit) return literal(ctx, lit, 1, out);
  if (p0.kind == CXType_Pointer && n == 2 && is_integer(param(fn, 1, NULL)) &&
      !count(clang_Cursor_getArgument(call, 1), &len)) {
    *out = (hl_strlen){len, 1, is_lit, is_lit ? "a string literal" : "a pointer and a count", clang_getNullCursor()};
    return 0;
  }
  if (is_integer(p0) && n == 2 && char_type_name(param(fn, 1, NULL)) && !count(a0, &len)) {
    *out = (hl_strlen){len, 1, is_constant(clang_Cursor_getArgument(call, 1)), "a fill", clang_getNullCursor()};
    return 0;
  }
  if (is_view(p0) && n == 1) return view(ctx, a0, 0, out);
  return -1;
}

int hl_strlen_is_concat(CXCursor call) {
  return clang_getCursorKind(call) == CXCursor_CallExpr && callee_is(call, "operator+") &&
         clang_Cursor_getNumArguments(call) == 2 && hl_string_char_type(clang_getCursorType(call), NULL);
}

static int concat(hl_ctx *ctx, CXCursor call, hl_strlen *out);

/* A call that gives an lvalue (a function returning a reference): the
 * operator+ taking it copies it into a new string. */
static int returns_lvalue(CXCursor call) {
  CXType r = clang_getResultType(clang_getCursorType(clang_getCursorReferenced(call)));
  return clang_getCanonicalType(r).kind == CXType_LValueReference;
}

CXCursor hl_strlen_operand(CXCursor e) {
  CXCursor s = hl_strip(e);
  while (clang_getCursorKind(s) == CXCursor_CXXFunctionalCastExpr) s = hl_strip(hl_last_child(s));
  return s;
}

/* One operand of operator+. */
static int piece(hl_ctx *ctx, CXCursor e, hl_strlen *out) {
  CXCursor s = hl_strlen_operand(e);
  CXType t = clang_getCanonicalType(clang_getCursorType(s));
  enum CXCursorKind k = clang_getCursorKind(s);
  if (k == CXCursor_StringLiteral) return literal(ctx, s, 1, out);
  if (char_type_name(t)) {
    *out = (hl_strlen){1, 1, is_constant(s), "a character", clang_getNullCursor()};
    return 0;
  }
  int string = hl_string_char_type(t, NULL) != NULL;
  if (k == CXCursor_CallExpr && hl_strlen_is_concat(s)) return concat(ctx, s, out);
  if (k == CXCursor_CallExpr && string && !hl_strlen_call(ctx, s, out)) return 0;
  if (k == CXCursor_CallExpr && string && clang_getCursorKind(clang_getCursorReferenced(s)) == CXCursor_Constructor) {
    /* Below C++17, a temporary is moved into the operand: look through
     * the (elided) move for what was built. */
    if (!hl_strlen_construct(ctx, s, out)) return 0;
    CXCursor fn = clang_getCursorReferenced(s);
    int ref;
    if (clang_Cursor_getNumArguments(s) == 1 && param(fn, 0, &ref).kind == CXType_Record && ref)
      return piece(ctx, clang_Cursor_getArgument(s, 0), out);
    return -1;
  }
  int lvalue = (string && (k == CXCursor_DeclRefExpr || k == CXCursor_MemberRefExpr)) ||
               (string && k == CXCursor_CallExpr && returns_lvalue(s)) || t.kind == CXType_Pointer;
  if (!lvalue) return -1;
  *out = (hl_strlen){0, 0, 0, "a concatenation", clang_getNullCursor()};
  return 0;
}

static int concat(hl_ctx *ctx, CXCursor call, hl_strlen *out) {
  hl_strlen a, b;
  if (piece(ctx, clang_Cursor_getArgument(call, 0), &a) || piece(ctx, clang_Cursor_getArgument(call, 1), &b)) return -1;
  *out = (hl_strlen){a.min + b.min, a.exact && b.exact, a.constant && b.constant, "a concatenation",
                     clang_getNullCursor()};
  return 0;
}

int hl_strlen_call(hl_ctx *ctx, CXCursor call, hl_strlen *out) {
  if (hl_strlen_is_concat(call)) return concat(ctx, call, out);
  return suffixed(ctx, call, out);
}
