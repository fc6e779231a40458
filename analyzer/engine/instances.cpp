// instances: a template's instantiations from clang's AST (instances.h).
//
// A cursor libclang hands out holds clang's own objects: an expression's
// cursor the Stmt (data[1]) and the declaration it was found under
// (data[0]). libclang-cpp, the same clang as libclang (checked in
// hl_instances_usable), reads them: which function template or class
// template member holds the expression, the specializations clang
// instantiated from it, and in each the node built from the expression
// (same source range). Read only: nothing here declares, instantiates or
// changes anything in the unit.
#include "engine/instances.h"

#include <clang-c/Index.h>
#include <clang/AST/ASTContext.h>
#include <clang/AST/ASTLambda.h>
#include <clang/AST/DeclCXX.h>
#include <clang/AST/DeclTemplate.h>
#include <clang/AST/ExprCXX.h>
#include <clang/AST/ParentMapContext.h>
#include <clang/AST/RecursiveASTVisitor.h>
#include <clang/Basic/SourceManager.h>
#include <clang/Basic/Version.h>

#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

using namespace clang;

namespace {

char *dup(const std::string &s) {
  char *p = static_cast<char *>(std::malloc(s.size() + 1));
  if (!p) std::abort();
  std::memcpy(p, s.c_str(), s.size() + 1);
  return p;
}

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

// The declaration whose code holds x (a cursor made without its parent
// declaration), from the unit's parent map.
const Decl *declaration_of(CXCursor tu, const Expr *x) {
  const auto *tud = static_cast<const Decl *>(tu.data[0]);
  if (!tud) return nullptr;
  ASTContext &ctx = tud->getASTContext();
  DynTypedNode n = DynTypedNode::create(*x);
  for (int depth = 0; depth < 256; depth++) {
    DynTypedNodeList ps = ctx.getParents(n);
    if (ps.empty()) return nullptr;
    if (const Decl *d = ps[0].get<Decl>()) return d;
    n = ps[0];
  }
  return nullptr;
}

// The class template whose specializations instantiate rd's members: its
// own, or the one it partially specializes. Null for a class this does not
// follow (nested in a class template, local to a function template).
ClassTemplateDecl *class_template_of(const CXXRecordDecl *rd) {
  if (rd->getDeclContext()->isDependentContext()) return nullptr;
  if (const auto *ps = dyn_cast<ClassTemplatePartialSpecializationDecl>(rd)) return ps->getSpecializedTemplate();
  return rd->getDescribedClassTemplate();
}

// The instantiated definitions made from the pattern fd. Returns false
// when fd is template code this does not follow (a member of a class nested
// in a class template or local to a function template).
bool instantiations(const FunctionDecl *fd, std::vector<const FunctionDecl *> &out) {
  auto add = [&](const FunctionDecl *s) {
    const FunctionDecl *def = nullptr;
    if (s->isTemplateInstantiation() && s->isDefined(def) && def && def->getBody()) out.push_back(def);
  };
  FunctionTemplateDecl *ft = fd->getDescribedFunctionTemplate();
  if (ft && !ft->getDeclContext()->isDependentContext()) {
    for (FunctionDecl *s : ft->specializations()) add(s);
    return true;
  }
  const auto *rd = dyn_cast<CXXRecordDecl>(fd->getDeclContext());
  ClassTemplateDecl *ct = rd ? class_template_of(rd) : nullptr;
  if (!ct) return false;
  const Decl *canon = ft ? static_cast<const Decl *>(ft->getCanonicalDecl()) : fd->getCanonicalDecl();
  for (ClassTemplateSpecializationDecl *spec : ct->specializations()) {
    if (!spec->hasDefinition()) continue;
    for (const Decl *m : spec->decls()) {
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

// The first node (outermost) of an instantiated body that has the
// pattern expression's source range.
struct finder : RecursiveASTVisitor<finder> {
  SourceLocation b, e;
  const Expr *found = nullptr;
  bool shouldVisitImplicitCode() const { return true; }
  bool VisitExpr(Expr *x) {
    if (!found && x->getBeginLoc() == b && x->getEndLoc() == e) found = x;
    return !found;
  }
};

// The expression as written, under what the instantiation added around it
// with the same source range: conversions (to the parameter's type, a
// std::function built from it), temporaries, the full expression.
const Expr *written(const Expr *x) {
  for (;;) {
    SourceRange r = x->getSourceRange();
    const Expr *in = nullptr;
    if (const auto *c = dyn_cast<ImplicitCastExpr>(x)) in = c->getSubExpr();
    else if (const auto *m = dyn_cast<MaterializeTemporaryExpr>(x)) in = m->getSubExpr();
    else if (const auto *b = dyn_cast<CXXBindTemporaryExpr>(x)) in = b->getSubExpr();
    else if (const auto *fe = dyn_cast<FullExpr>(x)) in = fe->getSubExpr();
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

// The type as the probe's error names it: the template argument a
// forwarding reference deduces from x (T & for an lvalue), printed as clang
// prints it, then with a trailing & and a leading const taken off.
std::string spelled(ASTContext &ctx, const Expr *x, const PrintingPolicy &pp) {
  QualType t = x->getType().getNonReferenceType().getCanonicalType();
  if (x->isLValue()) t = ctx.getLValueReferenceType(t);
  std::string s = t.getAsString(pp);
  while (!s.empty() && (s.back() == '&' || s.back() == ' ')) s.pop_back();
  if (s.compare(0, 6, "const ") == 0) s.erase(0, 6);
  return s;
}

int nothrow_ctor(ASTContext &ctx, QualType t, bool move, int depth);

// A closure's (or a plain aggregate's) implicit copy or move: nothrow when
// every field's is.
int fields_nothrow(ASTContext &ctx, const CXXRecordDecl *rd, bool move, int depth) {
  if (rd->getNumBases()) return -1;
  int all = 1;
  for (const FieldDecl *f : rd->fields()) {
    QualType ft = f->getType();
    if (ft->isReferenceType()) continue;
    int v = nothrow_ctor(ctx, ft, move, depth + 1);
    if (v <= 0) return v;
  }
  return all;
}

// Whether t is nothrow copy (or move) constructible: 1, 0, or -1 when
// only overload resolution would tell.
int nothrow_ctor(ASTContext &ctx, QualType t, bool move, int depth) {
  if (depth > 16) return -1;
  t = t.getCanonicalType();
  if (t->isScalarType() || t->isReferenceType()) return 1;
  if (const ArrayType *a = ctx.getAsArrayType(t)) return nothrow_ctor(ctx, a->getElementType(), move, depth + 1);
  const CXXRecordDecl *rd = t->getAsCXXRecordDecl();
  if (!rd || !rd->hasDefinition()) return -1;
  rd = rd->getDefinition();
  const CXXConstructorDecl *chosen = nullptr;
  for (const CXXConstructorDecl *c : rd->ctors()) {
    unsigned quals = 0;
    if (move ? c->isMoveConstructor(quals) : c->isCopyConstructor(quals)) {
      // const T & for a copy (a T & one cannot take a const lvalue), T && for a move.
      if ((!move && !(quals & Qualifiers::Const)) || (quals & Qualifiers::Volatile)) continue;
      chosen = c;
    }
  }
  bool trivial = move ? rd->hasTrivialMoveConstructor() : rd->hasTrivialCopyConstructor();
  if (chosen) {
    if (chosen->isDeleted()) return 0;
    const auto *fpt = chosen->getType()->getAs<FunctionProtoType>();
    if (fpt && !isUnresolvedExceptionSpec(fpt->getExceptionSpecType())) return fpt->isNothrow() ? 1 : 0;
    if (!chosen->isImplicit()) return -1;
  } else if (move ? !rd->needsImplicitMoveConstructor() : !rd->needsImplicitCopyConstructor()) {
    // No move constructor, none to come: a move copies (a const T & copy).
    return move ? nothrow_ctor(ctx, t, false, depth + 1) : -1;
  }
  // An implicit one, declared or not yet: trivial, or a closure's member-wise one.
  if (trivial) return 1;
  if (rd->isLambda()) return fields_nothrow(ctx, rd, move, depth);
  return -1;
}

}  // namespace

extern "C" int hl_instances_usable(void) {
  // A function-local static is initialized once, thread-safely: units are
  // analyzed on several threads.
  static const int usable = [] {
    CXString v = clang_getClangVersion();
    int same = getClangFullVersion() == clang_getCString(v);
    clang_disposeString(v);
    return same;
  }();
  return usable;
}

extern "C" const char *hl_instances_status(void) {
  return hl_instances_usable() ? "instances: read from clang's AST (libclang-cpp, the same clang)"
                               : "instances: not read (libclang-cpp is another clang than libclang)";
}

extern "C" long hl_instances_of_expr(CXCursor e, hl_instance **out, const char **why) {
  *out = nullptr;
  *why = "libclang-cpp is not the same clang as libclang";
  if (!hl_instances_usable()) return -1;
  *why = "not an expression";
  if (!clang_isExpression(clang_getCursorKind(e)) || !e.data[1]) return -1;
  const Expr *pattern = dyn_cast<Expr>(static_cast<const Stmt *>(e.data[1]));
  if (!pattern) return -1;
  const Decl *parent = static_cast<const Decl *>(e.data[0]);
  if (!parent) parent = declaration_of(clang_getTranslationUnitCursor(clang_Cursor_getTranslationUnit(e)), pattern);
  *why = "not in a function";
  if (!parent) return -1;
  const FunctionDecl *fd = holder(parent);
  std::vector<const FunctionDecl *> defs;
  *why = "not in a function";
  if (!fd) return -1;
  *why = "in template code whose instantiations are not followed";
  if (!instantiations(fd, defs)) return -1;
  ASTContext &ctx = fd->getASTContext();
  SourceManager &sm = ctx.getSourceManager();
  PrintingPolicy pp(ctx.getLangOpts());
  std::vector<hl_instance> v;
  bool ok = true;
  for (const FunctionDecl *def : defs) {
    finder f;
    f.b = pattern->getBeginLoc();
    f.e = pattern->getEndLoc();
    f.TraverseDecl(const_cast<FunctionDecl *>(def));
    if (!f.found) continue;  // not instantiated there (a discarded if constexpr branch)
    const Expr *x = written(f.found);
    QualType t = x->getType().getNonReferenceType();
    if (t->isDependentType() || t->isIncompleteType()) {
      *why = "a type without a layout";
      ok = false;
      break;
    }
    QualType u = t.getUnqualifiedType();
    hl_instance h{};
    h.type = dup(spelled(ctx, x, pp));
    h.size = (long)ctx.getTypeSizeInChars(u).getQuantity();
    h.align = (long)ctx.getTypeAlignInChars(u).getQuantity();
    h.trivially_copyable = u.isTriviallyCopyableType(ctx) ? 1 : 0;
    h.nothrow_copy = nothrow_ctor(ctx, u, false, 0);
    h.nothrow_move = nothrow_ctor(ctx, u, true, 0);
    SourceLocation poi = def->getPointOfInstantiation();
    if (poi.isValid()) {
      FullSourceLoc fl(sm.getFileLoc(poi), sm);
      OptionalFileEntryRef fe = sm.getFileEntryRefForID(fl.getFileID());
      h.poi_file = dup(fe ? std::string(fe->getName()) : std::string());
      h.poi_offset = fl.getFileOffset();
    }
    v.push_back(h);
  }
  if (!ok) {
    for (hl_instance &h : v) {
      std::free(h.type);
      std::free(h.poi_file);
    }
    return -1;
  }
  if (v.empty()) return 0;
  *out = static_cast<hl_instance *>(std::malloc(v.size() * sizeof **out));
  if (!*out) std::abort();
  std::memcpy(*out, v.data(), v.size() * sizeof **out);
  return (long)v.size();
}

extern "C" void hl_instances_free(hl_instance *v, long n) {
  for (long i = 0; i < n; i++) {
    std::free(v[i].type);
    std::free(v[i].poi_file);
  }
  std::free(v);
}
