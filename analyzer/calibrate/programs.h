/* programs: the measuring programs of heaplint calibrate — their C++ source,
 * written for the wrappers to measure, and the measurements read back from
 * what they print.
 *
 * The C++ they are made of is analyzer/calibrate/probes/count_new.hpp (the counting
 * global operator new) and analyzer/calibrate/probes/probe.hpp (the harness), both
 * embedded in heaplint at build time; probe.hpp's header comment documents
 * the output read here. A program is compiled in parts (translation units
 * built at the same time); part 0 holds main(). */
#ifndef HEAPLINT_CAL_PROGRAMS_H
#define HEAPLINT_CAL_PROGRAMS_H

#include <stddef.h>

#include "engine/wrapper.h"

/* The trait variants of a probe target (hl_probe::kind in probe.hpp). */
enum {
  HL_KIND_TRIVIAL,     /* trivially copyable */
  HL_KIND_NOTHROW,     /* not trivially copyable; copy and move noexcept */
  HL_KIND_COPY_THROWS, /* copy may throw, move noexcept */
  HL_KIND_MOVE_THROWS, /* copy noexcept, move may throw */
  HL_KIND_BOTH_THROW,  /* copy and move may throw */
  HL_KINDS
};

/* "trivially copyable", "copy may throw", ... */
const char *hl_kind_name(int kind);

/* The library's own numbers program 0 measures, for two rules' profile
 * sections (hl_rule.profile): std::basic_string's inline capacity per
 * character type (string-sso's "string"), and the global operator new
 * calls of what makes a shared state (shared-state's "shared-state"), with
 * their names as the probes print them and the sections spell them. */
enum { HL_SSO_CHAR, HL_SSO_WCHAR, HL_SSO_CHAR8, HL_SSO_CHAR16, HL_SSO_CHAR32, HL_SSO_KINDS };
#define HL_SSO_CHAR_TYPES {"char", "wchar_t", "char8_t", "char16_t", "char32_t"}
enum {
  HL_SHARED_PROMISE,
  HL_SHARED_PACKAGED_TASK,
  HL_SHARED_ASYNC,
  HL_SHARED_ASYNC_DEFERRED,
  HL_SHARED_THREAD,
  HL_SHARED_KINDS
};
#define HL_SHARED_NAMES {"std::promise", "std::packaged_task", "std::async", "std::async-deferred", "std::thread"}

typedef struct hl_cal_prog_wrapper {
  const char *type;      /* the C++ type constructed: "std::function<void()>" */
  const char *signature; /* its call signature, "void()"; NULL for a value wrapper (std::any) */
  const char *feature;   /* a macro the library defines when it has the wrapper; NULL: always */
  int program;           /* the program that measures it: 0, or 1 (compiled as C++23) */
} hl_cal_prog_wrapper;

typedef struct hl_cal_prog_plan {
  const hl_cal_prog_wrapper *w;
  size_t nw;
  char **includes; /* what the wrappers need: "<functional>", "\"/abs/callback.h\"" */
  size_t nincludes;
  int string_sso; /* program 0 also measures the library's own numbers: std::string's
                            small buffer, the shared states */
} hl_cal_prog_plan;

/* The source of part `part` (of `parts`) of the measuring program
 * `program`. Caller frees. */
char *hl_cal_program_source(const hl_cal_prog_plan *plan, int program, int part, int parts);

typedef struct hl_cal_prog_probe {
  long size, align;
  int kind;
  long allocations; /* global operator new calls while constructing the wrapper */
  long offset;      /* where the target's bytes are in the wrapper; -1: not found */
} hl_cal_prog_probe;

typedef struct hl_cal_prog_probed {
  int seen;         /* the program measured this wrapper */
  int absent;       /* the library does not have it */
  long size, align; /* sizeof and alignof of the wrapper */
  hl_cal_prog_probe *v;
  size_t n, cap;
} hl_cal_prog_probed;

typedef struct hl_measured {
  char *library; /* "libstdc++", "libc++", "msvc", "unknown" (as probe.hpp says) */
  char *library_version;
  /* An ABI variant of the library (probe.hpp's "abi" line), or NULL: its
   * name, and the namespace the unit declares (absent: does not declare). */
  char *abi, *abi_namespace;
  int abi_absent;
  char *compiler; /* the compiler's version string */
  int pointer_width;
  /* Allocations of a basic_string of n characters, n = 0.., per HL_SSO_* */
  long *string_allocs[HL_SSO_KINDS];
  size_t nstring[HL_SSO_KINDS], capstring[HL_SSO_KINDS];
  long shared[HL_SHARED_KINDS]; /* operator new calls per HL_SHARED_*; -1: not measured */
  hl_cal_prog_probed *w;        /* one per plan->w */
  size_t nw;
  int pending;                     /* a probe was started but never reported: */
  hl_cal_prog_probe pending_probe; /* this one, of wrapper pending_wrapper */
  size_t pending_wrapper;
} hl_measured;

void hl_measured_init(hl_measured *m, size_t nwrappers);
void hl_measured_free(hl_measured *m);

/* Adds a program's output to m. Returns 0, or -1 with *err naming the line
 * that cannot be read. */
int hl_cal_read_measured(const char *output, hl_measured *m, char **err);

/* One row of the --report table: a probe (wrapper >= 0) or a std::string
 * of `size` chars (wrapper < 0), and what it cost. */
typedef struct hl_timing {
  int wrapper;
  long size, align;
  int kind;
  double construct_ns[2]; /* at -O0 and -O2; < 0: not measured */
  double call_ns;         /* at -O2; < 0: not measured or not callable */
} hl_timing;

/* The source of the timing program for the rows of `program` (one part). */
char *hl_cal_timing_source(const hl_cal_prog_plan *plan, int program, const hl_timing *rows, size_t n);

/* Reads a timing program's output into rows; opt is 0 for -O0, 1 for -O2.
 * Returns 0, or -1 with *err. */
int hl_cal_read_timing(const char *output, hl_timing *rows, size_t n, int opt, char **err);

#endif
