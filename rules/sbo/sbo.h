/* sbo: the engine shared by the small-buffer rules (function-sbo, any-sbo):
 * finds every place a value is stored into a wrapper a profile describes,
 * judges it against that library's inline-buffer rule, and words the
 * numbers. The rules themselves only name what is stored and the fix.
 *
 * A store is a call, found on the AST as the library sees it:
 *   - a converting constructor of the wrapper (copy-, direct-, brace-init,
 *     argument passing, return, member init: all are this call), including
 *     std::in_place_type<T> construction;
 *   - the wrapper's templated operator=;
 *   - a profile's emplace members (std::any::emplace<T>) and factories
 *     (std::make_any<T>);
 *   - emplace_back/emplace/try_emplace/... of a standard container whose
 *     element (or mapped) type is the wrapper: the wrapper is then built
 *     inside the library, from the argument. */
#ifndef HEAPLINT_RULES_SBO_H
#define HEAPLINT_RULES_SBO_H

#include "rules/lib/retype.h"
#include "engine/rule.h"

typedef struct hl_sbo_site {
  const hl_wrapper *wrapper;
  char *wrapper_spelling;  /* as the code spells it: "std::function<void ()>" */
  char *signature;         /* "void()" when the wrapper's first template argument is a function type */
  CXType stored;           /* the type kept by the wrapper (sugar kept, see decays) */
  int decays;              /* a function or array, stored as a pointer */
  long size, align;        /* the stored type's layout when libclang has none
                              (a lambda in a template), else 0 */
  CXCursor expr;           /* the stored expression, or a null cursor */
  CXCursor lambda;         /* the lambda whose closure is stored, or a null cursor */
  CXCursor callee;         /* the function called (std::bind, std::ref, ...) to make it, or null */
  hl_loc loc;
  int in_loop;             /* runs on every iteration of an enclosing loop */
  char **captures;         /* lambda: each capture's name, field by field, or NULL */
  size_t ncaptures;
  CXCursor call;           /* the call that stores (a null cursor for brace init) */
  hl_store_kind store_kind;
  int target;              /* the declaration it stores into (retype.h), or -1 */
  char *untargeted;        /* why it has none */
} hl_sbo_site;

typedef struct hl_sbo_verdict {
  hl_tri allocates;
  long size, align;        /* of the stored type */
  long needed;             /* bytes the library needs in its buffer (with its header) */
  int too_big, too_aligned;
  unsigned failed;         /* HL_REQ_* the stored type lacks */
  unsigned unknown;        /* HL_REQ_* that could not be decided */
  hl_traits traits;
} hl_sbo_verdict;

typedef struct hl_sbo hl_sbo;

/* The fix of one finding, as the engine planned it. */
typedef struct hl_sbo_fix {
  long capacity, align;  /* of the replacement: holds every callable stored into the declaration */
  const char *blocked;   /* why the declaration is not rewritten, or NULL when it is */
  int rewritten;         /* the finding carries the edits */
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
  /* HL_REQ_* the replacement demands of every value stored into it (it
   * rejects others at compile time): a declaration that stores one without
   * is not rewritten. */
  unsigned replacement_requires;
} hl_sbo_wording;

hl_sbo *hl_sbo_begin(const char *rule_id, const hl_sbo_wording *wording);
void hl_sbo_visit(hl_ctx *ctx, hl_sbo *S, CXCursor c);
void hl_sbo_prepare(hl_ctx *ctx, hl_sbo *S);
void hl_sbo_end(hl_ctx *ctx, hl_sbo *S);

/* The smallest capacity, a multiple of 8, that holds size bytes. */
long hl_sbo_capacity(long size);

#endif
