#include "engine/inst/users.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/ast.h"
#include "engine/inst/callsite.h"
#include "engine/inst/inst.h"
#include "util/util.h"

typedef struct carried {
  CXSourceRange within; /* the argument's extent: variables declared inside are its own */
  int depth;            /* of locals followed to their initializers */
  int found;
} carried;

static int dependent_type(CXType t) {
  long long n = hl_type_size(t);
  return n == CXTypeLayoutError_Dependent || n == CXTypeLayoutError_Undeduced;
}

static enum CXChildVisitResult find_carried(CXCursor c, CXCursor parent, CXClientData d);

/* Whether a local of a dependent type is built from a parameter of one
 * (taskflow's `auto task = part([=] { c(*beg++); })`, `std::packaged_task
 * p(std::forward<F>(f))`), not from the function's own values
 * (`std::vector<T> input(n)`). */
static int built_from_parameter(CXCursor var, int depth) {
  if (depth > 3) return 0;
  carried w = {clang_getCursorExtent(var), depth + 1, 0};
  clang_visitChildren(var, find_carried, &w);
  return w.found;
}

static enum CXChildVisitResult find_carried(CXCursor c, CXCursor parent, CXClientData d) {
  (void)parent;
  carried *w = d;
  enum CXCursorKind k = clang_getCursorKind(c);
  if (k != CXCursor_DeclRefExpr && k != CXCursor_VariableRef) return CXChildVisit_Recurse;
  CXCursor decl = clang_getCursorReferenced(c);
  enum CXCursorKind dk = clang_getCursorKind(decl);
  if ((dk != CXCursor_ParmDecl && dk != CXCursor_VarDecl) || !dependent_type(clang_getCursorType(decl)))
    return CXChildVisit_Recurse;
  unsigned off, begin, end;
  clang_getFileLocation(clang_getCursorLocation(decl), NULL, NULL, NULL, &off);
  clang_getFileLocation(clang_getRangeStart(w->within), NULL, NULL, NULL, &begin);
  clang_getFileLocation(clang_getRangeEnd(w->within), NULL, NULL, NULL, &end);
  if (off >= begin && off < end) return CXChildVisit_Recurse;
  if (dk == CXCursor_VarDecl && !built_from_parameter(decl, w->depth)) return CXChildVisit_Recurse;
  w->found = 1;
  return CXChildVisit_Break;
}

/* Whether the call at L passes on what its function was given or built
 * from it: it is in a template's code and an argument names a parameter
 * of a dependent type or a local built from one (std::forward<F>(f), a
 * lambda capturing f, a task built from it); a call not found there
 * counts as passing on. A lambda written there capturing the function's
 * own locals, or a temporary (P(c)), is handed over. */
static int passes_on(hl_inst *P, const hl_loc *L) {
  hl_callsite w;
  if (hl_callsite_at(P->u.tu, L, &w)) return 0;
  if (!w.in_template) return 0;
  if (clang_Cursor_isNull(w.call)) return 1;
  CXCursor *args;
  size_t nargs = hl_callsite_args(w.call, &args);
  int pass = 0;
  for (size_t i = 0; i < nargs && !pass; i++) {
    carried c = {clang_getCursorExtent(args[i]), 0, 0};
    if (find_carried(args[i], clang_getNullCursor(), &c) == CXChildVisit_Recurse)
      clang_visitChildren(args[i], find_carried, &c);
    pass = c.found;
  }
  free(args);
  return pass;
}

typedef struct pass_seen {
  char *file;
  unsigned offset;
  int pass;
} pass_seen;

/* Whether type is the lambda written at loc ("(lambda at F:line:col)"). */
static int lambda_at(const char *type, const hl_loc *loc) {
  if (!type || !hl_starts_with(type, "(lambda at ")) return 0;
  char tail[48];
  snprintf(tail, sizeof tail, ":%u:%u)", loc->line, loc->col);
  return hl_ends_with(type, tail);
}

/* Each hit's user: the first entry outward, up to its outer, where the
 * value was handed over rather than passed on. In a header (a library),
 * any value built from what the caller gave passes on (its lambda around
 * the caller's callable); in the unit's own file, only the stored value
 * itself does (its type among the callee's template arguments, or a
 * member of a class template, which has none of its own, passing a
 * parameter on): a test's `template <class T> void fill_sync(T val)`
 * calling `taskflow.fill(b, e, val)` hands over there the library's lambda
 * that copies val. In a header, a call the stored type goes through
 * passes it on (the library's own lambda is reported at the user's call
 * into the library). */
void hl_choose_users(hl_inst *P) {
  pass_seen *seen = NULL;
  size_t nseen = 0, capseen = 0;
  CXFile main_file = clang_getFile(P->u.tu, P->u.job->source);
  for (size_t i = 0; i < P->nhits; i++) {
    hl_inst_answer *h = &P->hits[i];
    /* A lambda written at a store in a generic lambda's body of the unit's
     * own code (pipes.emplace_back(type, [&](auto &pf) { ... }) inside a
     * pipe's [&](auto &pf)) is handed over there: what instantiates the
     * enclosing lambda is the library calling it. */
    CXFile f0 = clang_getFile(P->u.tu, h->chain[0].file);
    if (h->nchain > 1 && h->carries[1] == 3 && main_file && f0 && clang_File_isEqual(f0, main_file) &&
        lambda_at(h->type, &h->chain[0])) {
      h->user = 0;
      continue;
    }
    for (size_t k = 1; k < h->outer; k++) {
      if (h->in_system[k]) continue;
      CXFile f = clang_getFile(P->u.tu, h->chain[k].file);
      int own = main_file && f && clang_File_isEqual(f, main_file);
      if (own && !h->carries[k]) {
        h->user = k;
        break;
      }
      if (!own && h->carries[k] == 1) continue;
      size_t q = 0;
      while (q < nseen && !(seen[q].offset == h->chain[k].offset && !strcmp(seen[q].file, h->chain[k].file))) q++;
      if (q == nseen) {
        pass_seen ps = {hl_xstrdup(h->chain[k].file), h->chain[k].offset, passes_on(P, &h->chain[k])};
        HL_PUSH(seen, nseen, capseen, ps);
      }
      if (!seen[q].pass) {
        h->user = k;
        break;
      }
    }
  }
  for (size_t i = 0; i < nseen; i++) free(seen[i].file);
  free(seen);
}
