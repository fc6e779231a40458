/* context: what a rule sees of the translation unit being analyzed — the
 * libclang TU, its target and standard library, the wrappers the selected
 * profiles describe, the ancestors of the cursor being visited, type layout
 * and trait queries, and where findings go.
 *
 * One context lives for one translation unit; the walker fills the ancestor
 * stack as it descends. */
#ifndef HEAPLINT_CONTEXT_H
#define HEAPLINT_CONTEXT_H

#include <clang-c/Index.h>

#include "engine/finding.h"
#include "engine/inst/inst.h"
#include "engine/job.h"
#include "engine/layout.h"
#include "engine/summary.h"
#include "engine/typeinfo.h"
#include "engine/wrapper.h"

typedef struct hl_ctx hl_ctx;

/* What the unit tells the project index (engine/summary.h), filled by the
 * rules' end; NULL when the front end keeps no index. */
hl_summary *hl_ctx_summary(const hl_ctx *ctx);
/* The translation unit, and the job it was parsed from. */
CXTranslationUnit hl_ctx_tu(const hl_ctx *ctx);
const hl_job *hl_ctx_job(const hl_ctx *ctx);
/* The target's pointer width in bits (64). */
int hl_ctx_pointer_width(const hl_ctx *ctx);
/* The wrappers the selected profiles describe: *n of them. */
const hl_wrapper *const *hl_ctx_wrappers(const hl_ctx *ctx, size_t *n);
/* The number a rule's profile section (hl_rule.profile) states for name
 * (one of section->names), as the selected profiles state it, and in
 * *library (when not NULL) the library the stating profile describes, with
 * its ABI when the profile is for an ABI variant ("libstdc++'s pre-C++11
 * string ABI (_GLIBCXX_USE_CXX11_ABI=0)"; "the profile" when it names no
 * library); -1 when none states it. */
long hl_ctx_profile_number(const hl_ctx *ctx, const hl_profile_section *section, const char *name,
                           const char **library);
/* The type queries of this translation unit. */
hl_types *hl_ctx_types(const hl_ctx *ctx);
/* The target triple (x86_64-pc-linux-gnu). */
const char *hl_ctx_triple(const hl_ctx *ctx);
/* The instantiation probes of this translation unit: queued by the rules'
 * prepare, answered in one parse before their end. */
hl_inst *hl_ctx_inst(const hl_ctx *ctx);
/* Records a call of the unit's code (a call expression) when it calls a
 * template's specialization: the calls hl_ctx_reaching_calls answers
 * with. Rules note calls while the walk visits them (each call once,
 * however many rules note it). */
void hl_ctx_note_template_call(hl_ctx *ctx, CXCursor call);
/* The compiler instantiates a specialization once and names only the first
 * call that requested it. Given such a call's place (at, where clang points
 * in "requested here"), the other noted calls whose specialization is that
 * one or whose instantiated code calls it (engine/reach): *out, the
 * count returned; free each loc and *out. Asked after the walk. */
typedef struct hl_reaching {
  hl_loc loc;
  int same; /* a call of the same specialization */
} hl_reaching;
size_t hl_ctx_reaching_calls(hl_ctx *ctx, const hl_loc *at, hl_reaching **out);
/* Whether -v asked for remarks. */
int hl_ctx_verbose(const hl_ctx *ctx);
/* Adds a finding of this translation unit; takes ownership of f. Every
 * finding is also an allocation verdict (below). */
void hl_ctx_report(hl_ctx *ctx, hl_finding *f);

/* The sites the rules judged to allocate (hl_allocation, finding.h), for a
 * rule that reviews the others' verdicts (no-alloc). Each finding reported
 * is one; a rule adds with hl_ctx_allocation those it judges but does not
 * report (an allocation it only warns about in a loop). */
void hl_ctx_allocation(hl_ctx *ctx, const char *rule, const hl_loc *at, const char *what);
/* The verdicts so far, in the order given: *n of them. */
const hl_allocation *hl_ctx_allocations(const hl_ctx *ctx, size_t *n);

/* The config's max-inline-capacity: the largest inline buffer a fix may
 * choose, in bytes; 0: no limit. */
long hl_ctx_max_inline_capacity(const hl_ctx *ctx);

/* The items the unit's configuration gives a rule's option
 * (hl_rule.options), *n of them (none when it does not say). */
const char *const *hl_ctx_option(const hl_ctx *ctx, const hl_rule_option *option, size_t *n);

/* The k-th ancestor of the cursor being visited (0: its parent), or a null
 * cursor past the translation unit. */
CXCursor hl_ctx_ancestor(const hl_ctx *ctx, size_t k);

/* The first ancestor from depth *k up that is not transparent (an implicit
 * cast, parentheses, a temporary's binding): *k becomes its depth and
 * *below (when not NULL) the cursor under it, self when none was skipped. */
CXCursor hl_ctx_opaque_ancestor(const hl_ctx *ctx, size_t *k, CXCursor self, CXCursor *below);

/* Where loc is in the user's source: a macro expansion maps to where the
 * macro was used (or where its argument was written), as clang reports it.
 * Returns 0, or -1 when the location has no file. */
int hl_ctx_loc(const hl_ctx *ctx, CXSourceLocation loc, hl_loc *out);

/* Gives f a range from its location to the end of c's extent, when the
 * extent holds that location and ends in the same file (not in a macro's
 * expansion). */
void hl_ctx_range(const hl_ctx *ctx, hl_finding *f, CXCursor c);
/* The same for any location at: *end_line and *end_col become the end of
 * c's extent, or stay as they are when it does not qualify. */
void hl_ctx_range_end(const hl_ctx *ctx, const hl_loc *at, CXCursor c, unsigned *end_line, unsigned *end_col);

/* Whether the front end shows layouts (the language server's hover): only
 * then are they worth computing. */
int hl_ctx_wants_layouts(const hl_ctx *ctx);
/* Records what was computed about one store (engine/layout.h); takes
 * ownership of l. */
void hl_ctx_layout(hl_ctx *ctx, hl_layout *l);

/* The wrapper entry whose class is decl (a class or a specialization of a
 * class template), or NULL. */
const hl_wrapper *hl_ctx_wrapper_of_decl(const hl_ctx *ctx, CXCursor decl);
const hl_wrapper *hl_ctx_wrapper_of_type(const hl_ctx *ctx, CXType t);

/* The translation unit's __cplusplus (201103L for C++11, ...; 0 when it is
 * not C++), or -1 when it cannot be told. The compiler is asked once, on
 * the first call. */
long hl_ctx_cplusplus(hl_ctx *ctx);

/* Records a site the rule saw but did not decide: a note-level finding
 * whose message follows "not decided: ", counted under reason (a static
 * category, "template-dependent") in the summary, listed by -v, and carried
 * by JSON and SARIF with --report-undecided. */
void hl_ctx_undecided(hl_ctx *ctx, const char *rule, const hl_loc *at, const char *reason, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 5, 6)))
#endif
    ;

#endif
