/* make-shared: a std::shared_ptr constructed, or reset, from a new
 * expression: two global heap allocations, the object and then the
 * shared_ptr's control block, where std::make_shared makes one block for
 * both (and std::allocate_shared with hl::pool_allocator none from the
 * global heap). Fix: std::make_shared, when it builds the same object in
 * the same way. See docs/rules/make-shared.md. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "util/util.h"
#include "rules/lib/operator_new.h"
#include "rules/lib/rewrite.h"
#include "rules/lib/tokens.h"
#include "rules/lib/uses.h"

#define RULE "make-shared"

/* A new expression as its text reads: "new T(args)" or "new T{args}". */
typedef struct new_text {
  const char *type, *args; /* in the file's text */
  size_t ntype, nargs;
  char open; /* '(' or '{'; 0 when there are no parentheses */
} new_text;

static int is_shared_ptr(CXType t) {
  return hl_type_is_template(clang_getCanonicalType(hl_unref(t)), "std::shared_ptr");
}

/* The arguments a call writes (default arguments have no place in the source). */
static int written(CXCursor call) {
  int n = clang_Cursor_getNumArguments(call), given = 0;
  while (given < n && !clang_Range_isNull(clang_getCursorExtent(clang_Cursor_getArgument(call, (unsigned)given))))
    given++;
  return given;
}

/* Reads "new T(args)" in text[0, n): no placement, no array, no "::new". */
static int read_new(const char *text, size_t n, new_text *t) {
  size_t p = 0;
  memset(t, 0, sizeof *t);
  if (n < 4 || strncmp(text, "new", 3) || !isspace((unsigned char)text[3])) return -1;
  for (p = 3; p < n && isspace((unsigned char)text[p]); p++) {
  }
  if (p == n || text[p] == '(') return -1;
  t->type = text + p;
  int angle = 0;
  for (; p < n; p++) {
    char c = text[p];
    if (c == '<')
      angle++;
    else if (c == '>')
      angle--;
    else if (!angle && (c == '(' || c == '{' || c == '['))
      break;
  }
  if (p < n && text[p] == '[') return -1;
  t->ntype = (size_t)(text + p - t->type);
  while (t->ntype && isspace((unsigned char)t->type[t->ntype - 1])) t->ntype--;
  if (p == n) return 0;
  char close = text[p] == '(' ? ')' : '}';
  if (text[n - 1] != close) return -1;
  t->open = text[p];
  t->args = text + p + 1;
  t->nargs = n - 1 - (p + 1);
  return 0;
}

static enum CXChildVisitResult constructor(CXCursor c, CXCursor parent, CXClientData d) {
  (void)parent;
  if (clang_getCursorKind(c) == CXCursor_CallExpr &&
      clang_getCursorKind(clang_getCursorReferenced(c)) == CXCursor_Constructor) {
    *(CXCursor *)d = c;
    return CXChildVisit_Break;
  }
  return CXChildVisit_Continue;
}

/* An argument std::make_shared cannot forward as the new expression passes
 * it: a null pointer constant (0, NULL) to a pointer parameter (forwarded,
 * it is an integer), a bit-field (no reference binds to one), a braced
 * list (nothing to deduce). */
static const char *unforwardable(CXCursor call) {
  CXCursor ctor = clang_getCursorReferenced(call);
  CXType fty = clang_getCursorType(ctor);
  int n = clang_Cursor_getNumArguments(call);
  for (int i = 0; i < n; i++) {
    CXCursor a = clang_Cursor_getArgument(call, (unsigned)i), s = hl_strip(a);
    enum CXCursorKind k = clang_getCursorKind(s);
    CXType p = clang_getCanonicalType(clang_getArgType(fty, (unsigned)i));
    if (p.kind == CXType_Pointer && (k == CXCursor_IntegerLiteral || clang_Cursor_isNull(s)))
      return "an argument is a null pointer constant, which std::make_shared would forward as an integer";
    if (k == CXCursor_MemberRefExpr && clang_Cursor_isBitField(clang_getCursorReferenced(s)))
      return "an argument is a bit-field, which std::make_shared cannot take by reference";
    if (k == CXCursor_InitListExpr) return "an argument is a braced list, which std::make_shared cannot forward";
  }
  return NULL;
}

/* Why std::make_shared would not build the object newx builds the way it
 * does, or NULL: braces (make_shared uses parentheses), a constructor it
 * cannot reach, an argument it cannot forward. */
static const char *not_the_same(CXCursor newx, const new_text *t) {
  if (t->open == '{') return "the object is initialized with braces, and std::make_shared uses parentheses";
  CXCursor call = clang_getNullCursor();
  clang_visitChildren(newx, constructor, &call);
  if (!clang_Cursor_isNull(call) && clang_getCXXAccessSpecifier(clang_getCursorReferenced(call)) != CX_CXXPublic)
    return "its constructor is not public: std::make_shared cannot call it";
  return clang_Cursor_isNull(call) ? NULL : unforwardable(call);
}

/* ".reset" before the '(' of a reset call: where " = " goes instead. */
static int reset_span(const char *text, unsigned name_off, unsigned *dot) {
  unsigned p = name_off;
  while (p > 0 && isspace((unsigned char)text[p - 1])) p--;
  if (p == 0 || text[p - 1] != '.') return -1;
  *dot = p - 1;
  return 0;
}

/* The edit: "new T(args)" becomes "std::make_shared<T>(args)" in place; a
 * functional cast to std::shared_ptr<T> itself is replaced whole; p.reset(new
 * T(args)) becomes p = std::make_shared<T>(args). */
static int plan_edit(hl_ctx *ctx, CXCursor site, CXCursor newx, int reset, hl_edit *e, char **why) {
  hl_edit ne;
  const char *text;
  if (hl_rewrite_extent(ctx, newx, &ne, &text)) {
    *why = hl_xstrdup("the new expression is written in a macro");
    return -1;
  }
  new_text t;
  const char *blocked = read_new(text + ne.offset, ne.length, &t) ? "heaplint cannot read the new expression" : NULL;
  if (!blocked) blocked = not_the_same(newx, &t);
  if (blocked) {
    *why = hl_xstrdup(blocked);
    hl_edit_free(&ne);
    return -1;
  }
  char *call = hl_xasprintf("std::make_shared<%.*s>(%.*s)", (int)t.ntype, t.type, (int)t.nargs, t.args ? t.args : "");
  CXType obj = clang_getPointeeType(clang_getCursorType(newx));
  hl_edit whole;
  if (reset) {
    unsigned dot, name_off;
    CXFile f;
    CXCursor member = hl_first_child(site);
    if (!hl_rewrite_spelled_at(clang_getCursorLocation(member), &f, &name_off) || reset_span(text, name_off, &dot) ||
        hl_rewrite_span(ctx, f, dot, ne.offset + ne.length + 1, &whole) || text[ne.offset + ne.length] != ')') {
      *why = hl_xstrdup("heaplint cannot read the reset call (through ->, or written in a macro)");
      free(call);
      hl_edit_free(&ne);
      return -1;
    }
    hl_edit_free(&ne);
    *e = whole;
    e->text = hl_xasprintf(" = %s", call);
    free(call);
    return 0;
  }
  size_t k = 0;
  CXCursor cast = hl_ctx_opaque_ancestor(ctx, &k, site, NULL);
  if (clang_getCursorKind(cast) == CXCursor_CXXFunctionalCastExpr &&
      clang_equalTypes(clang_getCanonicalType(
                           clang_Type_getTemplateArgumentAsType(clang_getCanonicalType(clang_getCursorType(site)), 0)),
                       clang_getCanonicalType(obj)) &&
      hl_rewrite_extent(ctx, cast, &whole, &text) == 0) {
    hl_edit_free(&ne);
    ne = whole;
  }
  *e = ne;
  e->text = call;
  return 0;
}

/* The type of the object a member call is made on (the pointee through
 * ->), as written: libstdc++ declares reset() in a base of std::shared_ptr,
 * to which the object is converted. */
static CXType object_type(CXCursor call) {
  CXCursor member = hl_first_child(call);
  CXType t = clang_getCanonicalType(clang_getCursorType(hl_strip(hl_first_child(member))));
  return t.kind == CXType_Pointer ? clang_getPointeeType(t) : t;
}

/* A std::shared_ptr constructor or reset() whose pointer is a new
 * expression; *reset says which. A null cursor when c is neither. */
static CXCursor new_of(CXCursor c, int *reset, int *extra) {
  CXCursor fn = clang_getCursorReferenced(c);
  enum CXCursorKind fk = clang_getCursorKind(fn);
  *reset = 0;
  if (fk == CXCursor_Constructor && is_shared_ptr(clang_getCursorType(c))) {
  } else if (fk == CXCursor_CXXMethod && clang_getCursorKind(hl_first_child(c)) == CXCursor_MemberRefExpr &&
             is_shared_ptr(object_type(c))) {
    char *n = hl_cxstring_take(clang_getCursorSpelling(fn));
    *reset = !strcmp(n, "reset");
    free(n);
    if (!*reset) return clang_getNullCursor();
  } else {
    return clang_getNullCursor();
  }
  int n = written(c);
  *extra = n - 1;
  CXCursor a = n >= 1 && n <= 2 ? hl_strip(clang_Cursor_getArgument(c, 0)) : clang_getNullCursor();
  return clang_getCursorKind(a) == CXCursor_CXXNewExpr ? a : clang_getNullCursor();
}

/* new T[n]: '[' after the type, before any '(' or '{'. */
static int is_array_new(hl_ctx *ctx, CXCursor newx) {
  hl_strv t = hl_tokens(ctx, clang_getCursorExtent(newx));
  int array = 0, stop = 0;
  for (size_t i = 0; i < t.n && !stop; i++) {
    array = !strcmp(t.v[i], "[");
    stop = array || !strcmp(t.v[i], "(") || !strcmp(t.v[i], "{");
  }
  hl_strv_free(&t);
  return array;
}

static void report(hl_ctx *ctx, CXCursor c, CXCursor newx, int reset, int deleter) {
  hl_loc at;
  CXType obj = clang_getPointeeType(clang_getCursorType(newx));
  if (!clang_Cursor_isNull(hl_class_operator_new(obj)) || hl_ctx_loc(ctx, clang_getCursorLocation(newx), &at)) return;
  int array = is_array_new(ctx, newx);
  char *type = hl_type_spelling(obj), *sp = hl_type_readable(reset ? object_type(c) : clang_getCursorType(c));
  int loop = !clang_Cursor_isNull(hl_loop_around(ctx, c));
  char *m = hl_xasprintf(
      "%s %s 'new %s%s': two allocations%s, the object and then the control block, where "
      "std::make_shared makes one",
      sp, reset ? "is reset to" : "takes", type, array ? "[]" : "",
      loop ? " on every iteration of the enclosing loop" : "");
  hl_finding *f = hl_finding_new(RULE, HL_SEV_WARNING, &at, m);
  free(m);
  hl_ctx_range(ctx, f, newx);
  hl_edit e;
  char *why = NULL;
  if (array) {
    m = hl_xasprintf("an array: std::make_shared<%s[]>(n) (C++20) makes one block; not rewritten", type);
  } else if (deleter) {
    m = hl_xstrdup("it has a deleter of its own: std::make_shared cannot take one; not rewritten");
  } else if (plan_edit(ctx, c, newx, reset, &e, &why) == 0) {
    m = hl_xasprintf("fix: %s%s builds the object and its control block in one allocation", reset ? "assign " : "",
                     e.text + (reset ? 3 : 0));
    hl_finding_edit(f, &e);
    hl_edit_free(&e);
  } else {
    m = hl_xasprintf("use std::make_shared<%s>; not rewritten automatically: %s", type, why);
  }
  hl_finding_note(f, &at, m);
  free(m);
  m = hl_xasprintf(
      "std::allocate_shared<%s>(hl::pool_allocator<%s>(), ...) (<heaplint/pool_allocator.hpp>) makes "
      "the one block in heaplint's pools, none from the global heap",
      type, type);
  if (!deleter && !array) hl_finding_note(f, &at, m);
  free(m);
  free(why);
  free(type);
  free(sp);
  hl_loc_free(&at);
  hl_ctx_report(ctx, f);
}

static void visit(hl_ctx *ctx, void *st, CXCursor c) {
  (void)st;
  if (clang_getCursorKind(c) != CXCursor_CallExpr) return;
  int reset, extra = 0;
  CXCursor newx = new_of(c, &reset, &extra);
  if (!clang_Cursor_isNull(newx)) report(ctx, c, newx, reset, extra > 0);
}

const hl_rule hl_rule_make_shared = {
    RULE, NULL, NULL, visit, NULL, NULL, /* no state: everything is decided during the walk */
    0,    NULL,                          /* no link step */
    NULL,                                /* no project-wide plan */
    NULL, NULL,                          /* no numbers from the profiles, no config key */
};
