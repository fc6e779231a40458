/* inclusions: the files a kept unit read, listed once and listed again
 * only when what decides them changed (issue 34: keep what an edit does
 * not change).
 *
 * libclang lists a unit's inclusions (clang_getInclusions) by loading
 * every source entry of its precompiled preamble, which reads each header
 * again: 10 to 20 ms on a unit of 200 headers, at every edit, for the
 * library detection and the trait memo's key alike. The files a unit
 * reads are decided by its compile arguments, the main file's
 * preprocessor lines and the files themselves: while those are the same
 * (the lines by their hash, each file by an editor's unsaved text or its
 * identity, size and modification time on disk), the list is too. */
#ifndef HEAPLINT_ENGINE_INCLUSIONS_H
#define HEAPLINT_ENGINE_INCLUSIONS_H

#include <clang-c/Index.h>
#include <stddef.h>

#include "util/strv.h"

typedef struct hl_inclusions {
  /* Each file as clang_getInclusions visits it (its name as libclang
   * gives it), in that order; top[i]: visited with an empty inclusion
   * stack (the main file, and a preamble's own). */
  hl_strv files;
  unsigned char *top;
  size_t captop;
  /* What the list was made from (the arguments' and preprocessor lines'
   * hash), and the key (inclusions_key) it had then. */
  unsigned long long pre, key;
  int listed;
} hl_inclusions;

/* Brings in up to date with tu as parsed with args over unsaved
 * (main_text: the main file's text, len bytes), listing its files again
 * only when something that decides them changed. Returns the key: the
 * arguments, the preprocessor lines, and every file but the main one
 * (its path and what it is now), in a 64-bit hash. */
unsigned long long hl_inclusions_update(hl_inclusions *in, CXTranslationUnit tu, const char *const *args, size_t nargs,
                                        const struct CXUnsavedFile *unsaved, unsigned nunsaved, const char *main_text,
                                        size_t len);

void hl_inclusions_free(hl_inclusions *in);

#endif
