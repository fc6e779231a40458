/* finding: what a rule reports — rule id, location, message, notes and
 * the edits of its fix — and a collection of findings. Rules build them
 * and hand them to the context (hl_ctx_report); the report stage orders,
 * filters and emits them. Emitters read only these structs, never the AST. */
#ifndef HEAPLINT_ENGINE_FINDING_H
#define HEAPLINT_ENGINE_FINDING_H

#include <stddef.h>

typedef enum hl_severity { HL_SEV_NOTE, HL_SEV_WARNING, HL_SEV_ERROR } hl_severity;

typedef struct hl_loc {
  char *file;         /* absolute path */
  unsigned line, col; /* 1-based; col counts bytes, as clang does */
  unsigned offset;    /* byte offset in the file */
} hl_loc;

typedef struct hl_note {
  hl_loc loc;
  char *message;
} hl_note;

/* One replacement of the fix that removes a finding: length bytes at offset
 * become text (an insertion when length is 0). file_hash is the FNV-1a hash
 * of the file as it was analyzed: --fix writes only a file that has not
 * changed since. A finding's edits are applied all or none. */
typedef struct hl_edit {
  char *file; /* absolute path */
  unsigned offset, length;
  unsigned line, col; /* where offset is, for messages */
  char *text;
  unsigned long long file_hash;
} hl_edit;

typedef struct hl_finding {
  const char *rule; /* static rule id, e.g. "function-sbo" */
  hl_severity severity;
  hl_loc loc;
  /* Where the reported expression ends, in loc's file (the position just
   * past it, bytes as in loc); 0 when the finding is a point. Editors and
   * SARIF show the range loc..end. */
  unsigned end_line, end_col;
  char *message;
  hl_note *notes;
  size_t nnotes, capnotes;
  char *fingerprint; /* see hl_findings_fingerprint; NULL until then */
  hl_edit *edits;
  size_t nedits, capedits;
  /* A site heaplint saw but did not decide (a note-level finding): why, as
   * a short category the summary counts ("template-dependent"); NULL for
   * every other finding. A static string. */
  const char *undecided;
  /* Found in a translation unit with compile errors (its AST is what
   * libclang recovered): --fix applies its edits only with --fix-errors. */
  int unit_has_errors;
  /* Planned over the whole project (an API rewrite): --fix applies it only
   * when every unit it reaches still compiles with it. */
  int whole_project;
  /* API rewrites with the same key (two aliases of one wrapper type, whose
   * values pass between them) are applied together or not at all; NULL:
   * on its own. */
  char *together;
} hl_finding;

/* The rule id of a compile error of the analyzed code, as clang-tidy names
 * it: never suppressed, filtered or held back by a baseline. */
#define HL_COMPILE_ERROR_RULE "clang-diagnostic-error"
int hl_finding_is_compile_error(const hl_finding *f);
/* A site a rule judged to allocate (context.h: hl_ctx_allocations). */
typedef struct hl_allocation {
  const char *rule; /* static */
  hl_loc loc;
  char *what; /* the verdict in words: the finding's message */
} hl_allocation;

/* Builds a finding; the strings are copied. */
hl_finding *hl_finding_new(const char *rule, hl_severity sev, const hl_loc *loc, const char *message);
void hl_finding_note(hl_finding *f, const hl_loc *loc, const char *message);
void hl_finding_edit(hl_finding *f, const hl_edit *e);
void hl_finding_free(hl_finding *f);
void hl_edit_free(hl_edit *e);

hl_loc hl_loc_copy(const hl_loc *l);
void hl_loc_free(hl_loc *l);
/* "file:line" for a message, the file as displayed; malloc'd. */
char *hl_loc_where(const hl_loc *l);

typedef struct hl_findings {
  hl_finding **v;
  size_t n, cap;
} hl_findings;

/* Takes ownership of f. */
void hl_findings_add(hl_findings *all, hl_finding *f);
/* Moves every finding of from into all (from is left empty). */
void hl_findings_take(hl_findings *all, hl_findings *from);

void hl_findings_free(hl_findings *all);

/* An API the project index found receiving allocating values: a function's
 * wrapper-typed parameter, with figures over every unit indexed. */
typedef struct hl_api_figure {
  char *api;         /* "Loop::post(std::function<void ()>)" */
  char *type;        /* the parameter's type as declared */
  char *wrapper;     /* the wrapper the values construct: "std::function<void ()>" */
  char *replacement; /* the inline-buffer type that holds them all ("hl::inplace_function"), or "" */
  size_t sites, files;
  long size, align; /* the largest value's */
  long capacity;    /* the replacement's capacity that holds every value */
  hl_loc *at;       /* every site, in file order */
  size_t nat;
  hl_loc *decls; /* the parameter's declarations that write the wrapper out, each once, in file order */
  size_t ndecls;
} hl_api_figure;

void hl_api_figures_free(hl_api_figure *v, size_t n);

#endif
