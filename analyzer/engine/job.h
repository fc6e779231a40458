/* job: one translation unit to analyze — its file, the path libclang is
 * given, the working directory and the cleaned compiler arguments. The
 * job list is built by input/jobs.h from a compile database or argv. */
#ifndef HEAPLINT_ENGINE_JOB_H
#define HEAPLINT_ENGINE_JOB_H

#include <stddef.h>

typedef enum hl_lang { HL_LANG_CXX, HL_LANG_C, HL_LANG_OTHER } hl_lang;

typedef struct hl_job {
  char *file;      /* absolute path of the source file */
  char *source;    /* the path handed to libclang (as the user wrote it, for
                       files named on the command line), so that its own
                       diagnostics name the file the way the user does */
  char *directory; /* the compile command's working directory, or NULL */
  char **args;     /* arguments for libclang, without the source file */
  size_t nargs, capargs;
  hl_lang lang;
  /* Headers named alone that this unit includes and is analyzed for (an
   * .inl of template definitions does not parse alone): only findings in
   * them are reported, besides compile errors. Empty: the whole unit's. */
  char **only;
  size_t nonly;
} hl_job;

#endif
