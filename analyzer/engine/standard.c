#include "engine/standard.h"

#include <stdlib.h>
#include <string.h>

#include "engine/ast.h"
#include "util/util.h"

#define PROBE_VAR "heaplint_cplusplus"

/* The probe stands in for the source under the source's own name, so the
 * language is chosen from its name and -x exactly as for the real parse. */
static const char probe[] =
    "#ifdef __cplusplus\n"
    "long " PROBE_VAR
    " = __cplusplus;\n"
    "#else\n"
    "long " PROBE_VAR
    " = 0;\n"
    "#endif\n";

typedef struct found {
  long value;
  int ok;
} found;

static enum CXChildVisitResult find_probe(CXCursor c, CXCursor parent, CXClientData d) {
  (void)parent;
  found *f = d;
  if (clang_getCursorKind(c) != CXCursor_VarDecl) return CXChildVisit_Continue;
  char *name = hl_cxstring_take(clang_getCursorSpelling(c));
  int is_probe = !strcmp(name, PROBE_VAR);
  free(name);
  if (!is_probe) return CXChildVisit_Continue;
  CXEvalResult r = clang_Cursor_Evaluate(c);
  if (r && clang_EvalResult_getKind(r) == CXEval_Int) {
    f->value = clang_EvalResult_getAsLongLong(r);
    f->ok = 1;
  }
  if (r) clang_EvalResult_dispose(r);
  return CXChildVisit_Break;
}

long hl_standard_cplusplus(CXIndex index, const char *source, const char *const *args, size_t nargs) {
  /* Forced includes would only cost time: the standard does not depend on
   * them (a precompiled one could even refuse the probe). */
  const char **a = hl_xcalloc(nargs ? nargs : 1, sizeof *a);
  size_t n = 0;
  for (size_t i = 0; i < nargs; i++) {
    if (!strcmp(args[i], "-include") || !strcmp(args[i], "-include-pch") || !strcmp(args[i], "-imacros")) {
      i++;
      continue;
    }
    if (hl_starts_with(args[i], "-include") || hl_starts_with(args[i], "-imacros")) continue;
    a[n++] = args[i];
  }
  struct CXUnsavedFile unsaved = {source, probe, (unsigned long)(sizeof probe - 1)};
  CXTranslationUnit tu = NULL;
  found f = {0, 0};
  if (clang_parseTranslationUnit2(index, source, a, (int)n, &unsaved, 1, CXTranslationUnit_None, &tu) ==
          CXError_Success &&
      tu) {
    clang_visitChildren(clang_getTranslationUnitCursor(tu), find_probe, &f);
    clang_disposeTranslationUnit(tu);
  }
  free(a);
  return f.ok ? f.value : -1;
}

const char *hl_standard_name(long cplusplus) {
  static const struct {
    long above; /* the previous standard's value */
    const char *name;
  } names[] = {{202302L, "C++26"}, {202002L, "C++23"}, {201703L, "C++20"},
               {201402L, "C++17"}, {201103L, "C++14"}, {199711L, "C++11"}};
  for (size_t i = 0; i < sizeof names / sizeof *names; i++)
    if (cplusplus > names[i].above) return names[i].name;
  return "C++98";
}
