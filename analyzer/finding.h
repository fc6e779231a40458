/* finding: what a rule reports — rule id, location, message, notes — and the
 * run-wide collection of findings, deduplicated (a header's finding is
 * reported once however many translation units include it) and put in a
 * deterministic order before any emitter sees it.
 *
 * Rules never print; they hand findings here. Emitters read only these
 * structs, never the AST. */
#ifndef HEAPLINT_FINDING_H
#define HEAPLINT_FINDING_H

#include <stddef.h>

typedef enum hl_severity { HL_SEV_NOTE, HL_SEV_WARNING, HL_SEV_ERROR } hl_severity;

typedef struct hl_loc {
  char *file;          /* absolute path */
  unsigned line, col;  /* 1-based; col counts bytes, as clang does */
  unsigned offset;     /* byte offset in the file */
} hl_loc;

typedef struct hl_note {
  hl_loc loc;
  char *message;
} hl_note;

typedef struct hl_finding {
  const char *rule;    /* static rule id, e.g. "function-sbo" */
  hl_severity severity;
  hl_loc loc;
  char *message;
  hl_note *notes;
  size_t nnotes, capnotes;
} hl_finding;

/* Builds a finding; the strings are copied. */
hl_finding *hl_finding_new(const char *rule, hl_severity sev, const hl_loc *loc, const char *message);
void hl_finding_note(hl_finding *f, const hl_loc *loc, const char *message);
void hl_finding_free(hl_finding *f);

hl_loc hl_loc_copy(const hl_loc *l);
void hl_loc_free(hl_loc *l);

typedef struct hl_findings {
  hl_finding **v;
  size_t n, cap;
} hl_findings;

/* Takes ownership of f. */
void hl_findings_add(hl_findings *all, hl_finding *f);
/* Sorts by file, line, column, rule, message and drops exact duplicates. */
void hl_findings_finish(hl_findings *all);
void hl_findings_free(hl_findings *all);

#endif
