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
 * passes to a wrapper-typed parameter of a function; and, for API rewrites,
 * the wrapper aliases it sees, every value it stores into a wrapper and
 * every wrapper type it writes out. A summary depends on its unit
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

/* A declaration an API rewrite retypes: a type alias of the project's for a wrapper with an inline-buffer
 * replacement (using Task = std::function<void()>;), as one unit sees it:
 * retyping it retypes every declaration written through it at once, so
 * one edit removes the allocation at every call site (API rewrites). */
typedef struct hl_salias {
  char *usr, *name; /* "pulse::Task" */
  /* A member (or global) declared in a header instead, whose type writes
   * the wrapper out (std::vector<std::function<void()>> hooks_;): every
   * unit that stores into it or uses it says so, and its own stores count. */
  int member;
  /* Or a function's parameter written out as the wrapper (usr is then the
   * function's, '#', the parameter's index): 2 in the unit that defines
   * the function (blocked says whether its body only calls it), 1 where it
   * is only declared. Its rewrite is hl::function_ref. */
  int param;
  /* A parameter whose whole value its function moves (or copies) into a
   * member of its type in a constructor's initializer list (Timer(Callback
   * cb) : cb_(std::move(cb)) {}), its only use besides calls: the member's
   * key. The two are retyped together, to the member's rewrite. */
  char *into;
  /* Or whose function passes it whole (as it is, moved or copied) to a
   * parameter of another function written out as the same wrapper
   * (split(b, e, d, fn) calling split(b, e, d, max, std::move(fn))): that
   * parameter's key. It becomes a function_ref only with that one. */
  char *onto;
  char *key;         /* what its values are filed under: the wrapper for an alias, "member <usr>" for a member */
  char *wrapper;     /* the wrapper it names, as values are keyed: "std::function<void ()>" */
  char *replacement; /* "hl::inplace_function" */
  char *header;      /* "heaplint/inplace_function.hpp" */
  char *written;     /* the aliased type as written: "std::function<void()>" */
  hl_loc at;         /* the alias's declaration */
  hl_edit type;      /* where the aliased type is written (text NULL); file NULL: nowhere heaplint may edit */
  hl_edit include;   /* the #include its file needs (file NULL: it has it) */
  /* A member's partners in this unit: locals its whole value moves into
   * (T x = std::move(member);), retyped with it; each edit's text is the
   * wrapper as written there. */
  hl_edit *extra;
  size_t nextra, capextra;
  char *blocked; /* why this unit cannot take the rewrite (its standard, the runtime not reachable), or NULL */
} hl_salias;

/* A value the unit stores into a wrapper (allocating or not), keyed by
 * the wrapper's type: what sizes an alias of it. */
typedef struct hl_svalue {
  char *wrapper; /* "std::function<void ()>" */
  hl_loc at;     /* where the value comes from (a call that instantiated a template) */
  hl_loc store;  /* where it is stored into the wrapper (at, unless in a template) */
  /* A store inside a template that this unit does not instantiate (known
   * 0): unknown unless another unit's instantiation answers for it. */
  int dependent;
  int known;       /* its size and traits are known */
  int allocates;   /* the library keeps it on the heap */
  int move_throws; /* its move may throw (or heaplint cannot tell): the replacement rejects it */
  /* ...only because it captures const copies (a lambda's [name] of a
   * const std::string): these edits make them init-captures ([name =
   * name]), whose copies the closure can move. */
  int move_fixed;
  hl_edit *fixes;
  size_t nfixes, capfixes;
  long size, align; /* when known */
} hl_svalue;

/* A wrapper type written out, not through an alias (a parameter
 * std::function<void()>, std::vector<std::function<void()>>): values pass
 * between it and the alias's declarations, so the alias keeps its type. */
typedef struct hl_sspelling {
  char *wrapper; /* "std::function<void ()>" */
  hl_loc at;
} hl_sspelling;

/* For function-copy across units: a "slot" is a wrapper declaration other
 * units see (a header's member, a parameter of a function other units can
 * call), keyed as its values are ("member <usr>", "param <usr>#<index>").
 * A flow: the value of slot from goes into slot to (a copy, a move, a
 * reference parameter bound to it), or, with from NULL, a value heaplint
 * cannot follow does (another std::function, a call's result). */
/* The keys, made in one place: "member <usr>" (the member's USR),
 * "<fn usr>#<index>" (a parameter: an alias's usr), "param <fn usr>#<index>",
 * "return <fn usr>". Each malloc'd. */
char *hl_slot_member(const char *member_usr);
char *hl_slot_param_usr(const char *fn_usr, int index);
char *hl_slot_param(const char *fn_usr, int index);
char *hl_slot_return(const char *fn_usr);

typedef struct hl_sflow {
  char *from, *to;
  hl_loc at;
} hl_sflow;

/* A copy of a slot's value into another wrapper, which allocates when the
 * target the slot holds is on the heap: what only the values stored into
 * the slot anywhere decide. */
typedef struct hl_scopy {
  char *slot;    /* "member <usr>", "param <usr>#<index>" */
  char *wrapper; /* "std::function<void ()>" */
  char *what;    /* the copy as the message says it: "copying this std::function<void ()>" */
  hl_loc at;
} hl_scopy;

typedef struct hl_summary {
  hl_sfn *fns;
  size_t nfns, capfns;
  hl_szone *zones;
  size_t nzones, capzones;
  /* Overrides: method usr overrides[i] overrides overridden[i]. */
  hl_strv overrides, overridden;
  hl_sapi *apis;
  size_t napis, capapis;
  hl_salias *aliases;
  size_t naliases, capaliases;
  hl_svalue *values;
  size_t nvalues, capvalues;
  hl_sspelling *spellings;
  size_t nspellings, capspellings;
  hl_sflow *flows;
  size_t nflows, capflows;
  hl_scopy *copies;
  size_t ncopies, capcopies;
} hl_summary;

/* What the project index knows of one wrapper alias over every unit it
 * holds: the alias (as one unit recorded it), and the values stored into
 * its wrapper type anywhere, with what stands in the way of retyping it. */
typedef struct hl_alias_view {
  hl_salias alias;
  size_t values;     /* distinct sites */
  size_t allocating; /* of which the library keeps on the heap */
  size_t files;      /* with an allocating site */
  long size, align;  /* the largest known value's */
  hl_loc unknown_at; /* a value of unknown size (file NULL: none) */
  hl_loc throws_at;  /* a value whose move may throw (file NULL: none) */
  hl_loc spelled_at; /* the wrapper type written out (file NULL: nowhere) */
  char *blocked;     /* a unit's reason, or NULL */
  hl_edit *extra;    /* a member's partners over every unit (text: the wrapper as written), each once */
  size_t nextra;
  hl_edit *incs; /* a parameter's: every declaration's #include, each once */
  size_t nincs;
  int defined;    /* a parameter's: a unit that defines its function judged it */
  hl_edit *fixes; /* the edits that make the values whose move may throw movable (const captures) */
  size_t nfixes;
  size_t fixed_values;  /* how many values they fix */
  int fixes_unreadable; /* a row's edits could not be read: those values block it */
  hl_loc *sites;        /* the allocating sites, in file order */
  size_t nsites;
} hl_alias_view;

/* What the project index answers (index/db implements it): the rules'
 * link step asks it about functions other units define. */
typedef struct hl_index_lookup {
  void *data;
  /* The summary of the function usr names, from a unit that defines it:
   * 1 with *out filled (free it with hl_sfn_free), 0 when none does. */
  int (*function)(void *data, const char *usr, hl_sfn *out);
  /* The methods that override usr directly, added to out. */
  void (*overriders)(void *data, const char *usr, hl_strv *out);
  /* Every wrapper alias in the index, with what was stored into its
   * wrapper type over every unit: 0 (*out: free with
   * hl_alias_views_free), or -1 with *err. May be NULL. */
  int (*aliases)(void *data, hl_alias_view **out, size_t *n, char **err);
  /* The values stored into slot key by any unit (their wrapper field is
   * then the unit's file) and the flows into it (from NULL: unknown), added
   * to *values and *flows. May be NULL. */
  void (*slot)(void *data, const char *key, hl_svalue **values, size_t *nvalues, hl_sflow **flows, size_t *nflows);
  /* Only the flows into slot key (slot's second half: one query, no
   * values read), added to *flows. May be NULL. */
  void (*flows)(void *data, const char *key, hl_sflow **flows, size_t *nflows);
} hl_index_lookup;

void hl_spath_add(hl_spath *p, const char *caller, const char *callee, const hl_loc *at);
void hl_spath_append(hl_spath *p, const hl_spath *tail);
void hl_spath_free(hl_spath *p);
void hl_sexit_free(hl_sexit *e);
void hl_sexits_free(hl_sexits *x);
void hl_sfn_free(hl_sfn *f);
void hl_szone_free(hl_szone *z);
void hl_sapi_free(hl_sapi *a);
void hl_salias_free(hl_salias *a);
void hl_svalue_free(hl_svalue *v);
void hl_sspelling_free(hl_sspelling *p);
void hl_sflow_free(hl_sflow *f);
void hl_scopy_free(hl_scopy *c);
void hl_alias_views_free(hl_alias_view *v, size_t n);
void hl_summary_free(hl_summary *s);

#endif
