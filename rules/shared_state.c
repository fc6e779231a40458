/* shared-state: what allocates a shared state — a std::promise, a
 * std::packaged_task made from a callable, a call of std::async, a
 * std::thread started with a callable (its state holds the callable and
 * its arguments) — in the body of a loop, where it calls the global heap on
 * every iteration; the number of calls is each library's, from its profile.
 * Outside a loop the site is only a verdict, for no-alloc's zones. No fix:
 * the note says how to keep it out of the loop. See
 * docs/rules/shared-state.md. */
#include <stdlib.h>
#include <string.h>

#include "util/util.h"
#include "rules/lib/uses.h"

#define RULE "shared-state"

/* What allocates a shared state, as a profile names it: std::async with
 * launch::async (or the default policy) and with launch::deferred are two. */
static const char *const makers[] = {"std::promise", "std::packaged_task", "std::async", "std::async-deferred",
                                     "std::thread"};

/* The profiles' shared-state: {std::promise: 2, ...}: the global operator
 * new calls each maker makes, per library (docs/profiles.md). */
static const hl_profile_section profile[] = {
    {"shared-state", NULL, makers, sizeof makers / sizeof *makers, -1, "key"},
    {NULL, NULL, NULL, 0, -1, NULL},
};

/* The arguments a call writes (default arguments have no place in the source). */
static int written(CXCursor call) {
  int n = clang_Cursor_getNumArguments(call), given = 0;
  while (given < n && !clang_Range_isNull(clang_getCursorExtent(clang_Cursor_getArgument(call, (unsigned)given))))
    given++;
  return given;
}

/* A constructor's first parameter is the class itself (a move) or
 * std::allocator_arg_t (the caller's allocator): no global heap of its own. */
static int moves_or_allocates_elsewhere(CXCursor ctor, CXType cls) {
  if (clang_getNumArgTypes(clang_getCursorType(ctor)) < 1) return 0;
  CXType p = clang_getCanonicalType(hl_unref(clang_getArgType(clang_getCursorType(ctor), 0)));
  char *n = hl_class_name(p);
  int r = hl_same_class(p, cls) || !strcmp(n, "std::allocator_arg_t");
  free(n);
  return r;
}

/* std::async's policy is launch::deferred, as written. */
static int deferred(CXCursor call) {
  if (written(call) < 2) return 0;
  CXCursor a = hl_strip(clang_Cursor_getArgument(call, 0));
  if (clang_getCursorKind(a) != CXCursor_DeclRefExpr) return 0;
  char *n = hl_cxstring_take(clang_getCursorSpelling(clang_getCursorReferenced(a)));
  int r = !strcmp(n, "deferred");
  free(n);
  return r;
}

/* What c makes: one of makers, or NULL. */
static const char *maker(CXCursor c) {
  CXCursor fn = clang_getCursorReferenced(c);
  enum CXCursorKind k = clang_getCursorKind(fn);
  const char *r = NULL;
  if (k == CXCursor_Constructor) {
    CXType t = clang_getCanonicalType(clang_getCursorType(c));
    char *n = hl_class_name(t);
    int args = written(c);
    if (moves_or_allocates_elsewhere(fn, t))
      r = NULL;
    else if (!strcmp(n, "std::promise") && args == 0)
      r = "std::promise";
    else if (!strcmp(n, "std::packaged_task") && args == 1)
      r = "std::packaged_task";
    else if (!strcmp(n, "std::thread") && args >= 1)
      r = "std::thread";
    free(n);
  } else if (k == CXCursor_FunctionDecl) {
    char *n = hl_decl_name(fn);
    if (!strcmp(n, "std::async")) r = deferred(c) ? "std::async-deferred" : "std::async";
    free(n);
  }
  return r;
}

/* "std::promise<int> allocates its shared state": the subject and what it
 * makes, in words. */
static char *subject(CXCursor c, const char *what) {
  if (!strcmp(what, "std::async"))
    return hl_xstrdup("std::async(std::launch::async) allocates a shared state and starts a thread");
  if (!strcmp(what, "std::async-deferred"))
    return hl_xstrdup("std::async(std::launch::deferred) allocates a shared state");
  char *t = hl_type_readable(clang_getCursorType(c)), *r;
  if (!strcmp(what, "std::thread"))
    r = hl_xasprintf("%s allocates the state that holds its callable and arguments", t);
  else
    r = hl_xasprintf("%s allocates its shared state", t);
  free(t);
  return r;
}

static void judge(hl_ctx *ctx, CXCursor c, const char *what) {
  hl_loc at;
  if (hl_ctx_loc(ctx, clang_getCursorLocation(c), &at)) return;
  const char *library = NULL;
  long n = hl_ctx_profile_number(ctx, &profile[0], what, &library);
  int loop = !clang_Cursor_isNull(hl_loop_around(ctx, c));
  char *s = subject(c, what);
  /* A task's callable may not fit a library's buffer in the state: one more. */
  int at_least = !strcmp(what, "std::packaged_task");
  char *count = n >= 0 ? hl_xasprintf(": %s%ld call%s of the global operator new on %s", at_least ? "at least " : "", n,
                                      n == 1 ? "" : "s", library)
                       : hl_xstrdup("");
  char *m = hl_xasprintf("%s%s%s", s, loop ? " on every iteration of the enclosing loop" : "", count);
  if (!loop) {
    hl_ctx_allocation(ctx, RULE, &at, m);
  } else {
    hl_finding *f = hl_finding_new(RULE, HL_SEV_WARNING, &at, m);
    hl_ctx_range(ctx, f, c);
    hl_finding_note(f, &at,
                    !strncmp(what, "std::thread", 11) || !strcmp(what, "std::async")
                        ? "start the threads once, outside the loop (a pool fed through a queue that does not allocate)"
                        : "make the shared states once, outside the loop, or pass results through storage that is "
                          "allocated once");
    hl_ctx_report(ctx, f);
  }
  free(m);
  free(count);
  free(s);
  hl_loc_free(&at);
}

static void visit(hl_ctx *ctx, void *st, CXCursor c) {
  (void)st;
  if (clang_getCursorKind(c) != CXCursor_CallExpr) return;
  const char *what = maker(c);
  if (what) judge(ctx, c, what);
}

const hl_rule hl_rule_shared_state = {
    RULE,    NULL, NULL, visit, NULL, NULL, /* no state: everything is decided during the walk */
    0,       NULL,                          /* no link step */
    NULL,                                   /* no project-wide plan */
    profile, NULL,                          /* no config key */
};
