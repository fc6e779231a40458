/* sbo/reach: which calls reach an instantiation through the instantiated
 * code of the project's templates. The compiler instantiates a
 * specialization once and names only the first call that requested it
 * ("in instantiation of ... requested here"), so an instantiation probe
 * sees one of the calls that end in a store. A later call of another
 * specialization that calls the same one (eventpp's dispatch(std::string)
 * building the AnyId<std::string> that appendListener(std::string) built
 * first) stores the same on every run. libclang walks a specialization's
 * instantiated body (clang_visitChildren on the cursor a call references),
 * with its types concrete: the calls found there are the graph's edges,
 * read once per specialization. Used by sbo.c only. */
#ifndef HEAPLINT_RULES_SBO_REACH_H
#define HEAPLINT_RULES_SBO_REACH_H

#include <clang-c/Index.h>

typedef struct hl_reach hl_reach;

/* Whether fn is a function (or member function, constructor, conversion)
 * instantiated from a template: a node of the graph. */
int hl_reach_is_specialization(CXCursor fn);

/* The graph from the specializations the project's calls call (roots, n of
 * them): their instantiated bodies' calls, and those bodies' calls in turn,
 * up to HL_REACH_DEPTH calls deep from a root, except what a system
 * header defines (its internals are not followed) and a lambda's body (it
 * runs only when the lambda is called). Each body is read once. */
#define HL_REACH_DEPTH 12
hl_reach *hl_reach_new(const CXCursor *roots, size_t n);
void hl_reach_free(hl_reach *R);

/* flags[i] (n of them, as given to hl_reach_new) = 1 when root i is the
 * specialization to or calls it, directly or through the graph. */
void hl_reach_callers(hl_reach *R, CXCursor to, char *flags);

#endif
