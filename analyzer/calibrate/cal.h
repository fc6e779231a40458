/* cal: the state of one 'heaplint calibrate' run, shared by its steps
 * (cli, build, result, report), and the helpers every step uses: messages
 * on stderr, the files of the probes' work directory, the compiler words. */
#ifndef HEAPLINT_CALIBRATE_CAL_H
#define HEAPLINT_CALIBRATE_CAL_H

#include <stddef.h>

#include "calibrate/fit.h"
#include "calibrate/programs.h"
#include "input/profile.h"
#include "util/strv.h"
#include "util/util.h"

/* 3 and 4 are the analyzer's (a file not parsed, fixes not applied): every
 * status means one thing across heaplint. */
enum { CAL_OK = 0, CAL_DIFFERS = 1, CAL_INPUT = 2, CAL_PROBES = 5, CAL_NO_FIT = 6 };

/* Programs: 0 with the user's flags, 1 also with -std=c++23. */
#define NPROGRAMS 2

/* The standard each program adds to the user's flags (NULL: none). */
extern const char *const hl_cal_program_std[NPROGRAMS];

/* A standard library probe.hpp tells apart, as profiles name it. */
typedef struct hl_cal_library {
  const char *probe_name; /* what probe.hpp prints */
  const char *name;
  const char *description;
  const char *detect;
} hl_cal_library;

/* One wrapper being measured. */
typedef struct hl_cal_target {
  char *name; /* the profile's name: "std::function", "my::Callback" */
  const char *rule;
  const char *factory, *emplace;
  const char *replacement;
  int fitted;
  hl_rule_fit fit;
} hl_cal_target;

typedef struct hl_cal {
  const char *output, *compare, *replacement;
  int report, keep;
  hl_strv wrapper_args, headers, include_dirs, command, emulator;

  hl_cal_prog_wrapper *pw; /* the plan's wrappers, parallel to targets */
  hl_cal_target *targets;
  size_t n;
  hl_cal_prog_plan plan;
  int custom;

  char *dir; /* the probes' work directory */
  unsigned jobs;
  int built[NPROGRAMS]; /* the measuring program was built (and so is run) */
  hl_measured m;
  const hl_cal_library *library;
  long sso[HL_SSO_KINDS];             /* basic_string's inline capacity per HL_SSO_*; -1: not measured */
  char *text;                         /* the profile */
  hl_profile *written;                /* the profile as the loader reads it back */
  hl_profile *want;                   /* --compare's */
  const struct hl_rule *const *rules; /* the rules heaplint has: their profile sections */
} hl_cal;

/* "heaplint: error: <message>" and "heaplint: note: <message>" on stderr. */
void hl_cal_error(const char *fmt, ...) HL_PRINTF(1, 2);
void hl_cal_note(const char *fmt, ...) HL_PRINTF(1, 2);

/* Writes text to path. Returns 0, or -1 with errno. */
int hl_cal_write_text(const char *path, const char *text);

/* A file of the probes' work directory, named by fmt. Caller frees. */
char *hl_cal_path(const hl_cal *c, const char *fmt, ...) HL_PRINTF(2, 3);

/* What was calibrated: "libstdc++ 20220819 (release 12)" or the wrappers'
 * names. Caller frees. */
char *hl_cal_subject(const hl_cal *c);

#endif
