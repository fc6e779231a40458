/* tokens: the spellings of the tokens in a range of the translation unit,
 * for what libclang's cursors do not show (a lambda's attributes, a
 * placement new's parentheses, a literal's escapes). */
#ifndef HEAPLINT_RULES_TOKENS_H
#define HEAPLINT_RULES_TOKENS_H

#include "engine/rule.h"
#include "util/strv.h"

/* The spellings of the tokens of r, in order (free with hl_strv_free). */
hl_strv hl_tokens(hl_ctx *ctx, CXSourceRange r);

#endif
