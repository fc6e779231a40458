// instances_convert: what a call converts an argument to in each
// instantiation, following it into the library templates that deduce
// their parameter from it (instances.h, hl_instances_of_conversion).
#include <clang/AST/ASTContext.h>
#include <clang/AST/ASTLambda.h>
#include <clang/AST/DeclCXX.h>
#include <clang/AST/DeclTemplate.h>
#include <clang/AST/ExprCXX.h>
#include <clang/AST/ParentMapContext.h>
#include <clang/AST/RecursiveASTVisitor.h>
#include <clang/Basic/SourceManager.h>

#include <string>
#include <vector>

#include "engine/inst/instances_impl.hpp"

using namespace clang;
using namespace hl_ast;

namespace {

// Whether x is std::forward(v) or std::move(v): it passes v on.
bool passes_on(const Expr *x) {
  const auto *c = dyn_cast<CallExpr>(x);
  const FunctionDecl *f = c && c->getNumArgs() == 1 ? c->getDirectCallee() : nullptr;
  return f && f->isInStdNamespace() && f->getIdentifier() && (f->getName() == "forward" || f->getName() == "move");
}

// The parameter of fd's template pattern that fd's parameter j comes from
// (a pack's, for each of its elements), or null: fd is no specialization of
// a function template, or j is past the pattern's parameters. *mismatch:
// the pattern has no pack and another number of parameters than fd.
const ParmVarDecl *pattern_param(const FunctionDecl *fd, unsigned j, bool *mismatch) {
  *mismatch = false;
  const FunctionTemplateDecl *ft = fd->getPrimaryTemplate();
  if (!ft) return nullptr;
  const FunctionDecl *pat = ft->getTemplatedDecl();
  unsigned np = pat->getNumParams(), ns = fd->getNumParams(), pj = j;
  bool pack = false;
  for (unsigned i = 0; i < np; i++)
    if (pat->getParamDecl(i)->isParameterPack()) {
      pack = true;
      if (j >= i) pj = j < i + (ns - (np - 1)) ? i : j - (ns - np);
      break;
    }
  if (!pack && np != ns) {
    *mismatch = true;
    return nullptr;
  }
  return pj < np ? pat->getParamDecl(pj) : nullptr;
}

// A pack's element type pattern (Args &&... gives Args &&), else t.
QualType element_pattern(QualType t) {
  if (const auto *pe = t->getAs<PackExpansionType>()) return pe->getPattern();
  return t;
}

// Whether fd's parameter j is deduced from its argument as a bare T,
// const T & or T && (by value: a decay-copy of the argument itself).
bool deduced_bare(const FunctionDecl *fd, unsigned j) {
  bool mismatch;
  const ParmVarDecl *pp = pattern_param(fd, j, &mismatch);
  if (!pp) return false;
  QualType ppt = element_pattern(pp->getType());
  return ppt->isDependentType() && ppt.getNonReferenceType().getUnqualifiedType()->getAs<TemplateTypeParmType>();
}
void into_function(ASTContext &ctx, const FunctionDecl *fd, unsigned j, SourceLocation at, conversions &out, int depth);

// Where a call requests its callee's specialization: at the callee's name
// (o.f(x) at f, N::f(x) at f), an operator's at the operator.
SourceLocation callee_loc(const CallExpr *c) {
  const Expr *callee = c->getCallee() ? c->getCallee()->IgnoreImplicit() : nullptr;
  if (const auto *m = dyn_cast_or_null<MemberExpr>(callee)) return m->getMemberLoc();
  if (const auto *d = dyn_cast_or_null<DeclRefExpr>(callee)) return d->getLocation();
  return c->getExprLoc();
}

// Each use of the parameter pd in the body of a function the value was
// handed to (a library template: std::vector::emplace_back, construct_at):
// a construction from it, or a call it is passed on to.
struct param_uses : RecursiveASTVisitor<param_uses> {
  ASTContext *ctx;
  const FunctionDecl *fn;               // the template's definition
  std::vector<const ValueDecl *> vars;  // the parameter, and locals copied from it
  conversions *out;
  int depth;
  bool shouldVisitImplicitCode() const { return true; }
  bool tracked(const ValueDecl *d) const {
    for (const ValueDecl *v : vars)
      if (v == d) return true;
    return false;
  }
  // What one step up from x (the tracked reference r, or what passed it
  // on) to its parent does with the value: next (this step does not
  // say), climb (the parent passes it on), done (told), done_told (told
  // unless the conversions followed say untold), fail (a use this does
  // not follow).
  enum class step { next, climb, done, done_told, fail };

  bool VisitDeclRefExpr(DeclRefExpr *r) {
    if (!tracked(r->getDecl()) || out->untold) return !out->untold;
    // Up from the reference through what passes it on, to what uses it.
    const Expr *x = r;
    for (int i = 0; i < 32; i++) {
      DynTypedNodeList ps = ctx->getParents(*x);
      if (ps.empty()) break;
      step s = up_one(ps[0], x, r);
      if (s == step::climb) {
        x = ps[0].get<Expr>();
        continue;
      }
      if (s == step::done) return true;
      if (s == step::done_told) return !out->untold;
      break;
    }
    out->fail("a library template uses the value otherwise");
    return false;
  }

  step up_one(const DynTypedNode &n, const Expr *x, const DeclRefExpr *r) {
    step s = at_return_or_local(n, x);
    if (s == step::next) s = at_member_init(n, x, r);
    if (s != step::next) return s;
    const Expr *p = n.get<Expr>();
    if (!p) return step::fail;
    const auto *ic = dyn_cast<ImplicitCastExpr>(p);
    if (passes_through(p, ic, x)) return step::climb;
    if (const auto *ce = dyn_cast<CXXConstructExpr>(p)) return at_construct(ce, x);
    s = at_conversion_or_list(p, ic, x);
    if (s != step::next) return s;
    return at_other(p, x, r);
  }

  step at_return_or_local(const DynTypedNode &n, const Expr *x) {
    if (n.get<ReturnStmt>()) {
      // Returned: converted to the template's return type.
      out->add(*ctx, fn->getReturnType());
      return step::done;
    }
    if (const auto *vd = n.get<VarDecl>()) {
      // A local initialized from it: converted to its type, or a copy
      // of the value itself (a decay-copy) whose uses count as its own.
      QualType t = vd->getType().getNonReferenceType();
      if (ctx->hasSameUnqualifiedType(t, x->getType().getNonReferenceType())) {
        if (!tracked(vd)) vars.push_back(vd);
      } else {
        out->add(*ctx, t);
      }
      return step::done;
    }
    return step::next;
  }

  step at_member_init(const DynTypedNode &n, const Expr *x, const DeclRefExpr *r) {
    const CXXCtorInitializer *ci = nullptr;
    if (const auto *cd = n.get<CXXConstructorDecl>())  // the parent map's parent of an initializer's expression
      for (const CXXCtorInitializer *in : cd->inits())
        if (in->getInit() == x) ci = in;
    if (!ci) return step::next;
    // A member or base initialized from it (eventpp's MyInt(const T
    // value) : value(value)): converted to its type. A member of the
    // value's own class type is a copy, not followed.
    QualType t = ci->isAnyMemberInitializer() ? ci->getAnyMember()->getType()
                 : ci->isBaseInitializer()    ? QualType(ci->getBaseClass(), 0)
                                              : QualType();
    if (t.isNull() || (!x->getType()->isScalarType() &&
                       ctx->hasSameUnqualifiedType(t.getNonReferenceType(), r->getType().getNonReferenceType())))
      return step::fail;
    out->add(*ctx, t);
    return step::done;
  }

  // Whether the parent p (ic: as an implicit cast) hands x on as it is.
  static bool passes_through(const Expr *p, const ImplicitCastExpr *ic, const Expr *x) {
    return isa<ParenExpr>(p) || isa<MaterializeTemporaryExpr>(p) || isa<CXXBindTemporaryExpr>(p) ||
           (ic && (ic->getCastKind() == CK_NoOp || ic->getCastKind() == CK_LValueToRValue)) ||
           // The object seen as its base (eventpp's getEvent calling
           // event.getType(), a member of Event, on a MouseEvent).
           (ic && (ic->getCastKind() == CK_DerivedToBase || ic->getCastKind() == CK_UncheckedDerivedToBase)) ||
           (isa<ExplicitCastExpr>(p) && cast<ExplicitCastExpr>(p)->getTypeAsWritten()->isReferenceType() &&
            cast<ExplicitCastExpr>(p)->getCastKind() == CK_NoOp) ||
           (ic && ic->isPartOfExplicitCast()) || (ic && x->getType()->isScalarType() && p->getType()->isScalarType()) ||
           passes_on(p);
  }

  step at_construct(const CXXConstructExpr *ce, const Expr *x) {
    // A class of the code's own whose constructor takes the value
    // (taskflow's Node(std::in_place_type_t<Async>, C &&)): followed
    // into it. The library's classes (std::function, std::any) are
    // what the value converts to: their converting constructors take
    // no proxy.
    const CXXConstructorDecl *cd = ce->getConstructor();
    const SourceManager &sm = ctx->getSourceManager();
    if (copied_into_by_value(ce, x)) return step::climb;
    unsigned k = 0;
    while (k < ce->getNumArgs() && ce->getArg(k) != x) k++;
    if (cd && k < ce->getNumArgs() && !sm.isInSystemHeader(sm.getExpansionLoc(cd->getLocation())) &&
        !cd->isCopyOrMoveConstructor()) {
      into_function(*ctx, cd, k, ce->getLocation(), *out, depth + 1);
      return step::done_told;
    }
    // A library class whose constructor template takes the value as it
    // is (std::variant's converting constructor) may convert it further
    // inside, to one of its members (a std::function alternative):
    // said, so that only a conversion to a wrapper itself is taken.
    // An inheriting constructor (std::variant's bases' `using
    // _Base::_Base`) hands its arguments on implicitly, to the base's
    // constructor, maybe a template taking the value as it is.
    bool further = cd && k < ce->getNumArgs() && !cd->isCopyOrMoveConstructor() &&
                   (deduced_bare(cd, k) || cd->isInheritingConstructor());
    if (further && !cd->isInheritingConstructor() && !out->wrapper(ce->getType()) && told_inside(ce, k))
      return step::done;
    out->add(*ctx, ce->getType(), further);
    return step::done;
  }

  // The value copied into a by-value parameter of a constructor (libc++'s
  // std::function(_Fp)): that constructor is the use, not this copy.
  bool copied_into_by_value(const CXXConstructExpr *ce, const Expr *x) {
    const CXXConstructorDecl *cd = ce->getConstructor();
    DynTypedNodeList gs = ctx->getParents(*ce);
    const auto *outer = gs.empty() ? nullptr : gs[0].get<CXXConstructExpr>();
    if (!(cd && cd->isCopyOrMoveConstructor() && outer && outer->getConstructor() &&
          ctx->hasSameUnqualifiedType(ce->getType(), x->getType().getNonReferenceType())))
      return false;
    unsigned k = 0;
    while (k < outer->getNumArgs() && outer->getArg(k) != ce) k++;
    return k < outer->getNumArgs() && deduced_bare(outer->getConstructor(), k);
  }

  // Followed into the library constructor of ce first (std::tuple's
  // constructor handing the value through its bases to its element's
  // member initializer, eventpp's queued arguments): what it converts the
  // value to there, where that is told, is something, and is no other
  // library class that may convert it further in turn (std::variant's
  // storage, built by an inheriting constructor and a union of its
  // alternatives). Else *out as it was.
  bool told_inside(const CXXConstructExpr *ce, unsigned k) {
    conversions was = *out;
    into_function(*ctx, ce->getConstructor(), k, ce->getLocation(), *out, depth + 1);
    bool told = !out->untold && out->to.size() > was.to.size();
    for (size_t n = 0; told && n < out->to.size(); n++)
      if (out->inside[n] && (n >= was.inside.size() || !was.inside[n]) && !out->wrapper(out->to[n])) told = false;
    if (!told) *out = was;
    return told;
  }

  step at_conversion_or_list(const Expr *p, const ImplicitCastExpr *ic, const Expr *x) {
    if (ic && (ic->getCastKind() == CK_UserDefinedConversion || ic->getCastKind() == CK_ConstructorConversion)) {
      out->add(*ctx, ic->getType());
      return step::done;
    }
    const auto *il = dyn_cast<InitListExpr>(p);
    if (!il) return step::next;
    // An element of an aggregate (list::sort's _Ptr_cmp{__comp}):
    // converted to that element's type.
    QualType et;
    if (const ArrayType *at = ctx->getAsArrayType(il->getType())) et = at->getElementType();
    const CXXRecordDecl *rd = il->getType()->getAsCXXRecordDecl();
    if (rd && !rd->getNumBases()) {
      // (x may be in the list's other form, syntactic or semantic.)
      const InitListExpr *forms[] = {il, il->getSyntacticForm(), il->getSemanticForm()};
      unsigned k = ~0u;
      for (const InitListExpr *f : forms)
        for (unsigned n = 0; f && k == ~0u && n < f->getNumInits(); n++)
          if (f->getInit(n) == x || (f->getInit(n) && f->getInit(n)->IgnoreImplicit() == x->IgnoreImplicit())) k = n;
      for (const FieldDecl *f : rd->fields())
        if (k-- == 0) {
          et = f->getType();
          break;
        }
    }
    if (et.isNull()) return step::fail;
    out->add(*ctx, et);
    return step::done;
  }

  step at_other(const Expr *p, const Expr *x, const DeclRefExpr *r) {
    // Cast to another type (CLI11's static_cast<underlying_type<E>>(e)):
    // converted to it. A class type is built by a construction under the
    // cast, met above; a cast to its own type is a copy, not followed.
    if (const auto *ec = dyn_cast<ExplicitCastExpr>(p)) {
      if (ctx->hasSameUnqualifiedType(ec->getType().getNonReferenceType(), r->getType().getNonReferenceType()))
        return step::fail;
      out->add(*ctx, ec->getType());
      return step::done;
    }
    // An operand of a built-in operator (a scalar's arithmetic): made
    // into no other type.
    if ((isa<BinaryOperator>(p) || isa<UnaryOperator>(p)) && x->getType()->isScalarType()) return step::done;
    // Called, or a member of it used: the proxy has neither, its copy
    // of the call does not compile there and converts nothing.
    if (isa<MemberExpr>(p)) return step::done;
    // Captured by reference (a by-copy capture's init is a construction
    // or a cast): the lambda's body uses the variable itself, met on
    // its own in this walk.
    if (isa<LambdaExpr>(p)) return step::done;
    if (const auto *c = dyn_cast<CallExpr>(p)) {
      if (c->getCallee() == x) return step::done;
      for (unsigned k = 0; k < c->getNumArgs(); k++)
        if (c->getArg(k) == x) {
          into_call(*ctx, c, k, *out, depth + 1);
          return step::done_told;
        }
    }
    return step::fail;
  }
};

}  // namespace

namespace hl_ast {

// The argument k of the instantiated call c: converted to its parameter's
// type there, or, handed to a template that deduces its parameter from it,
// followed into that template's body (conversions there count only in
// the library's templates: one in a template of the code's own is that
// template's own probe's, as the probe parse drops it there).
void into_call(ASTContext &ctx, const CallExpr *c, unsigned k, conversions &out, int depth) {
  if (depth > 12) return out.fail("a library template passes the value on too deep");
  const FunctionDecl *fd = c->getDirectCallee();
  if (!fd) {
    // Through a pointer to a function: converted to its parameter's type.
    QualType ct = c->getCallee() ? c->getCallee()->getType() : QualType();
    if (!ct.isNull() && ct->isPointerType()) ct = ct->getPointeeType();
    const auto *fpt = ct.isNull() ? nullptr : ct->getAs<FunctionProtoType>();
    if (!fpt) return out.fail("a call through something other than a function");
    if (k >= fpt->getNumParams()) return out.fail("the value goes to a C variadic parameter");
    QualType pt = fpt->getParamType(k);
    if (!(pt->isLValueReferenceType() && !pt.getNonReferenceType().isConstQualified())) out.add(ctx, pt);
    return;
  }
  unsigned j = k;
  if (const auto *oc = dyn_cast<CXXOperatorCallExpr>(c);
      oc && isa<CXXMethodDecl>(fd) && !cast<CXXMethodDecl>(fd)->isStatic()) {
    if (k == 0) return;  // the operator's object: the proxy has no such member
    j = k - 1;
  }
  into_function(ctx, fd, j, callee_loc(c), out, depth);
}

}  // namespace hl_ast

namespace {

// The same for the parameter j of fd, called from at.
void into_function(ASTContext &ctx, const FunctionDecl *fd, unsigned j, SourceLocation at, conversions &out,
                   int depth) {
  if (depth > 12) return out.fail("a library template passes the value on too deep");
  if (j >= fd->getNumParams()) return out.fail("the value goes to a C variadic parameter");
  QualType pt = fd->getParamDecl(j)->getType();
  // Deduced from the argument: the pattern's parameter is dependent.
  bool deduced = false, mismatch;
  if (const ParmVarDecl *pp = pattern_param(fd, j, &mismatch)) {
    QualType ppt = pp->getType();
    deduced = ppt->isDependentType();
    // Deduced from a form the proxy cannot match (const basic_string<C,
    // T, A> &, shared_ptr<T> &): that candidate takes no proxy, and the
    // argument itself is not converted there. Nor can a proxy, an
    // rvalue, bind a deduced T & (std::swap).
    ppt = element_pattern(ppt);
    QualType bare = ppt.getNonReferenceType();
    if (deduced && (!bare.getUnqualifiedType()->getAs<TemplateTypeParmType>() ||
                    (ppt->isLValueReferenceType() && !bare.isConstQualified())))
      return;
  } else if (mismatch) {
    return out.fail("a call whose parameters do not match its template's");
  }
  if (!deduced) {
    QualType t = pt.getNonReferenceType();
    // A non-const lvalue reference takes no converted temporary.
    if (pt->isLValueReferenceType() && !t.isConstQualified()) return;
    out.add(ctx, t);
    return;
  }
  const SourceManager &sm = ctx.getSourceManager();
  const FunctionDecl *def = nullptr;
  if (!fd->isDefined(def) || !def || !def->getBody()) return out.fail("a template without a body here");
  bool kept = out.keep;
  out.keep = sm.isInSystemHeader(sm.getExpansionLoc(def->getLocation()));
  out.own += !out.keep;
  out.path.push_back(at);
  param_uses u;
  // Its parents from a map of def's code alone: the unit's map walks the
  // whole unit, headers and instantiations (a tenth of a CLI11 unit's
  // analysis). Set back on the way out (a use in def passed on to another
  // function maps that one's code meanwhile).
  struct scope {
    ASTContext &ctx;
    std::vector<Decl *> was;
    scope(ASTContext &c, const FunctionDecl *fd) : ctx(c), was(c.getTraversalScope()) {
      ctx.setTraversalScope({const_cast<FunctionDecl *>(fd)});
    }
    ~scope() { ctx.setTraversalScope(was); }
  } in_def(ctx, def);
  u.ctx = &ctx;
  u.fn = def;
  u.vars.push_back(def->getParamDecl(j));
  u.out = &out;
  u.depth = depth;
  // A constructor's member initializers use it too, before its body.
  if (const auto *cd = dyn_cast<CXXConstructorDecl>(def))
    for (const CXXCtorInitializer *ci : cd->inits())
      if (ci->isWritten() && ci->getInit()) u.TraverseStmt(ci->getInit());
  u.TraverseStmt(def->getBody());
  out.path.pop_back();
  out.own -= !out.keep;
  out.keep = kept;
}

}  // namespace

namespace hl_ast {

// The instantiated argument with the pattern argument's source range
// among the call's, or -1.
int argument_index(const CallExpr *c, SourceRange r) {
  for (unsigned k = 0; k < c->getNumArgs(); k++)
    if (written(c->getArg(k))->getSourceRange() == r || c->getArg(k)->getSourceRange() == r) return (int)k;
  return -1;
}

}  // namespace hl_ast
