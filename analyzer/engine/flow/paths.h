/* paths: which of a local wrapper variable's writes reach its reads, over
 * the paths of its function's body — so that a variable declared without
 * an initializer and assigned in each branch of an `if` before it is read
 * is known (definite assignment), and a write after the last read does not
 * count. For engine/flow's own modules (flow.c asks it after the walk).
 *
 * A may-analysis of the statements, in the shape a structured body has:
 * sequences in order; both arms of an `if` or `?:` joined, and both
 * outcomes of `&&`/`||` (and of any binary operator); a loop's body entered
 * with every write inside it already possible; a switch's case labels
 * entered from its condition too, left by falling through or a break; a
 * try block's handlers from anywhere in it; `do ... while (0)` once; a
 * call whose arguments assign the variable with its arguments in any
 * order; `return`, `throw`, `break` and `continue` ending their path; a
 * lambda's body, which runs later, reading any value unless it captured a
 * copy. What it does not model it gives up on: a goto or label, an
 * assignment inside a lambda's body, a write it does not pass. */
#ifndef HEAPLINT_ENGINE_FLOW_PATHS_H
#define HEAPLINT_ENGINE_FLOW_PATHS_H

#include <clang-c/Index.h>

#include <stddef.h>
#include <stdint.h>

#include "engine/flow/graph.h"

/* A state: which of the local's writes a read may find (bit k: its k-th
 * write), whether it may find it empty (not yet assigned, no initializer),
 * or holding a value assigned where no write was recorded. */
#define HL_PATHS_MAX 62
#define HL_PATHS_EMPTY (1ull << 62)
#define HL_PATHS_UNKNOWN (1ull << 63)

typedef struct hl_flow_read {
  unsigned at; /* hl_flow_write_at of the expression naming the local */
  uint64_t state;
} hl_flow_read;

/* What paths tells of a local: per read, the writes that may reach it. */
typedef struct hl_flow_paths {
  size_t widx[HL_PATHS_MAX]; /* its writes, as indices of the flow's */
  int nw;
  hl_flow_read *reads;
  size_t nreads;
  uint64_t any; /* the union over its reads */
} hl_flow_paths;

/* Where a write or a read is, as paths finds it again: the offset of the
 * assignment call, the variable's declaration or the naming expression. */
unsigned hl_flow_write_at(CXCursor c);

/* Fills *out for local variable decl d. Returns 0, or -1 when its body is
 * not one paths models (then every write may reach every read). */
int hl_flow_paths_of(const hl_flow *F, int d, hl_flow_paths *out);
void hl_flow_paths_free(hl_flow_paths *p);
/* The state the reads at `at` find (any read: at 0, or none there). */
uint64_t hl_flow_paths_at(const hl_flow_paths *p, unsigned at);
/* Whether state s may hold write i (an index of the flow's writes). */
int hl_flow_paths_holds(const hl_flow_paths *p, uint64_t s, size_t i);

#endif
