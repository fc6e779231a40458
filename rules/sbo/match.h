/* sbo/match: finding the stores. Recognizes, on one cursor, a value being
 * stored into a wrapper a profile describes (see sbo.h for the kinds of
 * store) and fills a site with what is stored, where and how; also the
 * stores through brace-initialized arrays and aggregates and through
 * std::pair, std::tuple and std::optional. Used by sbo.c, and by
 * function_copy.c, which follows stored values into their copies. */
#ifndef HEAPLINT_RULES_SBO_MATCH_H
#define HEAPLINT_RULES_SBO_MATCH_H

#include "rules/sbo/site.h"

/* A call that stores a value into a wrapper: fills s and returns 1. */
int hl_sbo_match(hl_ctx *ctx, CXCursor c, hl_sbo_site *s);

/* Fills s for a store of a value of type stored (made by expr, or at the
 * call at) into a wrapper w of type wtype; visited is the cursor being
 * walked. Returns 0 when nothing new is stored: copies and moves of the
 * wrapper itself, nullptr. */
int hl_sbo_fill_site(hl_ctx *ctx, hl_sbo_site *s, CXCursor visited, const hl_wrapper *w, CXType wtype, CXType stored,
                     CXCursor expr, CXCursor at);

/* How sites name a wrapper type wtype of w: *display "std::function<void
 * ()>" (the key values are filed under), *signature "void()" or NULL. Caller
 * frees both. */
void hl_sbo_wrapper_words(const hl_wrapper *w, CXType wtype, char **display, char **signature);

/* The stores of an init list, and of a forwarding constructor of a pair,
 * tuple or optional: *out (caller frees) holds the sites, the count is
 * returned. */
size_t hl_sbo_init_list_sites(hl_ctx *ctx, CXCursor list, hl_sbo_site **out);
size_t hl_sbo_tuple_sites(hl_ctx *ctx, CXCursor c, hl_sbo_site **out);
/* A call that makes the library build a class from its arguments
 * (emplace_back, std::make_shared), through a constructor that takes a
 * wrapper. */
size_t hl_sbo_built_sites(hl_ctx *ctx, CXCursor c, hl_sbo_site **out);

/* The same inside a template, where the call is resolved per
 * instantiation (a generic lambda handed to pipes.emplace_back(type, f)
 * in a generic lambda's body): the wrapper argument i of call becomes, when
 * call is v.emplace_back/emplace_front/emplace/emplace_after on a sequence
 * of a known class whose constructors taking that many arguments all take
 * that wrapper there; else NULL. */
const hl_wrapper *hl_sbo_built_wrapper(hl_ctx *ctx, CXCursor call, int i, CXType *wtype);

/* The wrapper of type t, also when t depends on a template
 * (std::function<void(Task<T> *)>: clang declares it by the class template
 * itself, known by its name); NULL when t is none. */
const hl_wrapper *hl_sbo_wrapper_of(hl_ctx *ctx, CXType t);

/* The wrapper that every constructor of the class cls taking np arguments
 * (copies and moves aside) takes at place i, *wtype its type; NULL when
 * they do not all take the same one, or cls has a constructor template or
 * is a wrapper itself. cls may depend on a template (Worker<T>): its class
 * template's constructors as written. */
const hl_wrapper *hl_sbo_ctor_wrapper(hl_ctx *ctx, CXType cls, int np, int i, CXType *wtype);

/* The types of a record's fields, in order, in *out (caller frees). */
size_t hl_sbo_field_types(CXType t, CXType **out);

void hl_sbo_site_free(hl_sbo_site *s);

#endif
