#include "engine/loops.h"

#include "engine/ast.h"

/* A condition the compiler folds to false: "do { ... } while (0)", the
 * macro idiom, and "while (false)" run their body at most once. */
static int never_repeats(CXCursor loop) {
  enum CXCursorKind k = clang_getCursorKind(loop);
  if (k != CXCursor_DoStmt && k != CXCursor_WhileStmt) return 0;
  CXCursor cond = k == CXCursor_DoStmt ? hl_last_child(loop) : hl_first_child(loop);
  if (clang_Cursor_isNull(cond) || clang_getCursorKind(cond) == CXCursor_VarDecl) return 0;
  CXEvalResult r = clang_Cursor_Evaluate(cond);
  if (!r) return 0;
  int never = clang_EvalResult_getKind(r) == CXEval_Int && clang_EvalResult_getAsLongLong(r) == 0;
  clang_EvalResult_dispose(r);
  return never;
}

CXCursor hl_loop_around(const hl_ctx *ctx, CXCursor self) { return hl_loop_above(ctx, 0, self); }

CXCursor hl_loop_above(const hl_ctx *ctx, size_t from, CXCursor self) {
  for (size_t k = from;; k++) {
    CXCursor a = hl_ctx_ancestor(ctx, k);
    switch (clang_getCursorKind(a)) {
    case CXCursor_ForStmt:
    case CXCursor_WhileStmt:
    case CXCursor_CXXForRangeStmt:
    case CXCursor_DoStmt: {
      /* Only the body repeats: a for-init or a range-init runs once. */
      CXCursor body = clang_getCursorKind(a) == CXCursor_DoStmt ? hl_first_child(a) : hl_last_child(a);
      if (clang_equalCursors(k == from ? self : hl_ctx_ancestor(ctx, k - 1), body) && !never_repeats(a)) return a;
      break;
    }
    case CXCursor_LambdaExpr:
    case CXCursor_FunctionDecl:
    case CXCursor_CXXMethod:
    case CXCursor_Constructor:
    case CXCursor_Destructor:
    case CXCursor_ConversionFunction:
    case CXCursor_FunctionTemplate:
    case CXCursor_TranslationUnit:
    case CXCursor_InvalidFile: return clang_getNullCursor();
    default:
      if (clang_Cursor_isNull(a)) return a;
      break;
    }
  }
}
