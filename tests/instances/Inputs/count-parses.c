/* Preloaded into heaplint by no-probe-parse.cpp: counts libclang's
 * clang_parseTranslationUnit2 calls, those without unsaved files (a unit's
 * own parse) and those with (the probe parse, which hands libclang the
 * unit's files with the probes inserted; a trait query's), and prints both
 * on stderr at exit. Run heaplint with -j1: the counters are plain. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>

typedef int (*parse_fn)(void *, const char *, const char *const *, int, void *, unsigned, unsigned, void **);

static int without, with;

static void report(void) { fprintf(stderr, "count-parses: %d without unsaved files, %d with\n", without, with); }

int clang_parseTranslationUnit2(void *index, const char *source, const char *const *args, int nargs, void *unsaved,
                                unsigned nunsaved, unsigned options, void **out) {
  static parse_fn real;
  if (!real) {
    real = (parse_fn)dlsym(RTLD_NEXT, "clang_parseTranslationUnit2");
    atexit(report);
  }
  if (nunsaved) with++;
  else without++;
  return real(index, source, args, nargs, unsaved, nunsaved, options, out);
}
