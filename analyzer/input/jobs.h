/* jobs: the list of translation units to analyze, from a compile database
 * (-p, read through libclang's CXCompilationDatabase) or from files named on
 * the command line with the compiler flags after "--".
 *
 * Each job carries the arguments libclang needs, already cleaned of what
 * only a real compile needs (the compiler name, -c, -o, dependency-file
 * flags). Problems (a missing file, a malformed database) are collected as
 * messages that name the file and the cause; the caller reports them. */
#ifndef HEAPLINT_JOBS_H
#define HEAPLINT_JOBS_H

#include <stddef.h>

#include "engine/job.h"
#include "util/strv.h"
#include "util/util.h"

/* The most heaplint reads of a response file (@file): twice what Linux
 * allows a whole command line (ARG_MAX, 2 MiB), which is what response
 * files stand in for. A compile database may be as large as any input
 * (HL_READ_MAX, 256 MiB): a large project's is 100 MiB and more. */
#define HL_RESPONSE_FILE_MAX ((size_t)4 << 20)

typedef struct hl_jobs {
  hl_job *v;
  size_t n, cap;
} hl_jobs;

/* The files (each must exist and be C++) with the same flags — or, when
 * the first "flag" is a program, with that compiler command (cleaned like a
 * compile database's). Files that cannot be analyzed are reported in errs
 * and left out. */
void hl_jobs_from_args(hl_jobs *jobs, char *const *files, size_t nfiles, char *const *flags, size_t nflags,
                       hl_strv *errs);

/* The compile database in builddir (or the compile_commands.json named).
 * With files, only their commands (a header it does not list: a unit that
 * includes it, reporting only in the header); otherwise every C and C++
 * entry (another language's is skipped). Returns 0, or -1 when the database
 * itself cannot be used (errs says why). */
int hl_jobs_from_db(hl_jobs *jobs, const char *builddir, char *const *files, size_t nfiles, hl_strv *errs);

/* The most translation units read to find one that includes a header. */
#define HL_INCLUDER_SCAN 2000
/* The index in jobs of a unit whose file includes path (an #include whose
 * name path ends with), or -1: one of the same stem and directory first,
 * then of the same stem, then any; else one that includes a header of
 * path's directory that includes path (two levels at most: an .inl
 * included at the end of its .h). At most HL_INCLUDER_SCAN files read at
 * each level. */
long hl_jobs_includer(const hl_jobs *jobs, const char *path);
/* Whether path is named like a C++ header (.h, .hpp, .inl, .ipp, .tpp,
 * .tcc, ...): a file a unit includes rather than one compiled alone. */
int hl_is_header_name(const char *path);

/* Adds arguments to every job: before the command's own, or after it. */
void hl_jobs_extra_args(hl_jobs *jobs, char *const *before, size_t nbefore, char *const *after, size_t nafter);

/* Drops every argument that one of the globs ('*' a wildcard) matches
 * (--remove-arg). */
void hl_jobs_remove_args(hl_jobs *jobs, char *const *globs, size_t nglobs);

/* Keeps the k-th (1-based) of n disjoint slices: every n-th job from the
 * k-th, so that the slices' union is the whole list. */
void hl_jobs_shard(hl_jobs *jobs, unsigned k, unsigned n);

void hl_jobs_free(hl_jobs *jobs);

/* One job: an argument added, a deep copy, freed (its fields; not j). */
void hl_job_arg(hl_job *j, const char *arg);
void hl_job_copy(hl_job *dst, const hl_job *src);
void hl_job_free(hl_job *j);
/* Puts libclang's resource directory (-resource-dir=..., where clang's own
 * headers are) first among j's arguments, unless it is there: libclang's
 * driver would otherwise look for it relative to the current directory.
 * Every job hl_jobs_* makes has it; a front end making a job itself calls
 * this. */
void hl_job_resource_dir(hl_job *j);
/* Whether a and b are the same command: file, directory and arguments. */
int hl_job_same(const hl_job *a, const hl_job *b);

/* The language the driver would compile path as, given its -x flag (or NULL)
 * and whether the driver is a C++ driver (g++, clang++). */
hl_lang hl_lang_of(const char *path, const char *x_flag, int cxx_driver);

#endif
