/* Preloaded into heaplint by template-recursive-copy.cpp: counts the
 * diagnostics of the probe parse (the parse whose unsaved files declare the
 * conversion probe's proxy, hl_convp_), its errors and their notes, and
 * prints both on stderr at exit. Run heaplint with -j1: the counters are
 * plain. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct unsaved {
  const char *name;
  const char *text;
  unsigned long len;
};
typedef int (*parse_fn)(void *, const char *, const char *const *, int, struct unsaved *, unsigned, unsigned, void **);

static unsigned long errors, notes;

static void report(void) { fprintf(stderr, "probe-diagnostics: %lu errors, %lu notes\n", errors, notes); }

#define API(ret, name, ...) ((ret(*)(__VA_ARGS__))dlsym(RTLD_DEFAULT, name))

static void count(void *tu) {
  unsigned n = API(unsigned, "clang_getNumDiagnostics", void *)(tu);
  for (unsigned i = 0; i < n; i++) {
    void *d = API(void *, "clang_getDiagnostic", void *, unsigned)(tu, i);
    errors++;
    void *set = API(void *, "clang_getChildDiagnostics", void *)(d);
    notes += set ? API(unsigned, "clang_getNumDiagnosticsInSet", void *)(set) : 0;
    API(void, "clang_disposeDiagnostic", void *)(d);
  }
}

int clang_parseTranslationUnit2(void *index, const char *source, const char *const *args, int nargs,
                                struct unsaved *unsaved, unsigned nunsaved, unsigned options, void **out) {
  static parse_fn real;
  if (!real) {
    real = (parse_fn)dlsym(RTLD_NEXT, "clang_parseTranslationUnit2");
    atexit(report);
  }
  int probe = 0;
  for (unsigned i = 0; i < nunsaved; i++) probe |= memmem(unsaved[i].text, unsaved[i].len, "hl_convp_", 9) != NULL;
  int rc = real(index, source, args, nargs, unsaved, nunsaved, options, out);
  if (probe && rc == 0 && *out) count(*out);
  return rc;
}
