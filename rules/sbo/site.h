/* sbo/site: the data the small-buffer modules share — a store found
 * (hl_sbo_site), the verdict on it, the fix planned, and the hooks by
 * which a rule words the stored thing and the fix. */
#ifndef HEAPLINT_RULES_SBO_SITE_H
#define HEAPLINT_RULES_SBO_SITE_H

#include "engine/rule.h"
#include "rules/lib/retype.h"

typedef struct hl_sbo_site {
  const hl_wrapper *wrapper;
  char *wrapper_spelling; /* as the code spells it: "std::function<void ()>" */
  char *signature;        /* "void()" when the wrapper's first template argument is a function type */
  CXType stored;          /* the type kept by the wrapper (sugar kept, see decays) */
  int decays;             /* a function or array, stored as a pointer */
  long size, align;       /* the stored type's layout when libclang has none
                              (a lambda in a template), else 0 */
  CXCursor expr;          /* the stored expression, or a null cursor */
  CXCursor lambda;        /* the lambda whose closure is stored, or a null cursor */
  CXCursor callee;        /* the function called (std::bind, std::ref, ...) to make it, or null */
  hl_loc loc;
  int in_loop;     /* runs on every iteration of an enclosing loop */
  char **captures; /* lambda: each capture's name, field by field, or NULL */
  size_t ncaptures;
  CXCursor call; /* the call that stores (a null cursor for brace init) */
  hl_store_kind store_kind;
  int target;            /* the declaration it stores into (retype.h), or -1 */
  hl_retype_param param; /* the function parameter it is passed to (usr NULL: none) */
  char *untargeted;      /* why it has none */
  /* A store inside a template whose stored type depends on the template's
   * parameters: judged per instantiation by an instantiation probe. */
  int dependent;
  int independent;       /* ...yet its layout does not (std::bind of this and
                              non-dependent values): one answer holds for all */
  int convert;           /* ...an argument of a call whose callee is known only
                              per instantiation (wrapper is NULL): a conversion
                              probe asks what each converts it to */
  CXCursor convert_call; /* that call (or the argument itself) */
  char *convert_type;    /* the type a member initializer converts it to, or NULL */
  int probe;             /* its probe's id, or -1 */
  const char *unprobed;  /* why it has no probe */
} hl_sbo_site;

typedef struct hl_sbo_verdict {
  hl_tri allocates;
  long size, align; /* of the stored type */
  long needed;      /* bytes the library needs in its buffer (with its header) */
  int too_big, too_aligned;
  unsigned failed;  /* HL_REQ_* the stored type lacks */
  unsigned unknown; /* HL_REQ_* that could not be decided */
  hl_traits traits;
} hl_sbo_verdict;

/* The fix of one finding, as the engine planned it. */
typedef struct hl_sbo_fix {
  long capacity, align; /* of the replacement: holds every callable stored into the declaration */
  const char *blocked;  /* why the declaration is not rewritten, or NULL when it is */
  int rewritten;        /* the finding carries the edits */
} hl_sbo_fix;

/* The hooks of one small-buffer rule: word the stored thing and the fix. */
typedef struct hl_sbo_wording {
  /* "lambda", "functor 'Big'", "value of type 'Big'" */
  char *(*noun)(hl_ctx *ctx, const hl_sbo_site *s);
  /* The type replacing the wrapper in its declaration ("hl::inplace_function"),
   * or NULL when the rule has no rewrite; and the header declaring it. */
  const char *(*replacement)(const hl_sbo_site *s);
  const char *header;
  /* The note that points at the fix (may add nothing). */
  void (*fix)(hl_ctx *ctx, const hl_sbo_site *s, const hl_sbo_verdict *v, const hl_sbo_fix *fx, hl_finding *f);
  /* The noun for a type an instantiation probe reports, as the compiler
   * spells it ("(lambda at a.cpp:3:9)", "std::_Bind<...>", "Big"). */
  char *(*probed_noun)(const char *type);
  /* HL_REQ_* the replacement demands of every value stored into it (it
   * rejects others at compile time): a declaration that stores one without
   * is not rewritten. */
  unsigned replacement_requires;
} hl_sbo_wording;

#endif
