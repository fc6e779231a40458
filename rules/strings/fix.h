/* strings/fix: the rewrites string-sso offers for a local std::string
 * built from a constant, and what each use of the variable allows:
 *
 *   constexpr std::string_view  it is only read, as a view would be read:
 *                               const members a view has (size(), data(),
 *                               find(), ...), compared, streamed, passed as
 *                               a std::string_view;
 *   static const std::string    it is never modified: const members, passed
 *                               by value or by const reference;
 *   hl::string                  it stays what it is: the members it calls
 *                               name no std::string in their signatures and
 *                               it is not passed on as one.
 *
 * A use that rules a rewrite out says why, for the finding's note. */
#ifndef HEAPLINT_RULES_STRINGS_FIX_H
#define HEAPLINT_RULES_STRINGS_FIX_H

#include "engine/rule.h"

enum { HL_STRFIX_VIEW, HL_STRFIX_STATIC, HL_STRFIX_POOL, HL_STRFIX_KINDS };

typedef struct hl_strfix {
  char *blocked[HL_STRFIX_KINDS]; /* the first use ruling each out, in words; NULL: none */
} hl_strfix;

/* Judges ref, a DeclRefExpr to the variable (the cursor being visited:
 * ctx's ancestors are its parents), for the rewrites not yet ruled out. */
void hl_strfix_use(hl_ctx *ctx, CXCursor ref, hl_strfix *x);
void hl_strfix_free(hl_strfix *x);

/* The type of decl as it is written, when it is std::string (std::wstring,
 * std::u8string, std::u16string, std::u32string; ::std:: too) after an
 * optional const: its range in e (text NULL), the name after std::
 * ("string", to free) and whether the const is there. Returns 0, or -1
 * with *why (to free). */
int hl_strfix_type(hl_ctx *ctx, CXCursor decl, hl_edit *e, char **name, int *is_const, char **why);

#endif
