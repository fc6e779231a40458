/* context: what a rule sees of the translation unit being analyzed — the
 * libclang TU, its target and standard library, the wrappers the selected
 * profiles describe, the ancestors of the cursor being visited, type layout
 * and trait queries, and where findings go.
 *
 * One context lives for one translation unit; the walker fills the ancestor
 * stack as it descends. */
#ifndef HEAPLINT_CONTEXT_H
#define HEAPLINT_CONTEXT_H

#include <clang-c/Index.h>
#include <stdio.h>

#include "report/finding.h"
#include "input/jobs.h"
#include "input/profile.h"
#include "engine/typeinfo.h"

typedef struct hl_ctx {
  CXTranslationUnit tu;
  const hl_job *job;

  char *triple;                 /* x86_64-pc-linux-gnu */
  char *arch;                   /* x86_64 */
  int pointer_width;            /* 64 */
  const hl_profile *library;    /* the detected library's base profile, or NULL */
  const char *library_name;     /* its name, or NULL when none was included */
  const hl_wrapper *const *wrappers;  /* from the selected profiles */
  size_t nwrappers;

  CXCursor *stack;              /* ancestors of the visited cursor, outermost first */
  size_t depth, capstack;

  hl_types *types;
  hl_findings *out;

  CXIndex index;                /* what the translation unit was parsed with */
  const char *const *args;
  size_t nargs;
  long cplusplus;               /* hl_ctx_cplusplus's answer, once asked */
  int cplusplus_asked;

  FILE *log;                    /* this translation unit's messages (remarks) */
  int verbose;
} hl_ctx;

/* The k-th ancestor of the cursor being visited (0: its parent), or a null
 * cursor past the translation unit. */
CXCursor hl_ctx_ancestor(const hl_ctx *ctx, size_t k);

/* The first ancestor from depth *k up that is not transparent (an implicit
 * cast, parentheses, a temporary's binding): *k becomes its depth and
 * *below (when not NULL) the cursor under it, self when none was skipped. */
CXCursor hl_ctx_opaque_ancestor(const hl_ctx *ctx, size_t *k, CXCursor self, CXCursor *below);

/* Where loc is in the user's source: a macro expansion maps to where the
 * macro was used (or where its argument was written), as clang reports it.
 * Returns 0, or -1 when the location has no file. */
int hl_ctx_loc(const hl_ctx *ctx, CXSourceLocation loc, hl_loc *out);

/* The absolute path of f, a file of a translation unit whose relative
 * names are relative to workdir (NULL: the current directory). */
char *hl_file_abspath(CXFile f, const char *workdir);

/* The wrapper entry whose class is decl (a class or a specialization of a
 * class template), or NULL. */
const hl_wrapper *hl_ctx_wrapper_of_decl(const hl_ctx *ctx, CXCursor decl);
const hl_wrapper *hl_ctx_wrapper_of_type(const hl_ctx *ctx, CXType t);

/* The translation unit's __cplusplus (201103L for C++11, ...; 0 when it is
 * not C++), or -1 when it cannot be told. The compiler is asked once, on
 * the first call. */
long hl_ctx_cplusplus(hl_ctx *ctx);

/* Prints a remark for -v on stderr (why a site was left undecided, ...). */
void hl_ctx_remark(const hl_ctx *ctx, const hl_loc *at, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

#endif
