/* reach: which calls reach an instantiation through the instantiated
 * code of the project's templates. The compiler instantiates a
 * specialization once and names only the first call that requested it
 * ("in instantiation of ... requested here"), so an instantiation probe
 * sees one of the calls that end in a store. A later call of another
 * specialization that calls the same one (eventpp's dispatch(std::string)
 * building the AnyId<std::string> that appendListener(std::string) built
 * first) stores the same on every run. libclang walks a specialization's
 * instantiated body (clang_visitChildren on the cursor a call references),
 * with its types concrete: the calls found there are the graph's edges,
 * read once per specialization. One per translation unit, in its context
 * (hl_ctx_note_template_call, hl_ctx_reaching_calls): the rules that ask
 * share the calls and the graph. */
#ifndef HEAPLINT_ENGINE_REACH_H
#define HEAPLINT_ENGINE_REACH_H

#include <clang-c/Index.h>

typedef struct hl_reach hl_reach;

hl_reach *hl_reach_new(void);
void hl_reach_free(hl_reach *R);

/* Records call (a call expression) when it calls a specialization and
 * clang names it at a cursor of its own: the callee's name, a constructor
 * call itself. A call recorded last is not recorded again (every rule that
 * notes it during the walk notes it in turn). */
void hl_reach_note_call(hl_reach *R, CXCursor call);

/* The calls recorded: *n of them; names[i] is where clang points at the
 * i'th ("requested here"). No call is recorded after this. */
const CXCursor *hl_reach_call_names(hl_reach *R, size_t *n);

/* Whether calls i and j call the same specialization. */
int hl_reach_same_callee(const hl_reach *R, size_t i, size_t j);

/* flags[i] (one per call recorded) = 1 when call i calls the
 * specialization call `to` calls, or one whose instantiated code calls
 * it, directly or through the graph. The graph is made at the first
 * query, from the specializations the recorded calls call: their
 * instantiated bodies' calls, and those bodies' calls in turn, up to
 * HL_REACH_DEPTH calls deep from a recorded call, except what a system
 * header defines (its internals are not followed) and a lambda's body (it
 * runs only when the lambda is called). Each body is read once. No call
 * is recorded after the first query. */
#define HL_REACH_DEPTH 12
void hl_reach_callers(hl_reach *R, size_t to, char *flags);

#endif
