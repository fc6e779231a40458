#include "rules/lib/tokens.h"

hl_strv hl_tokens(hl_ctx *ctx, CXSourceRange r) {
  CXTranslationUnit tu = hl_ctx_tu(ctx);
  CXToken *tokens = NULL;
  unsigned n = 0;
  clang_tokenize(tu, r, &tokens, &n);
  hl_strv v = {0};
  for (unsigned i = 0; i < n; i++) {
    CXString s = clang_getTokenSpelling(tu, tokens[i]);
    hl_strv_add(&v, clang_getCString(s));
    clang_disposeString(s);
  }
  clang_disposeTokens(tu, tokens, n);
  return v;
}
