// instances_impl: what the AST backend's files share (C++ only,
// engine/inst/instances*.cpp): the per-unit session, the one accessor of
// libclang's private cursor layout, the instantiations of a pattern, an
// expression as written, the chain of an instance, and the conversions a
// call makes of an argument.
#ifndef HEAPLINT_INSTANCES_IMPL_HPP
#define HEAPLINT_INSTANCES_IMPL_HPP

#include <clang-c/Index.h>
#include <clang/AST/ASTContext.h>
#include <clang/AST/Decl.h>
#include <clang/AST/Expr.h>
#include <clang/AST/RecursiveASTVisitor.h>

#include <cstddef>
#include <map>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace hl_ast {

using namespace clang;

// libclang's C API has no way from a cursor or a location to clang's own
// objects (nor back): CIndex keeps them in the cursor's data fields
// (cxcursor::getCursorStmt, getCursorDecl) and a location's ptr_data
// (cxloc::translateSourceLocation), private to libclang. These are the
// only places that read or build that layout, sound because libclang-cpp
// is libclang's own clang (hl_instances_usable). instances_cursor.cpp.
//
// The expression of an expression cursor, else null.
const Expr *cursor_expr(CXCursor c);
// The statement of an expression's or statement's cursor.
const Stmt *cursor_stmt(CXCursor c);
// A declaration's cursor: its declaration; an expression's: the
// declaration libclang found it under (null for a cursor made without
// one); the unit's cursor: the TranslationUnitDecl.
const Decl *cursor_decl(CXCursor c);
// clang's location at, as libclang's (to ask clang_getCursor there): no
// file name to look up again (a system header's may be spelled
// "/../lib/gcc/x86_64-linux-gnu/12/../../../../include/c++/12/...").
CXSourceLocation cursor_location(const ASTContext &ctx, SourceLocation at);

// What declaration_of and decl_at found, per unit (a session's): a
// unit's questions share their chains' outer points and their
// expressions' declarations.
struct found_cache {
  const ASTContext *ctx = nullptr;
  std::unordered_map<const Expr *, const Decl *> of;
  std::unordered_map<SourceLocation::UIntTy, const Decl *> at;
  void use(const ASTContext &c) {
    if (ctx == &c) return;
    of.clear();
    at.clear();
    ctx = &c;
  }
};

// The unit's references to instantiated functions, by location and
// function: where libclang's cursor at a point of instantiation finds
// nothing (inside a macro expansion: Catch2's TEMPLATE_TEST_CASE expands
// to the templates that instantiate the test's body; a base initializer:
// std::shared_ptr's constructor calling __shared_ptr's), the reference
// there is looked up instead. Built once per unit (a session's), on the
// first such point.
struct ref_index {
  const ASTContext *ctx = nullptr;
  // The reference, and the declaration whose code holds it.
  std::map<std::pair<SourceLocation::UIntTy, const Decl *>, const Decl *> m;
  // The references to each implicit member (a copy constructor clang
  // defined), and the declarations whose code holds them.
  std::map<const Decl *, std::vector<std::pair<SourceLocation, const Decl *>>> implicit_uses;
};

// A traversal with the unit's parent map's settings (implicit code,
// instantiations) that keeps the declarations it is inside, innermost
// last; Derived's done() ends it.
template <class Derived>
struct decl_stack : RecursiveASTVisitor<Derived> {
  std::vector<const Decl *> inside;
  bool shouldVisitImplicitCode() const { return true; }
  bool shouldVisitTemplateInstantiations() const { return true; }
  bool done() const { return false; }
  bool TraverseDecl(Decl *d) {
    if (!d) return true;
    inside.push_back(d);
    bool go_on = RecursiveASTVisitor<Derived>::TraverseDecl(d);
    inside.pop_back();
    return go_on && !static_cast<Derived *>(this)->done();
  }
};

// The first node (outermost) of an instantiated body that has the
// pattern expression's source range [b, e] and is a T (finder: any
// expression; call_finder: a call, the call itself under what surrounds
// it). Found in decl by find(decl).
template <class T>
struct range_finder : RecursiveASTVisitor<range_finder<T>> {
  SourceLocation b, e;
  const T *found = nullptr;
  range_finder(SourceRange r) : b(r.getBegin()), e(r.getEnd()) {}
  bool shouldVisitImplicitCode() const { return true; }
  bool VisitExpr(Expr *x) {
    if (!found && isa<T>(x) && x->getBeginLoc() == b && x->getEndLoc() == e) found = cast<T>(x);
    return !found;
  }
  const T *find(const FunctionDecl *decl) {
    this->TraverseDecl(const_cast<FunctionDecl *>(decl));
    return found;
  }
};
using finder = range_finder<Expr>;
using call_finder = range_finder<CallExpr>;

// One entry of an instance's chain (instances.h).
struct link {
  std::string file;
  unsigned offset;
  char in_system, carries;
};

}  // namespace hl_ast

// What reading one unit remembers between its questions (instances.h):
// the declarations found around expressions and at points of
// instantiation, and the index of the unit's references, built on first
// need. Owned by the unit's arbiter (engine/inst/arbiter.c), one unit on
// one thread (clang's ASTContext is not for two).
struct hl_instances_session {
  hl_ast::found_cache found;
  hl_ast::ref_index refs;
};

namespace hl_ast {

// The function whose instantiations instantiate the expression: the
// innermost function around d that is not a lambda's call operator.
const FunctionDecl *holder(const Decl *d);

// The declaration whose code holds x (instances_find.cpp).
const Decl *declaration_of(hl_instances_session &s, ASTContext &ctx, const Expr *x);

// The instantiated definitions made from the pattern fd (with !defined,
// every specialization, defined or not). Returns false when fd is template
// code this does not follow (a member of a class local to a function template).
bool instantiations(const FunctionDecl *fd, std::vector<const FunctionDecl *> &out, bool defined = true);

// The expression as written, under what the instantiation added around it
// with the same source range.
const Expr *written(const Expr *x);

// What a conversion probe's proxy would become: the types it converts to.
// For each, the calls into library templates that led there (where each
// requested its specialization, outermost first): the probe parse's notes
// name them between the argument and the point of instantiation of the
// function that holds the call.
struct conversions {
  std::vector<QualType> to;
  std::vector<std::vector<SourceLocation>> frames;
  std::vector<SourceLocation> path;
  bool untold = false;
  const char *why = nullptr;
  // Whether a conversion where the value is now counts: in the call's copy
  // and in the library's templates, not in the code's own templates the
  // value is handed to (their conversions are their own probes').
  bool keep = true;
  // How many of the code's own templates the value went through: a
  // conversion beyond one is uncertain (instances.h).
  int own = 0;
  std::vector<char> uncertain;
  std::vector<char> inside;               // hl_instance's
  const char *const *wrappers = nullptr;  // hl_instances_of_conversion's
  size_t nwrappers = 0;
  bool wrapper(QualType t) const {
    const CXXRecordDecl *rd = t->getAsCXXRecordDecl();
    if (!rd) return false;
    if (!nwrappers) return true;
    std::string name = rd->getQualifiedNameAsString();
    if (name.compare(0, 10, "std::__1::") == 0) name.erase(5, 5);
    for (size_t i = 0; i < nwrappers; i++)
      if (name == wrappers[i]) return true;
    return false;
  }
  void add(ASTContext &ctx, QualType t, bool further = false) {
    // In the code's own template, a library class other than a wrapper
    // that may convert it further (taskflow's Node building its
    // std::variant handle from the callable): the conversion inside
    // would be the library's, and count.
    if (!keep && further && !wrapper(t)) fail("a library constructor that may convert it further");
    if (!keep) return;
    t = ctx.getCanonicalType(t.getNonReferenceType().getUnqualifiedType());
    for (size_t i = 0; i < to.size(); i++)
      if (to[i] == t) {
        if (!own) uncertain[i] = 0;
        inside[i] |= further;
        return;
      }
    to.push_back(t);
    frames.push_back(path);
    uncertain.push_back(own > 0);
    inside.push_back(further);
  }
  void fail(const char *w) {
    if (!untold) why = w;
    untold = true;
  }
};

// One entry of an instance's chain at l (instances_chain.cpp).
link link_at(const SourceManager &sm, SourceLocation l, char carries);

// The chain from the store at x in the specialization def outward (see
// instances.h); empty with *why when it cannot be followed.
std::vector<link> chain_of(hl_instances_session &s, CXTranslationUnit tu, ASTContext &ctx, const Expr *x,
                           const FunctionDecl *def, const std::string &type, const PrintingPolicy &pp,
                           const char **why);

// The argument k of the instantiated call c: converted to its parameter's
// type there, or followed into the template that deduces its parameter
// from it (instances_convert.cpp).
void into_call(ASTContext &ctx, const CallExpr *c, unsigned k, conversions &out, int depth);

// The instantiated argument with the pattern argument's source range
// among the call's, or -1.
int argument_index(const CallExpr *c, SourceRange r);

}  // namespace hl_ast

#endif
