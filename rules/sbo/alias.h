/* sbo/alias: API rewrites through a wrapper alias. A project that names its
 * callback type once (using Task = std::function<void()>;) and writes every
 * parameter, member and container through the name can drop the heap at
 * every call site with one edit: the alias becomes
 * hl::inplace_function<void(), N>, N the largest value stored into the
 * wrapper anywhere in the compile database.
 *
 * Each unit records what that needs (engine/summary.h): the aliases it sees,
 * every value it stores into a wrapper (allocating or not, sized or not),
 * and every place it writes the wrapper type out instead of through an
 * alias. After the whole database is analyzed, the project index merges
 * them and the plan decides: the rewrite, or why not — a value of unknown
 * size, one whose move may throw, the type written out elsewhere (values
 * would pass between the two types), a unit whose standard or include path
 * cannot take the runtime's header, a type heaplint may not edit. */
#ifndef HEAPLINT_RULES_SBO_ALIAS_H
#define HEAPLINT_RULES_SBO_ALIAS_H

#include "rules/sbo/site.h"

/* A parameter's rewrite: the type and its header. */
#define HL_SBO_FUNCTION_REF "hl::function_ref"
#define HL_SBO_FUNCTION_REF_HEADER "heaplint/function_ref.hpp"

/* During the walk, for rule's wrappers: a typedef or alias declaration
 * (recorded when it names a wrapper with a replacement), or a TemplateRef
 * (recorded when it writes out such a wrapper type). */
void hl_sbo_alias_visit(hl_ctx *ctx, const char *rule, const hl_sbo_wording *wd, CXCursor c);

/* After the sites are judged: the value site s stores (verdict v), filed
 * under its wrapper type and, when it goes into a shared member, under that
 * member too (member: its declaration, else a null cursor); store:
 * for a value an instantiation stores inside a template, the template's
 * store (s->loc is then where the code made the type concrete), and for a
 * store no instantiation answered (v unknown), the store itself; else NULL. */
void hl_sbo_alias_value(hl_ctx *ctx, const hl_sbo_wording *wd, const hl_sbo_site *s, const hl_sbo_verdict *v,
                        const hl_loc *store, CXCursor member);

/* After the walk: a member (or global) decl of a header that the unit
 * stores into or uses (retype.h's shared target), with what in this unit
 * stands in the way of retyping it (NULL: nothing) and its partners, the
 * locals of the unit its whole value moves into (retyped with it). Its values are those
 * hl_sbo_alias_value files with member = decl. */
void hl_sbo_member_record(hl_ctx *ctx, const char *rule, const hl_sbo_wording *wd, CXCursor decl, const char *blocked,
                          const CXCursor *partners, size_t npartners);

#endif
