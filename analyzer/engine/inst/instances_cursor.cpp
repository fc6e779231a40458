// instances_cursor: the one place that reads libclang's private layout of
// a cursor and builds one of a location (instances_impl.hpp says why:
// libclang's C API has no function from a cursor to clang's Decl or Stmt,
// nor from clang's SourceLocation to a CXSourceLocation). The layout is
// CIndex's (CXCursor.cpp, CXSourceLocation.h) in the clang that
// hl_instances_usable checked is libclang-cpp's own.
#include <clang-c/Index.h>
#include <clang/AST/ASTContext.h>
#include <clang/AST/Expr.h>
#include <clang/Basic/SourceManager.h>

#include "engine/inst/instances_impl.hpp"

using namespace clang;

namespace hl_ast {

// cxcursor::getCursorExpr: an expression cursor's Stmt is data[1].
const Expr *cursor_expr(CXCursor c) {
  if (!clang_isExpression(clang_getCursorKind(c)) || !c.data[1]) return nullptr;
  return dyn_cast<Expr>(static_cast<const Stmt *>(c.data[1]));
}

const Stmt *cursor_stmt(CXCursor c) { return static_cast<const Stmt *>(c.data[1]); }

// cxcursor::getCursorDecl, and for an expression or statement cursor
// cxcursor::getCursorParentDecl: data[0] either way.
const Decl *cursor_decl(CXCursor c) { return static_cast<const Decl *>(c.data[0]); }

// cxloc::translateSourceLocation: the unit's SourceManager and language
// options, then clang's raw location.
CXSourceLocation cursor_location(const ASTContext &ctx, SourceLocation at) {
  CXSourceLocation r = {{&ctx.getSourceManager(), &ctx.getLangOpts()}, at.getRawEncoding()};
  return r;
}

}  // namespace hl_ast
