// instances_impl: what engine/instances' two files share (C++ only):
// the instantiations of a pattern, an expression as written, and the
// conversions a call makes of an argument (instances_convert.cpp).
#ifndef HEAPLINT_INSTANCES_IMPL_HPP
#define HEAPLINT_INSTANCES_IMPL_HPP

#include <clang/AST/ASTContext.h>
#include <clang/AST/Decl.h>
#include <clang/AST/Expr.h>

#include <cstddef>
#include <string>
#include <vector>

namespace hl_ast {

using namespace clang;

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

// The argument k of the instantiated call c: converted to its parameter's
// type there, or followed into the template that deduces its parameter
// from it (instances_convert.cpp).
void into_call(ASTContext &ctx, const CallExpr *c, unsigned k, conversions &out, int depth);

// The instantiated argument with the pattern argument's source range
// among the call's, or -1.
int argument_index(const CallExpr *c, SourceRange r);

}  // namespace hl_ast

#endif
