/* sbo/judge: whether a store allocates — the stored type's layout and
 * traits against the library's inline-buffer rule (size with the library's
 * header, alignment, the traits it requires) — and the words for why.
 * Used by sbo.c, and by function_copy.c, which follows stored values into
 * their copies. */
#ifndef HEAPLINT_RULES_SBO_JUDGE_H
#define HEAPLINT_RULES_SBO_JUDGE_H

#include "rules/sbo/site.h"
#include "util/util.h"

/* The smallest capacity, a multiple of 8, that holds size bytes. */
long hl_sbo_capacity(long size);

/* The verdict on s; ask: let the type queries ask the compiler for the
 * traits the class structure cannot settle. Free v->traits. */
void hl_sbo_judge(hl_ctx *ctx, const hl_sbo_site *s, int ask, hl_sbo_verdict *v);

/* The verdict on one instantiation an instantiation probe answered, from
 * the compiler's own numbers and traits (no culprits). */
void hl_sbo_judge_probed(const hl_wrapper *w, const hl_inst_answer *h, hl_sbo_verdict *v);

/* The numbers and the library's rule, e.g. "24 bytes (align 8) exceeds
 * libstdc++'s inline buffer of 16 bytes", appended to b. */
void hl_sbo_reasons(const hl_ctx *ctx, const hl_sbo_site *s, const hl_sbo_verdict *v, hl_sb *b);

/* The library's inline-buffer rule for s's wrapper in words: "libstdc++
 * keeps it inline when it is at most 16 bytes, aligned at most 8, and
 * trivially copyable". Caller frees. */
char *hl_sbo_rule_words(const hl_ctx *ctx, const hl_sbo_site *s);

/* A note on f saying why type lacks the trait t ("what: ..."), when known. */
void hl_sbo_why_note(hl_finding *f, const hl_loc *loc, const char *what, const char *type, const hl_trait *t);

#endif
