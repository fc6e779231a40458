/* summary: what one translation unit tells the project index (index/) about
 * what crosses its border, so that a question a unit cannot answer alone is
 * answered over every unit's summary, as a linker resolves symbols.
 *
 * Today it holds what no-allocation zones need: each function the unit
 * defines that other units can call (by USR), with its reach inside the
 * unit — the allocation it reaches first, with the chain of calls, or the
 * calls it makes into functions defined elsewhere ("exits") and what no
 * index can follow; the methods it overrides; and each zone's open ends
 * (its calls whose search left the unit); and each allocating value it
 * passes to a wrapper-typed parameter of a function. A summary depends on its unit
 * alone: units are summarized in parallel, in shards, cached with their
 * results, and merged in any order. */
#ifndef HEAPLINT_ENGINE_SUMMARY_H
#define HEAPLINT_ENGINE_SUMMARY_H

#include <stddef.h>

#include "engine/finding.h"
#include "util/strv.h"

/* One call on a chain: caller calls callee at. */
typedef struct hl_shop {
  char *caller, *callee; /* as messages name them: "mix()" */
  hl_loc at;
} hl_shop;

typedef struct hl_spath {
  hl_shop *v;
  size_t n, cap;
} hl_spath;

/* A call into a function the unit has no body of. */
typedef struct hl_sexit {
  char *usr;     /* the callee's */
  char *name;    /* the callee as messages name it */
  int dynamic;   /* a virtual call: the callee or any of its overriders */
  hl_spath path; /* from the function summarized (or the zone's callee) to this call, which is the last hop */
  hl_loc at;     /* the call */
} hl_sexit;

typedef struct hl_sexits {
  hl_sexit *v;
  size_t n, cap;
} hl_sexits;

/* A function other units can call. */
typedef struct hl_sfn {
  char *usr, *name;
  hl_loc loc; /* its definition */
  /* Its reach in its unit: the first allocation (breadth first), with the
   * calls down to the function it is in; else its exits. */
  int allocates;
  hl_spath chain;
  hl_loc alloc_at;
  char *alloc_what;
  hl_sexits exits;
  hl_strv unseen; /* "a call through 'cb' (b.cc:3:5)": what it reaches that no index follows */
} hl_sfn;

/* A call in a zone whose search found no allocation in the unit but left
 * it: the error, if any, is at this call. */
typedef struct hl_szcall {
  hl_loc at;
  unsigned end_line, end_col; /* the call's range, in at's file (0: a point) */
  char *callee;               /* as messages name it */
  hl_sexits
      exits; /* paths start at the callee; a direct call of a function defined elsewhere has one exit with no hop */
} hl_szcall;

typedef struct hl_szone {
  char *rule; /* the id of the rule whose zone it is */
  char *name, *why;
  hl_loc at; /* the zone's definition */
  hl_szcall *calls;
  size_t ncalls, capcalls;
  hl_strv unseen; /* what its search met that no index follows, "what (where)", each once */
} hl_szone;

/* An allocating value the unit passes to a wrapper-typed parameter of a
 * function of the project's (a function-sbo or any-sbo finding at the
 * call): what per-API figures and API rewrites are made of. */
typedef struct hl_sapi {
  char *usr;         /* the function's */
  int param;         /* the parameter's index */
  char *api;         /* as the summary names it: "Loop::post(std::function<void ()>)" */
  char *type;        /* the parameter's type as declared: "Task", "const std::function<void ()> &" */
  char *wrapper;     /* the wrapper it constructs: "std::function<void ()>" */
  char *replacement; /* the rule's inline-buffer type ("hl::inplace_function"), or "" */
  char *rule;
  hl_loc at;        /* the argument */
  long size, align; /* of the value stored */
  long capacity;    /* the replacement's capacity that holds it */
} hl_sapi;

typedef struct hl_summary {
  hl_sfn *fns;
  size_t nfns, capfns;
  hl_szone *zones;
  size_t nzones, capzones;
  /* Overrides: method usr overrides[i] overrides overridden[i]. */
  hl_strv overrides, overridden;
  hl_sapi *apis;
  size_t napis, capapis;
} hl_summary;

/* What the project index answers (index/db implements it): the rules'
 * link step asks it about functions other units define. */
typedef struct hl_index_lookup {
  void *data;
  /* The summary of the function usr names, from a unit that defines it:
   * 1 with *out filled (free it with hl_sfn_free), 0 when none does. */
  int (*function)(void *data, const char *usr, hl_sfn *out);
  /* The methods that override usr directly, added to out. */
  void (*overriders)(void *data, const char *usr, hl_strv *out);
} hl_index_lookup;

void hl_spath_add(hl_spath *p, const char *caller, const char *callee, const hl_loc *at);
void hl_spath_append(hl_spath *p, const hl_spath *tail);
void hl_spath_free(hl_spath *p);
void hl_sexit_free(hl_sexit *e);
void hl_sexits_free(hl_sexits *x);
void hl_sfn_free(hl_sfn *f);
void hl_szone_free(hl_szone *z);
void hl_sapi_free(hl_sapi *a);
void hl_summary_free(hl_summary *s);

#endif
