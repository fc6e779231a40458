/* layout: what the engine computed about one store into a wrapper
 * (std::function, std::any, ...), flagged or not — the stored type's size
 * and alignment, each of its fields (a lambda's captures) with offset and
 * size, the library's inline-buffer rule in words, and whether the value
 * is kept inline or on the heap. Rules record it through the context
 * (hl_ctx_layout) when the front end asked for layouts; a front end shows
 * it (the language server's hover). Data only, like a finding: no AST. */
#ifndef HEAPLINT_ENGINE_LAYOUT_H
#define HEAPLINT_ENGINE_LAYOUT_H

#include <stddef.h>

#include "engine/finding.h"

typedef struct hl_layout_field {
  char *name;        /* "id", "this", a member's name */
  long offset, size; /* bytes */
} hl_layout_field;

typedef enum hl_storage { HL_STORED_INLINE, HL_STORED_HEAP } hl_storage;

typedef struct hl_layout {
  const char *rule;           /* static id of the rule that judged it */
  hl_loc loc;                 /* where the stored expression starts */
  unsigned end_line, end_col; /* where it ends, as a finding's range; 0: a point */
  char *wrapper;              /* "std::function<void ()>" */
  char *stored;               /* "lambda", "functor 'Big'" */
  long size, align;           /* of the stored type */
  hl_layout_field *fields;
  size_t nfields, capfields;
  char *library_rule; /* "libstdc++ keeps it inline when ..." */
  hl_storage storage;
  char *why; /* for the heap: the numbers and the rule that fails */
} hl_layout;

typedef struct hl_layouts {
  hl_layout **v;
  size_t n, cap;
} hl_layouts;

/* A layout at loc (copied), for rule (static); the strings are set by the caller. */
hl_layout *hl_layout_new(const char *rule, const hl_loc *loc);
void hl_layout_add_field(hl_layout *l, const char *name, long offset, long size);
void hl_layout_free(hl_layout *l);

/* Takes ownership of l. */
void hl_layouts_add(hl_layouts *all, hl_layout *l);
void hl_layouts_free(hl_layouts *all);

#endif
