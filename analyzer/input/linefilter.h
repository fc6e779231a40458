/* linefilter: which lines of which files findings are reported on —
 * clang-tidy's -line-filter (a JSON list of {"name": file, "lines":
 * [[from, to], ...]}) or the lines --diff finds changed (input/gitdiff).
 * As in clang-tidy, a file matches an entry when its path ends with the
 * entry's name, an entry without "lines" passes the whole file, and a file
 * no entry names passes nothing; the empty list passes everything. */
#ifndef HEAPLINT_LINEFILTER_H
#define HEAPLINT_LINEFILTER_H

#include <stddef.h>

#include "util/hindex.h"

typedef struct hl_line_range {
  unsigned from, to;
} hl_line_range;

typedef struct hl_line_file {
  char *name;
  int whole;        /* no "lines": every line */
  hl_line_range *r; /* sorted and merged by hl_line_filter_finish */
  size_t n, cap;
} hl_line_file;

typedef struct hl_line_filter {
  int active; /* a filter was given (an empty one passes nothing) */
  hl_line_file *v;
  size_t n, cap;
  /* Lookups that stay linear in the number of files (a diff of many): v
   * by name; the names with a '/' by their last component (a path they
   * are a suffix of ends with the same one); the others, in order. */
  hl_hindex names, bases;
  size_t *plain;
  size_t nplain, capplain;
} hl_line_filter;

/* Parses clang-tidy's JSON into lf (active; an empty list, [], is no
 * filter, as in clang-tidy). Returns 0, or -1 with *err. */
int hl_line_filter_parse(hl_line_filter *lf, const char *json, char **err);

/* Adds lines from..to of name (the whole file when from is 0). Call
 * hl_line_filter_finish after the last. */
void hl_line_filter_add(hl_line_filter *lf, const char *name, unsigned from, unsigned to);
/* Sorts and merges each file's ranges, so that a line is looked up in
 * time logarithmic in their number. */
void hl_line_filter_finish(hl_line_filter *lf);

/* Whether a finding at path:line passes; always when lf is not active. */
int hl_line_filter_passes(const hl_line_filter *lf, const char *path, unsigned line);

void hl_line_filter_free(hl_line_filter *lf);

#endif
