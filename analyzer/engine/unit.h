/* unit: a parsed translation unit and what it was parsed with — the index,
 * the job and the exact arguments — which is what asking the compiler
 * about it again needs (engine/typeinfo's trait queries, engine/inst's
 * instantiation probes), and the editor's text it saw. The analysis owns
 * what it points to. */
#ifndef HEAPLINT_ENGINE_UNIT_H
#define HEAPLINT_ENGINE_UNIT_H

#include <clang-c/Index.h>
#include <stddef.h>

#include "engine/finding.h"
#include "engine/job.h"

typedef struct hl_unit {
  CXIndex index;
  CXTranslationUnit tu;
  const hl_job *job;
  const char *const *args; /* as libclang parsed tu */
  size_t nargs;
  /* The unsaved files tu was parsed over (an editor's text of some files,
   * the main file's named as job->source; NULL, 0: the files on disk): a
   * second parse sees them too. */
  const struct CXUnsavedFile *unsaved;
  unsigned nunsaved;
  /* Parsed with a precompiled preamble: libclang 19 crashes saving such a
   * unit (clang_saveTranslationUnit), so a second parse cannot start from
   * a saved image of it. */
  int has_preamble;
  /* For a unit that is kept and reparsed (the language server's), or NULL:
   * parses its main file again over files (its text with the trait queries
   * appended) into a second unit that kept keeps and reparses the next
   * time, over that unit's own precompiled preamble. The unit returned is
   * kept's (not disposed by the caller); NULL when the parse failed. */
  CXTranslationUnit (*reparse_queries)(void *kept, const struct CXUnsavedFile *files, unsigned nfiles);
  void *kept;
  /* A kept unit's trait answers from its earlier analyses (traitmemo.h),
   * keyed to this parse already; NULL: none are kept. */
  struct hl_trait_memo *memo;
  /* Each file's absolute path once made (hl_unit_loc), or NULL: made at
   * every location (a realpath, a system call per directory of it). */
  struct hl_unit_paths *paths;
} hl_unit;

/* A cache of absolute paths for hl_unit.paths, valid while the unit's
 * parse is (its CXFiles'). */
struct hl_unit_paths *hl_unit_paths_new(void);
void hl_unit_paths_free(struct hl_unit_paths *p);

/* Where loc is in a file of u (the file made absolute against the job's
 * directory). Returns 0, or -1 when the location has no file. */
int hl_unit_loc(const hl_unit *u, CXSourceLocation loc, hl_loc *out);

/* How much of the main file's text (len bytes, as u parsed it) questions
 * appended to it can follow: all of it; or, when u has an error at its
 * very end (something left open: "int f( {" being typed at the end of
 * the file), the text before its last declaration, which would swallow
 * them. */
size_t hl_unit_questions_at(const hl_unit *u, const char *text, size_t len);

#endif
