// instances_find: where a pattern's instantiations are (instances.h's
// AST backend): the function holding an expression, the declaration
// around it, the specializations made from a function or class template
// (nested and member classes, friends), and the expression as written in
// each.

#include <clang/AST/ASTContext.h>
#include <clang/AST/ASTLambda.h>
#include <clang/AST/DeclCXX.h>
#include <clang/AST/DeclTemplate.h>
#include <clang/AST/ExprCXX.h>
#include <clang/AST/ParentMapContext.h>
#include <clang/AST/RecursiveASTVisitor.h>
#include <clang/Basic/SourceManager.h>

#include <vector>

#include "engine/inst/instances_impl.hpp"

using namespace clang;

namespace {

using namespace hl_ast;

// The innermost declaration around the node target in the code under the
// declarations traversed, as the unit's parent map has it.
struct decl_finder : decl_stack<decl_finder> {
  const Stmt *target = nullptr;
  const Decl *found = nullptr;
  bool done() const { return found; }
  bool VisitStmt(Stmt *s) {
    if (s == target && !inside.empty()) found = inside.back();
    return !found;
  }
};

// The declaration whose code holds x (a cursor made without its parent
// declaration), from the unit's parent map. Building that map walks the
// whole unit, its headers' code and every instantiation (a tenth of a
// unit's analysis on CLI11): declaration_of asks it only when x is not in
// the declarations whose text holds x's place.
const Decl *declaration_of_in(ASTContext &ctx, const Expr *x) {
  DynTypedNode n = DynTypedNode::create(*x);
  for (int depth = 0; depth < 256; depth++) {
    DynTypedNodeList ps = ctx.getParents(n);
    if (ps.empty()) return nullptr;
    if (const Decl *d = ps[0].get<Decl>()) return d;
    n = ps[0];
  }
  return nullptr;
}

// Searches the declarations of dc whose text holds at, outermost first,
// for the one around x: a function (with its instantiations), a variable
// or field (its initializer), or inside a namespace, class or linkage
// specification.
const Decl *declaration_under(const SourceManager &sm, const DeclContext *dc, SourceLocation at, const Expr *x,
                              int depth) {
  if (depth > 32) return nullptr;
  for (Decl *d : dc->decls()) {
    if (d->isImplicit()) continue;
    SourceRange r = d->getSourceRange();
    if (r.isInvalid()) continue;
    CharSourceRange e = sm.getExpansionRange(r);
    if (sm.isBeforeInTranslationUnit(at, e.getBegin())) continue;
    if (sm.isBeforeInTranslationUnit(e.getEnd(), at)) {
      // A function declared without a body ends at its name, before a
      // trailing return type.
      const auto *dd = dyn_cast<DeclaratorDecl>(d->getAsFunction() ? d->getAsFunction() : d);
      const TypeSourceInfo *ts = dd ? dd->getTypeSourceInfo() : nullptr;
      SourceLocation te = ts ? ts->getTypeLoc().getEndLoc() : SourceLocation();
      if (te.isInvalid() || sm.isBeforeInTranslationUnit(sm.getExpansionRange(te).getEnd(), at)) continue;
    }
    // A friend defined in a class: the function (or function template).
    if (const auto *fr = dyn_cast<FriendDecl>(d))
      if (NamedDecl *nd = fr->getFriendDecl()) d = nd;
    if (const auto *ft = dyn_cast<FunctionTemplateDecl>(d))
      d = ft->getTemplatedDecl();
    else if (const auto *ct = dyn_cast<ClassTemplateDecl>(d))
      d = ct->getTemplatedDecl();
    if (const auto *fd = dyn_cast<FunctionDecl>(d)) {
      std::vector<Decl *> roots;
      roots.push_back(const_cast<FunctionDecl *>(fd));
      // Its specializations (a traversal of the template visits them only
      // from its first declaration).
      if (FunctionTemplateDecl *ft = fd->getDescribedFunctionTemplate())
        for (FunctionDecl *spec : ft->specializations()) roots.push_back(spec);
      std::vector<const FunctionDecl *> defs;
      // A member of a class template: the members of its specializations
      // (declared only too: x may be in a declaration's type).
      if (fd->getDeclContext()->isDependentContext() && instantiations(fd, defs, false))
        for (const FunctionDecl *def : defs) roots.push_back(const_cast<FunctionDecl *>(def));
      for (Decl *root : roots) {
        decl_finder f;
        f.target = x;
        f.TraverseDecl(root);
        if (f.found) return f.found;
      }
    } else if (isa<VarDecl>(d) || isa<FieldDecl>(d)) {
      decl_finder f;
      f.target = x;
      f.TraverseDecl(d);
      if (f.found) return f.found;
    } else if (isa<NamespaceDecl>(d) || isa<CXXRecordDecl>(d) || isa<LinkageSpecDecl>(d) || isa<ExportDecl>(d)) {
      if (const Decl *in = declaration_under(sm, cast<DeclContext>(d), at, x, depth + 1)) return in;
    }
  }
  return nullptr;
}

// The class template whose specializations instantiate rd's members: its
// own, or the one it partially specializes. Null for a class that is not
// one (a class nested in a class template, local to a function template).
ClassTemplateDecl *class_template_of(const CXXRecordDecl *rd) {
  if (rd->getDeclContext()->isDependentContext()) return nullptr;
  if (const auto *ps = dyn_cast<ClassTemplatePartialSpecializationDecl>(rd)) return ps->getSpecializedTemplate();
  return rd->getDescribedClassTemplate();
}

// The instantiated definitions of the class rd's code: a class template's
// specializations, or, for a class nested in one (eventpp's
// CallbackList<...>::Node), the member classes instantiated from it in
// each specialization of the class around it (of a member class template,
// their specializations). False for a class this does not follow (local
// to a function template, a partial specialization of a member template).
bool record_instances(const CXXRecordDecl *rd, std::vector<const CXXRecordDecl *> &out, int depth = 0) {
  if (depth > 8) return false;
  if (ClassTemplateDecl *ct = class_template_of(rd)) {
    for (ClassTemplateSpecializationDecl *spec : ct->specializations())
      if (spec->hasDefinition()) out.push_back(spec);
    return true;
  }
  const auto *outer = dyn_cast<CXXRecordDecl>(rd->getDeclContext());
  if (!outer || !rd->getDeclContext()->isDependentContext() || isa<ClassTemplatePartialSpecializationDecl>(rd))
    return false;
  std::vector<const CXXRecordDecl *> outers;
  if (!record_instances(outer, outers, depth + 1)) return false;
  // A member class template (eventpp's HomoCallbackListType<T> in
  // HeterCallbackList<...>): each outer specialization's, then its
  // specializations.
  const ClassTemplateDecl *mt = rd->getDescribedClassTemplate();
  const Decl *canon = mt ? static_cast<const Decl *>(mt->getCanonicalDecl()) : rd->getCanonicalDecl();
  for (const CXXRecordDecl *o : outers)
    for (const Decl *m : o->decls()) {
      if (mt) {
        const auto *ct = dyn_cast<ClassTemplateDecl>(m);
        const ClassTemplateDecl *from = ct ? ct->getInstantiatedFromMemberTemplate() : nullptr;
        if (from && from->getCanonicalDecl() == canon)
          for (ClassTemplateSpecializationDecl *spec : const_cast<ClassTemplateDecl *>(ct)->specializations())
            if (spec->hasDefinition()) out.push_back(spec);
        continue;
      }
      const auto *mr = dyn_cast<CXXRecordDecl>(m);
      const CXXRecordDecl *from = mr ? mr->getInstantiatedFromMemberClass() : nullptr;
      if (from && from->getCanonicalDecl() == canon && mr->hasDefinition()) out.push_back(mr->getDefinition());
    }
  return true;
}

}  // namespace

namespace hl_ast {

// The function whose instantiations instantiate the expression: the
// innermost function around it that is not a lambda's call operator (a
// lambda's body is instantiated with the function that holds it).
const FunctionDecl *holder(const Decl *d) {
  const DeclContext *dc = isa<DeclContext>(d) ? cast<DeclContext>(d) : d->getDeclContext();
  for (; dc; dc = dc->getParent()) {
    const auto *fd = dyn_cast<FunctionDecl>(dc);
    if (fd && !isLambdaCallOperator(fd)) return fd;
  }
  return nullptr;
}
// The declaration whose code holds x: the innermost one whose text holds
// x's place, else from the unit's parent map; remembered in the session.
const Decl *declaration_of(hl_instances_session &s, ASTContext &ctx, const Expr *x) {
  s.found.use(ctx);
  auto it = s.found.of.find(x);
  if (it != s.found.of.end()) return it->second;
  const SourceManager &sm = ctx.getSourceManager();
  SourceLocation at = sm.getExpansionLoc(x->getBeginLoc());
  const Decl *d = declaration_under(sm, ctx.getTranslationUnitDecl(), at, x, 0);
  if (!d) d = declaration_of_in(ctx, x);
  s.found.of.emplace(x, d);
  return d;
}

// The instantiated definitions made from the pattern fd (with !defined,
// every specialization, defined or not). Returns false
// when fd is template code this does not follow (a member of a class
// local to a function template).
bool instantiations(const FunctionDecl *fd, std::vector<const FunctionDecl *> &out, bool defined) {
  auto add = [&](const FunctionDecl *s) {
    const FunctionDecl *def = nullptr;
    if (!defined)
      out.push_back(s);
    else if (s->isTemplateInstantiation() && s->isDefined(def) && def && def->getBody())
      out.push_back(def);
  };
  FunctionTemplateDecl *ft = fd->getDescribedFunctionTemplate();
  if (ft && !ft->getDeclContext()->isDependentContext()) {
    for (FunctionDecl *s : ft->specializations()) add(s);
    return true;
  }
  // A friend defined in a class template is instantiated with the class:
  // its lexical context is the class.
  const auto *rd =
      dyn_cast<CXXRecordDecl>(fd->getFriendObjectKind() ? fd->getLexicalDeclContext() : fd->getDeclContext());
  std::vector<const CXXRecordDecl *> recs;
  if (!rd || !record_instances(rd, recs)) return false;
  const Decl *canon = ft ? static_cast<const Decl *>(ft->getCanonicalDecl()) : fd->getCanonicalDecl();
  for (const CXXRecordDecl *spec : recs) {
    for (const Decl *m : spec->decls()) {
      if (const auto *fr = dyn_cast<FriendDecl>(m)) m = fr->getFriendDecl();
      if (!m) continue;
      if (ft) {
        // A member function template: the specialization's own, then its specializations.
        const auto *mt = dyn_cast<FunctionTemplateDecl>(m);
        const FunctionTemplateDecl *from = mt ? mt->getInstantiatedFromMemberTemplate() : nullptr;
        if (from && from->getCanonicalDecl() == canon)
          for (FunctionDecl *s : const_cast<FunctionTemplateDecl *>(mt)->specializations()) add(s);
        continue;
      }
      const auto *sm = dyn_cast<FunctionDecl>(m);
      const FunctionDecl *from = sm ? sm->getInstantiatedFromMemberFunction() : nullptr;
      if (from && from->getCanonicalDecl() == canon) add(sm);
    }
  }
  return true;
}

// The expression as written, under what the instantiation added around it
// with the same source range: conversions (to the parameter's type, a
// std::function built from it), temporaries, the full expression.
const Expr *written(const Expr *x) {
  for (;;) {
    SourceRange r = x->getSourceRange();
    const Expr *in = nullptr;
    if (const auto *c = dyn_cast<ImplicitCastExpr>(x))
      in = c->getSubExpr();
    else if (const auto *m = dyn_cast<MaterializeTemporaryExpr>(x))
      in = m->getSubExpr();
    else if (const auto *b = dyn_cast<CXXBindTemporaryExpr>(x))
      in = b->getSubExpr();
    else if (const auto *fe = dyn_cast<FullExpr>(x))
      in = fe->getSubExpr();
    else if (const auto *ce = dyn_cast<CXXConstructExpr>(x)) {
      if (!isa<CXXTemporaryObjectExpr>(ce) && ce->getNumArgs() >= 1 && ce->getArg(0)->getSourceRange() == r)
        in = ce->getArg(0);
    } else if (const auto *mc = dyn_cast<CXXMemberCallExpr>(x)) {
      if (isa_and_nonnull<CXXConversionDecl>(mc->getMethodDecl()) && mc->getImplicitObjectArgument() &&
          mc->getImplicitObjectArgument()->getSourceRange() == r)
        in = mc->getImplicitObjectArgument();
    }
    if (!in) return x;
    x = in;
  }
}

}  // namespace hl_ast
