/* unit: a parsed translation unit and what it was parsed with — the index,
 * the job and the exact arguments — which is what asking the compiler
 * about it again needs (engine/typeinfo's trait queries, engine/instprobe's
 * instantiation probes). The analysis owns what it points to. */
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
  const char *const *args;  /* as libclang parsed tu */
  size_t nargs;
} hl_unit;

/* Where loc is in a file of u (the file made absolute against the job's
 * directory). Returns 0, or -1 when the location has no file. */
int hl_unit_loc(const hl_unit *u, CXSourceLocation loc, hl_loc *out);

#endif
