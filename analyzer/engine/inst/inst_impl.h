/* inst_impl: a unit's questions and answers as engine/inst's modules share
 * them (the arbiter, the sites, the probe parse and its relays, the AST
 * backend's answers, the users, the comparison); engine/inst/ only. */
#ifndef HEAPLINT_INST_IMPL_H
#define HEAPLINT_INST_IMPL_H

#include <clang-c/Index.h>
#include <stddef.h>
#include <stdio.h>

#include "engine/unit.h"
#include "util/strv.h"

/* One question, at its place in the unit's text. */
typedef struct hl_question {
  char *file; /* absolute path */
  CXFile cxfile;
  unsigned begin, end; /* byte offsets of the expression (a conversion question: of the call) */
  int conversion;
  unsigned arg_begin, arg_end; /* a conversion question's argument */
  char *as_type;               /* ...converted to this type, or NULL: as the call converts it */
  unsigned copy_at;            /* where its copy goes: begin, or the start of its statement */
  int statement;               /* ...as a statement of its own (if (false) { copy; }) */
  CXCursor expr;               /* a layout question's expression, a conversion question's argument */
  CXCursor call;               /* a conversion question's call (its argument itself with as_type) */
  int relay;                   /* a relay's: its answers continue other questions' chains */
} hl_question;

typedef struct hl_inst hl_inst;

struct hl_inst {
  hl_unit u;
  hl_question *v; /* by id */
  size_t n, cap;
  struct hl_inst_answer *hits; /* by question, each question's in the compiler's order */
  size_t nhits, caphits;
  hl_strv targets; /* hl_inst_conversion_targets */
  int compare;     /* hl_inst_options */
  FILE *log;
  struct hl_instances_session *ast; /* the AST backend's reading of this unit (instances.h) */
};

#endif
