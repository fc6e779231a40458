/* apitime: where heaplint's time goes, by libclang call. An LD_PRELOAD
 * shim that times the libclang entry points which do the heavy work and, at
 * exit, prints on stderr how much of the process's wall time each took:
 *
 *   parse      clang_parseTranslationUnit2 without unsaved files (the TU)
 *   query      clang_parseTranslationUnit2 with unsaved files (heaplint's
 *              extra parse that asks the compiler about type traits)
 *   save       clang_saveTranslationUnit (heaplint saves a translation unit
 *              as a precompiled header to parse its trait queries over it)
 *   dispose    clang_disposeTranslationUnit
 *   walk       the outermost clang_visitChildren (the AST walk and what the
 *              rules do inside it)
 *   inclusions clang_getInclusions
 *   rest       everything else: startup, the compile database, judging,
 *              output
 *
 *   cc -O2 -shared -fPIC -o apitime.so bench/analyzer/apitime.c -ldl
 *   LD_PRELOAD=./apitime.so heaplint -j1 -p <build dir> >/dev/null
 *
 * -j1: the counters are plain statics, and with several translation units
 * parsed at a time the sums would exceed the wall time anyway.
 * Benchmark tooling, not part of heaplint. */
#define _GNU_SOURCE
#include <clang-c/Index.h>
#include <dlfcn.h>
#include <stdio.h>
#include <time.h>

enum { PARSE, QUERY, SAVE, DISPOSE, WALK, INCLUSIONS, NKINDS };
static const char *const names[NKINDS] = {"parse", "query", "save", "dispose", "walk", "inclusions"};
static double spent[NKINDS];
static unsigned calls[NKINDS];
static int walking;
static double started;

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

__attribute__((constructor)) static void begin(void) { started = now(); }

__attribute__((destructor)) static void finish(void) {
  double total = now() - started, known = 0;
  fprintf(stderr, "apitime: %.3f s wall in all\n", total);
  for (int k = 0; k < NKINDS; k++) {
    fprintf(stderr, "apitime: %-10s %8.3f s %5.1f%%  (%u calls)\n", names[k], spent[k], 100 * spent[k] / total,
            calls[k]);
    known += spent[k];
  }
  fprintf(stderr, "apitime: %-10s %8.3f s %5.1f%%\n", "rest", total - known, 100 * (total - known) / total);
}

#define NEXT(name) ((__typeof__(&name))dlsym(RTLD_NEXT, #name))

enum CXErrorCode clang_parseTranslationUnit2(CXIndex index, const char *file, const char *const *args, int nargs,
                                             struct CXUnsavedFile *unsaved, unsigned nunsaved, unsigned options,
                                             CXTranslationUnit *tu) {
  static __typeof__(&clang_parseTranslationUnit2) real;
  if (!real) real = NEXT(clang_parseTranslationUnit2);
  int k = nunsaved ? QUERY : PARSE;
  double t0 = now();
  enum CXErrorCode e = real(index, file, args, nargs, unsaved, nunsaved, options, tu);
  spent[k] += now() - t0;
  calls[k]++;
  return e;
}

int clang_saveTranslationUnit(CXTranslationUnit tu, const char *file, unsigned options) {
  static __typeof__(&clang_saveTranslationUnit) real;
  if (!real) real = NEXT(clang_saveTranslationUnit);
  double t0 = now();
  int r = real(tu, file, options);
  spent[SAVE] += now() - t0;
  calls[SAVE]++;
  return r;
}

void clang_disposeTranslationUnit(CXTranslationUnit tu) {
  static __typeof__(&clang_disposeTranslationUnit) real;
  if (!real) real = NEXT(clang_disposeTranslationUnit);
  double t0 = now();
  real(tu);
  spent[DISPOSE] += now() - t0;
  calls[DISPOSE]++;
}

unsigned clang_visitChildren(CXCursor parent, CXCursorVisitor visitor, CXClientData data) {
  static __typeof__(&clang_visitChildren) real;
  if (!real) real = NEXT(clang_visitChildren);
  if (walking) return real(parent, visitor, data);
  walking = 1;
  double t0 = now();
  unsigned r = real(parent, visitor, data);
  spent[WALK] += now() - t0;
  calls[WALK]++;
  walking = 0;
  return r;
}

void clang_getInclusions(CXTranslationUnit tu, CXInclusionVisitor visitor, CXClientData data) {
  static __typeof__(&clang_getInclusions) real;
  if (!real) real = NEXT(clang_getInclusions);
  double t0 = now();
  real(tu, visitor, data);
  spent[INCLUSIONS] += now() - t0;
  calls[INCLUSIONS]++;
}
