#include "rules/zones/sites.h"

#include <stdlib.h>
#include <string.h>

#include "util/util.h"
#include "rules/lib/operator_new.h"
#include "rules/lib/tokens.h"

/* The standard containers that allocate as they are inserted into, with
 * their allocator's parameter and the members that insert. */
typedef struct container {
  const char *name;
  unsigned allocator;
  int node; /* a node per insert; else a buffer (or deque's blocks) that grows */
} container;

static const container containers[] = {
    {"std::list", 1, 1},          {"std::forward_list", 1, 1},
    {"std::map", 3, 1},           {"std::multimap", 3, 1},
    {"std::set", 2, 1},           {"std::multiset", 2, 1},
    {"std::unordered_map", 4, 1}, {"std::unordered_multimap", 4, 1},
    {"std::unordered_set", 3, 1}, {"std::unordered_multiset", 3, 1},
    {"std::deque", 1, 0},         {"std::vector", 1, 0},
    {"std::basic_string", 2, 0},
};

static const char *const inserters[] = {
    "insert",        "emplace",       "emplace_hint", "emplace_back",  "emplace_front",    "push_back",
    "push_front",    "emplace_after", "insert_after", "try_emplace",   "insert_or_assign", "operator[]",
    "resize",        "reserve",       "assign",       "append",        "operator+=",       "replace",
    "shrink_to_fit", "insert_range",  "append_range", "prepend_range",
};

/* The C and C++ library functions that allocate. */
static const char *const allocators[] = {
    "malloc",
    "calloc",
    "realloc",
    "aligned_alloc",
    "posix_memalign",
    "memalign",
    "valloc",
    "strdup",
    "strndup",
    "std::make_unique",
    "std::make_unique_for_overwrite",
    "std::make_shared",
    "std::make_shared_for_overwrite",
};

static int listed(const char *name, const char *const *list, size_t n) {
  for (size_t i = 0; i < n; i++)
    if (!strcmp(name, list[i])) return 1;
  return 0;
}

static char *spelling(CXCursor c) { return hl_cxstring_take(clang_getCursorSpelling(c)); }

/* The object a member call (or a member operator) is made on, as written
 * (libstdc++ declares some members in a base class): its class, through
 * references and pointers. */
static CXType object_type(CXCursor call, CXType *written) {
  CXCursor first = hl_first_child(call);
  CXCursor obj = clang_getCursorKind(first) == CXCursor_MemberRefExpr ? hl_first_child(first) : first;
  *written = hl_unref(clang_getCursorType(hl_strip(obj)));
  if (clang_getCanonicalType(*written).kind == CXType_Pointer) *written = clang_getPointeeType(*written);
  return clang_getCanonicalType(*written);
}

/* An insert into a standard container with std::allocator: its words.
 * A const member inserts nothing; operator[] inserts into the maps only. */
static char *insert(CXCursor call, CXCursor fn, const char *method) {
  if (!listed(method, inserters, sizeof inserters / sizeof *inserters) || clang_CXXMethod_isConst(fn)) return NULL;
  CXType written, t = object_type(call, &written);
  char *name = hl_template_name(t), *r = NULL;
  int subscript = !strcmp(method, "operator[]");
  for (size_t i = 0; i < sizeof containers / sizeof *containers && !r; i++) {
    const container *k = &containers[i];
    if (strcmp(name, k->name) || (subscript && !strstr(k->name, "map")) ||
        clang_Type_getNumTemplateArguments(t) <= (int)k->allocator ||
        !hl_type_is_template(clang_Type_getTemplateArgumentAsType(t, k->allocator), "std::allocator"))
      continue;
    char *type = hl_type_readable(written);
    r = k->node ? hl_xasprintf("%s() on %s allocates a node from the global heap (std::allocator)", method, type)
                : hl_xasprintf("%s() on %s may allocate: it grows its buffer from the global heap (std::allocator)",
                               method, type);
    free(type);
  }
  free(name);
  return r;
}

/* Whether an argument of call is a call of name (a coroutine's operator
 * new is given __builtin_coro_size()). */
static int has_argument_call(CXCursor call, const char *name) {
  int n = clang_Cursor_getNumArguments(call), found = 0;
  for (int i = 0; i < n && !found; i++) {
    CXCursor a = hl_strip(clang_Cursor_getArgument(call, (unsigned)i));
    if (clang_getCursorKind(a) != CXCursor_CallExpr) continue;
    char *s = spelling(clang_getCursorReferenced(a));
    found = !strcmp(s, name);
    free(s);
  }
  return found;
}

/* A call of a function of the library (a system header). */
static hl_zcall library_call(CXCursor call, CXCursor fn, char **what) {
  char *name = hl_decl_name(fn), *method = spelling(fn);
  hl_zcall r = HL_ZCALL_NONE;
  if (listed(name, allocators, sizeof allocators / sizeof *allocators)) {
    *what = hl_xasprintf("%s() allocates from the global heap", name);
    r = HL_ZCALL_ALLOCATES;
  } else if (clang_getCursorKind(fn) == CXCursor_CXXMethod && (*what = insert(call, fn, method))) {
    r = HL_ZCALL_ALLOCATES;
  }
  free(name);
  free(method);
  return r;
}

static int in_library(CXCursor fn) { return clang_Location_isInSystemHeader(clang_getCursorLocation(fn)); }

/* The callee as the zones know it: a specialization's template. */
static CXCursor canonical_callee(CXCursor fn) {
  CXCursor t = clang_getSpecializedCursorTemplate(fn);
  return clang_getCanonicalCursor(clang_Cursor_isNull(t) ? fn : t);
}

hl_zcall hl_zone_call(CXCursor call, CXCursor *callee, char **what) {
  CXCursor fn = clang_getCursorReferenced(call);
  enum CXCursorKind k = clang_getCursorKind(fn);
  *what = NULL;
  if (clang_Cursor_isNull(fn)) {
    *what = hl_xstrdup("an indirect call");
    return HL_ZCALL_UNSEEN;
  }
  if (k == CXCursor_VarDecl || k == CXCursor_ParmDecl || k == CXCursor_FieldDecl) {
    char *n = spelling(fn);
    *what = hl_xasprintf("a call through '%s'", n);
    free(n);
    return HL_ZCALL_UNSEEN;
  }
  if (!hl_is_function_like(k)) return HL_ZCALL_NONE;
  char *name = spelling(fn);
  int op_new = !strcmp(name, "operator new") || !strcmp(name, "operator new[]");
  /* The compiler's own (a coroutine's __builtin_coro_frame()). */
  int builtin = hl_starts_with(name, "__builtin_");
  free(name);
  if (builtin) return HL_ZCALL_NONE;
  if (op_new && has_argument_call(call, "__builtin_coro_size")) {
    *what = hl_xstrdup("the coroutine's frame is allocated with operator new on every call");
    return HL_ZCALL_ALLOCATES;
  }
  if (op_new && in_library(fn)) {
    *what = hl_xstrdup("operator new allocates from the global heap");
    return HL_ZCALL_ALLOCATES;
  }
  if (in_library(fn)) return library_call(call, fn, what);
  /* A lambda's body counts where it is written; a special member the
   * compiler writes (implicit or = default) has no body to follow. */
  if (hl_type_is_lambda(clang_getCursorType(clang_getCursorSemanticParent(fn))) ||
      ((k == CXCursor_Constructor || k == CXCursor_Destructor || k == CXCursor_CXXMethod) &&
       clang_CXXMethod_isDefaulted(fn)))
    return HL_ZCALL_NONE;
  if (k == CXCursor_CXXMethod && clang_CXXMethod_isVirtual(fn) && clang_Cursor_isDynamicCall(call)) {
    char *n = hl_decl_name(fn);
    *what = hl_xasprintf("%s(), a virtual function (its overriders are not followed)", n);
    free(n);
    *callee = clang_getCanonicalCursor(fn);
    return HL_ZCALL_VIRTUAL;
  }
  *callee = canonical_callee(fn);
  return HL_ZCALL_FUNCTION;
}

/* "new (p) T" places; "new (std::nothrow) T" still allocates. */
static int placement(hl_ctx *ctx, CXCursor newx) {
  hl_strv t = hl_tokens(ctx, clang_getCursorExtent(newx));
  int placed = t.n > 1 && !strcmp(t.v[1], "("), depth = 0;
  for (size_t i = 2; placed && i < t.n; i++) {
    if (!strcmp(t.v[i], "("))
      depth++;
    else if (!strcmp(t.v[i], ")") && depth-- == 0)
      break;
    else if (!strcmp(t.v[i], "nothrow"))
      placed = 0;
  }
  hl_strv_free(&t);
  return placed;
}

hl_zcall hl_zone_new(hl_ctx *ctx, CXCursor newx, CXCursor *callee, char **what) {
  *what = NULL;
  if (placement(ctx, newx)) return HL_ZCALL_NONE;
  CXType obj = clang_getPointeeType(clang_getCursorType(newx));
  CXCursor own = hl_class_operator_new(obj);
  if (!clang_Cursor_isNull(own)) {
    *callee = clang_getCanonicalCursor(own);
    return HL_ZCALL_FUNCTION;
  }
  char *type = hl_type_spelling(obj);
  *what = hl_xasprintf("new %s allocates from the global heap", type);
  free(type);
  return HL_ZCALL_ALLOCATES;
}

char *hl_zone_throw(CXCursor throwx) {
  if (clang_Cursor_isNull(hl_first_child(throwx))) return NULL;
  return hl_xstrdup("throw allocates the exception object (__cxa_allocate_exception, from malloc)");
}
