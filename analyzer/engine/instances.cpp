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
#include <map>
#include <string>
#include <unordered_map>
#include <vector>

#include "engine/instances_impl.hpp"

using namespace clang;
using namespace hl_ast;

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

// What declaration_of and decl_at found, per unit and thread: a unit's
// probes share their chains' outer points and their expressions'
// declarations (hl_instances_forget drops it).
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
thread_local found_cache found;

const Decl *declaration_of(ASTContext &ctx, const Expr *x) {
  found.use(ctx);
  auto it = found.of.find(x);
  if (it != found.of.end()) return it->second;
  const SourceManager &sm = ctx.getSourceManager();
  SourceLocation at = sm.getExpansionLoc(x->getBeginLoc());
  const Decl *d = declaration_under(sm, ctx.getTranslationUnitDecl(), at, x, 0);
  if (!d) d = declaration_of_in(ctx, x);
  found.of.emplace(x, d);
  return d;
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

}  // namespace hl_ast

namespace {

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

}  // namespace

namespace hl_ast {

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

namespace {

// The type as the probe's error names it: the template argument a
// forwarding reference deduces from x (T & for an lvalue), printed as clang
// prints it, then with a trailing & and a leading const taken off.
std::string spelled(ASTContext &ctx, const Expr *x, const PrintingPolicy &pp) {
  QualType t = x->getType().getNonReferenceType().getCanonicalType();
  if (x->isLValue()) t = ctx.getLValueReferenceType(t);
  std::string s = t.getAsString(pp);
  while (!s.empty() && (s.back() == '&' || s.back() == ' ')) s.pop_back();
  if (s.compare(0, 6, "const ") == 0)
    s.erase(0, 6);
  else if (s.size() > 6 && s.compare(s.size() - 6, 6, " const") == 0)
    s.erase(s.size() - 6);
  else if (s.size() > 5 && s.compare(s.size() - 6, 6, "*const") == 0)
    s.erase(s.size() - 5);
  return s;
}

int nothrow_ctor(ASTContext &ctx, QualType t, bool move, int depth, bool *deleted = nullptr);

// A class's implicit (defaulted) copy or move, member-wise: nothrow when
// every base's and non-reference field's is ([except.spec]; a closure's
// the same). A union's is not member-wise, and a subobject whose own is
// deleted makes this one deleted, which overload resolution passes over
// (a move then copies): not told.
int fields_nothrow(ASTContext &ctx, const CXXRecordDecl *rd, bool move, int depth) {
  if (rd->isUnion()) return -1;
  std::vector<QualType> parts;
  for (const CXXBaseSpecifier &b : rd->bases()) parts.push_back(b.getType());
  for (const CXXBaseSpecifier &b : rd->vbases()) parts.push_back(b.getType());
  for (const FieldDecl *f : rd->fields())
    if (!f->getType()->isReferenceType()) parts.push_back(f->getType());
  for (QualType t : parts) {
    bool deleted = false;
    int v = nothrow_ctor(ctx, t, move, depth + 1, &deleted);
    if (deleted) return -1;
    if (v <= 0) return v;
  }
  return 1;
}

// Whether t is nothrow copy (or move) constructible: 1, 0, or -1 when
// only overload resolution would tell; *deleted says a 0 is a deleted
// constructor's.
int nothrow_ctor(ASTContext &ctx, QualType t, bool move, int depth, bool *deleted) {
  if (depth > 16) return -1;
  t = t.getCanonicalType();
  if (t->isScalarType() || t->isReferenceType()) return 1;
  if (const ArrayType *a = ctx.getAsArrayType(t))
    return nothrow_ctor(ctx, a->getElementType(), move, depth + 1, deleted);
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
    if (chosen->isDeleted()) {
      if (deleted) *deleted = true;
      return 0;
    }
    const auto *fpt = chosen->getType()->getAs<FunctionProtoType>();
    if (fpt && !isUnresolvedExceptionSpec(fpt->getExceptionSpecType())) return fpt->isNothrow() ? 1 : 0;
    if (!chosen->isImplicit()) return -1;
  } else if (move ? !rd->needsImplicitMoveConstructor() : !rd->needsImplicitCopyConstructor()) {
    // No move constructor, none to come: a move copies (a const T & copy).
    return move ? nothrow_ctor(ctx, t, false, depth + 1, deleted) : -1;
  }
  // An implicit one, declared or not yet: trivial, or member-wise.
  if (trivial) return 1;
  return fields_nothrow(ctx, rd, move, depth);
}

void hl_instances_free_each(hl_instance *v, size_t n) {
  for (size_t i = 0; i < n; i++) {
    std::free(v[i].type);
    std::free(v[i].to);
    std::free(v[i].poi_file);
    for (size_t k = 0; k < v[i].nchain; k++) std::free(v[i].chain_file[k]);
    std::free(v[i].chain_file);
    std::free(v[i].chain_offset);
    std::free(v[i].in_system);
    std::free(v[i].carries);
  }
}

// One entry of an instance's chain (instances.h).
struct link {
  std::string file;
  unsigned offset;
  char in_system, carries;
};

link link_at(const SourceManager &sm, SourceLocation l, char carries) {
  SourceLocation fl = sm.getFileLoc(l);
  OptionalFileEntryRef fe = sm.getFileEntryRefForID(sm.getFileID(fl));
  return link{fe ? std::string(fe->getName()) : std::string(), sm.getFileOffset(fl),
              static_cast<char>(sm.isInSystemHeader(sm.getExpansionLoc(l)) ? 1 : 0), carries};
}

// The declaration whose code is at l, from libclang's cursor there: a
// declaration's cursor, or the declaration holding an expression's (from
// the parent map). Null where the cursor is neither (a reference to a
// type, a template or an overload set).
const Decl *decl_at_uncached(CXTranslationUnit tu, const ASTContext &ctx, SourceLocation l) {
  const SourceManager &sm = ctx.getSourceManager();
  // libclang's location is clang's, with the unit's SourceManager and
  // language options (CIndex's cxloc::translateSourceLocation): no file
  // name to look up again (a system header's may be spelled
  // "/../lib/gcc/x86_64-linux-gnu/12/../../../../include/c++/12/...").
  auto cx = [&](SourceLocation at) {
    CXSourceLocation r = {{&sm, &ctx.getLangOpts()}, at.getRawEncoding()};
    return r;
  };
  SourceLocation fl = sm.getFileLoc(l);
  FileID fid = sm.getFileID(fl);
  CXCursor c = clang_getCursor(tu, cx(fl));
  enum CXCursorKind k = clang_getCursorKind(c);
  // A qualified name's first part (CLI::Range(0, 12) is requested at CLI):
  // the cursor after each reference, until what holds them.
  bool invalid = false;
  StringRef text = sm.getBufferData(fid, &invalid);
  for (int step = 0; step < 8 && clang_isReference(k); step++) {
    unsigned end;
    clang_getFileLocation(clang_getRangeEnd(clang_getCursorExtent(c)), nullptr, nullptr, nullptr, &end);
    while (!invalid && end < text.size() &&
           (text[end] == ':' || text[end] == ' ' || text[end] == '<' || text[end] == '>'))
      end++;
    if (invalid || end >= text.size()) return nullptr;
    c = clang_getCursor(tu, cx(sm.getComposedLoc(fid, end)));
    k = clang_getCursorKind(c);
  }
  if (clang_isDeclaration(k)) return static_cast<const Decl *>(c.data[0]);
  if (!clang_isExpression(k) && !clang_isStatement(k)) return nullptr;
  // Not the cursor's parent declaration: there libclang may put the
  // declaration the expression refers to.
  const auto *x = dyn_cast_or_null<Expr>(static_cast<const Stmt *>(c.data[1]));
  return x ? declaration_of(const_cast<ASTContext &>(ctx), x) : nullptr;
}

const Decl *decl_at(CXTranslationUnit tu, const ASTContext &ctx, SourceLocation l) {
  found.use(ctx);
  auto it = found.at.find(l.getRawEncoding());
  if (it != found.at.end()) return it->second;
  const Decl *d = decl_at_uncached(tu, ctx, l);
  found.at.emplace(l.getRawEncoding(), d);
  return d;
}

// The unit's references to instantiated functions, by location and
// function: where libclang's cursor at a point of instantiation finds
// nothing (inside a macro expansion: Catch2's TEMPLATE_TEST_CASE expands
// to the templates that instantiate the test's body; a base initializer:
// std::shared_ptr's constructor calling __shared_ptr's), the reference
// there is looked up instead. Built once per unit and thread, on the first
// such point (hl_instances_forget drops it).
struct ref_index {
  const ASTContext *ctx = nullptr;
  // The reference, and the declaration whose code holds it.
  std::map<std::pair<SourceLocation::UIntTy, const Decl *>, const Decl *> m;
  // The references to each implicit member (a copy constructor clang
  // defined), and the declarations whose code holds them.
  std::map<const Decl *, std::vector<std::pair<SourceLocation, const Decl *>>> implicit_uses;
};
thread_local ref_index refs_idx;

struct ref_indexer : decl_stack<ref_indexer> {
  ref_index *idx;
  void add(const Decl *d, SourceLocation l, const Expr *) {
    const auto *fd = dyn_cast_or_null<FunctionDecl>(d);
    if (!fd || inside.empty()) return;
    if (fd->isTemplateInstantiation())
      idx->m.emplace(std::make_pair(l.getRawEncoding(), d->getCanonicalDecl()), inside.back());
    else if (fd->isImplicit() && isa<CXXMethodDecl>(fd))
      idx->implicit_uses[fd->getCanonicalDecl()].emplace_back(l, inside.back());
  }
  bool VisitDeclRefExpr(DeclRefExpr *x) {
    add(x->getDecl(), x->getLocation(), x);
    return true;
  }
  bool VisitMemberExpr(MemberExpr *x) {
    add(x->getMemberDecl(), x->getMemberLoc(), x);
    return true;
  }
  bool VisitCXXConstructExpr(CXXConstructExpr *x) {
    add(x->getConstructor(), x->getLocation(), x);
    return true;
  }
};

ref_index &indexed(ASTContext &ctx) {
  if (refs_idx.ctx != &ctx) {
    refs_idx.m.clear();
    refs_idx.implicit_uses.clear();
    refs_idx.ctx = &ctx;
    ref_indexer v;
    v.idx = &refs_idx;
    v.TraverseDecl(ctx.getTranslationUnitDecl());
  }
  return refs_idx;
}

const Decl *indexed_referrer(ASTContext &ctx, SourceLocation at, const Decl *target) {
  ref_index &idx = indexed(ctx);
  auto it = idx.m.find(std::make_pair(at.getRawEncoding(), target));
  return it == idx.m.end() ? nullptr : it->second;
}

// The reference to the implicit member md where clang defined it (its
// first use), or null. clang defines an implicit member at its first
// odr-use in the order it meets code: the unit's own code in the order of
// its text, instantiations later (mostly at the end of the unit). So with
// one use, that one; with several, all in code that is no template's and
// no implicit member's, the first in the unit's text; else (which
// instantiation clang met first, the AST does not say) null.
const std::pair<SourceLocation, const Decl *> *defining_use(ASTContext &ctx, const Decl *md) {
  ref_index &idx = indexed(ctx);
  auto it = idx.implicit_uses.find(md->getCanonicalDecl());
  if (it == idx.implicit_uses.end() || it->second.empty()) return nullptr;
  if (it->second.size() == 1) return &it->second[0];
  const SourceManager &sm = ctx.getSourceManager();
  const std::pair<SourceLocation, const Decl *> *first = nullptr;
  for (const auto &u : it->second) {
    const FunctionDecl *h = holder(u.second);
    if (!h || h->isImplicit() || h->isTemplateInstantiation() || h->isDependentContext() || u.first.isInvalid())
      return nullptr;
    for (const DeclContext *c = h->getParent(); c; c = c->getParent())
      if (const auto *rd = dyn_cast<CXXRecordDecl>(c); rd && rd->getTemplateSpecializationKind() != TSK_Undeclared)
        return nullptr;
    if (!first || sm.isBeforeInTranslationUnit(u.first, first->first)) first = &u;
  }
  return first;
}

// Whether the code of d is a template's (a dependent context, or a
// specialization of a generic lambda's call operator), and in a way this
// follows: not in a generic lambda's body (its specializations are the
// call operator's, which holder() passes over).
bool template_code(const Decl *d, bool *followed) {
  const DeclContext *dc = isa<DeclContext>(d) ? cast<DeclContext>(d) : d->getDeclContext();
  *followed = true;
  for (const DeclContext *c = dc; c; c = c->getParent()) {
    const auto *md = dyn_cast<CXXMethodDecl>(c);
    if (md && isGenericLambdaCallOperatorSpecialization(md)) {
      *followed = false;
      return true;
    }
    if (isa<FunctionDecl>(c) && !(md && isLambdaCallOperator(md))) break;
  }
  if (!dc || !dc->isDependentContext()) return false;
  for (; dc; dc = dc->getParent()) {
    const auto *fd = dyn_cast<FunctionDecl>(dc);
    if (fd && isLambdaCallOperator(fd) && fd->getDescribedFunctionTemplate()) *followed = false;
    if (fd && !isLambdaCallOperator(fd)) break;
  }
  return true;
}

// The node of an instantiated body, at the point where it requested the
// specialization target: a reference to it named there.
struct referrer : RecursiveASTVisitor<referrer> {
  SourceLocation at;
  const Decl *target;
  // A virtual member is instantiated with its class's vtable, where an
  // object of the class (or of a class derived from it) is constructed: a
  // construction of ctor_of there.
  const CXXRecordDecl *ctor_of = nullptr;
  bool found = false;
  bool shouldVisitImplicitCode() const { return true; }
  bool match(const Decl *d, SourceLocation l) {
    if (l == at && d && d->getCanonicalDecl() == target) found = true;
    return !found;
  }
  bool VisitDeclRefExpr(DeclRefExpr *x) { return match(x->getDecl(), x->getLocation()); }
  bool VisitMemberExpr(MemberExpr *x) { return match(x->getMemberDecl(), x->getMemberLoc()); }
  bool VisitCXXConstructExpr(CXXConstructExpr *x) {
    const CXXConstructorDecl *c = x->getConstructor();
    if (ctor_of && c && x->getLocation() == at &&
        (c->getParent()->getCanonicalDecl() == ctor_of->getCanonicalDecl() || c->getParent()->isDerivedFrom(ctor_of)))
      found = true;
    return match(c, x->getLocation());
  }
};

// What the probe parse's note at the point of instantiation of s says it
// carries (instances.h).
char carried(const FunctionDecl *s, const std::string &type, const PrintingPolicy &pp) {
  std::string name;
  llvm::raw_string_ostream os(name);
  s->getNameForDiagnostic(os, pp, true);
  os.flush();
  if (name.find(type) != std::string::npos) return 1;
  if (const auto *md = dyn_cast<CXXMethodDecl>(s); md && isGenericLambdaCallOperatorSpecialization(md)) return 3;
  return s->getTemplatedKind() == FunctionDecl::TK_FunctionTemplateSpecialization ? 0 : 2;
}

// The chain from the store at x in the specialization def outward (see
// instances.h); empty when it cannot be followed.
std::vector<link> chain_of(CXTranslationUnit tu, ASTContext &ctx, const Expr *x, const FunctionDecl *def,
                           const std::string &type, const PrintingPolicy &pp, const char **why) {
  SourceManager &sm = ctx.getSourceManager();
  std::vector<link> v{link_at(sm, x->getBeginLoc(), 0)};
  const FunctionDecl *cur = def;
  for (int depth = 0; depth < 64; depth++) {
    SourceLocation poi = cur->getPointOfInstantiation();
    *why = "a specialization without a point of instantiation";
    if (poi.isInvalid()) return {};
    // A defaulted member (a pair's or unordered_map's copy constructor)
    // is defined where first required, as an implicit one: clang's note
    // there says "first required here", not "requested here", and is no
    // link of the probe parse's chain.
    if (!cur->isDefaulted()) v.push_back(link_at(sm, poi, carried(cur, type, pp)));
    const Decl *d = decl_at(tu, ctx, poi);
    if (!d) d = indexed_referrer(ctx, poi, cur->getCanonicalDecl());
    *why = "no declaration holds a point of instantiation";
    if (!d) return {};
    // libclang's cursor there may be an instantiation's node (the unit's
    // specializations are among its top-level declarations, at their
    // pattern's place): its pattern's code is template code.
    const FunctionDecl *fd = holder(d);
    SourceLocation at = poi;  // where the code that requested cur names it
    const Decl *target = cur->getCanonicalDecl();
    // At a class, outside any function: an implicit member of the class
    // (its copy constructor copying a base) requested it, and the probe
    // parse's notes go on from where that member was first required
    // (eventpp's CallbackList copied by std::make_shared), with no
    // "requested here" of their own there. Followed from the use where
    // clang defined that member (defining_use).
    // An implicit member used by another (a class's copy constructor
    // copying its base): on to where that one is used.
    const Decl *m = !fd && (isa<CXXRecordDecl>(d) || isa<ClassTemplateDecl>(d)) ? indexed_referrer(ctx, poi, target)
                    : fd && fd->isImplicit()                                    ? fd
                                                                                : nullptr;
    for (int hops = 0; m && hops < 16; hops++) {
      const auto *md = dyn_cast<CXXMethodDecl>(m);
      const std::pair<SourceLocation, const Decl *> *use = md && md->isImplicit() ? defining_use(ctx, md) : nullptr;
      *why = "requested by a class's implicit member";
      if (!use) return {};
      at = use->first;
      target = md->getCanonicalDecl();
      d = use->second;
      fd = holder(d);
      if (!fd) return {};
      m = fd->isImplicit() ? fd : nullptr;
    }
    if (m) return {};
    bool followed;
    bool in_template = template_code(d, &followed);
    if (fd && fd->isTemplateInstantiation()) {
      in_template = true;
      fd = fd->getTemplateInstantiationPattern();
    }
    if (!in_template) return v;
    const FunctionDecl *pattern = followed ? fd : nullptr;
    std::vector<const FunctionDecl *> defs;
    *why = "a point of instantiation in template code not followed";
    if (!pattern || !instantiations(pattern, defs)) return {};
    const FunctionDecl *next = nullptr;
    for (const FunctionDecl *d2 : defs) {
      referrer r;
      r.at = at;
      r.target = target;
      if (const auto *vm = dyn_cast<CXXMethodDecl>(target); vm && vm->isVirtual() && target == cur->getCanonicalDecl())
        r.ctor_of = vm->getParent();
      r.TraverseDecl(const_cast<FunctionDecl *>(d2));
      if (r.found) {
        next = d2;
        break;
      }
    }
    *why = "no specialization names the previous one at its point of instantiation";
    if (!next) return {};
    cur = next;
  }
  return {};
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

namespace {

// One instantiation's answer about the value x of the specialization def:
// its type, layout and traits, and the chain from at (the store, or the
// argument a conversion converts) outward. False: x has no layout.
bool make_instance(CXTranslationUnit tu, const Expr *x, const FunctionDecl *def, SourceLocation at,
                   const std::vector<SourceLocation> &frames, hl_instance *h) {
  ASTContext &ctx = def->getASTContext();
  SourceManager &sm = ctx.getSourceManager();
  PrintingPolicy pp(ctx.getLangOpts());
  QualType t = x->getType().getNonReferenceType();
  if (t->isDependentType() || t->isIncompleteType() || t->isPlaceholderType()) return false;
  QualType u = t.getUnqualifiedType();
  *h = hl_instance{};
  h->type = dup(spelled(ctx, x, pp));
  h->size = (long)ctx.getTypeSizeInChars(u).getQuantity();
  h->align = (long)ctx.getTypeAlignInChars(u).getQuantity();
  h->trivially_copyable = u.isTriviallyCopyableType(ctx) ? 1 : 0;
  h->nothrow_copy = nothrow_ctor(ctx, u, false, 0);
  h->nothrow_move = nothrow_ctor(ctx, u, true, 0);
  std::vector<link> chain = chain_of(tu, ctx, x, def, h->type, pp, &h->no_chain);
  if (!chain.empty()) {
    chain[0] = link_at(sm, at, 0);
    // The library's specializations, innermost first; each names the
    // argument's type among its template arguments.
    for (const SourceLocation &l : frames) chain.insert(chain.begin() + 1, link_at(sm, l, 1));
    h->nchain = chain.size();
    h->chain_file = static_cast<char **>(std::calloc(chain.size(), sizeof *h->chain_file));
    h->chain_offset = static_cast<unsigned *>(std::calloc(chain.size(), sizeof *h->chain_offset));
    h->in_system = static_cast<char *>(std::calloc(chain.size(), 1));
    h->carries = static_cast<char *>(std::calloc(chain.size(), 1));
    if (!h->chain_file || !h->chain_offset || !h->in_system || !h->carries) std::abort();
    for (size_t k = 0; k < chain.size(); k++) {
      h->chain_file[k] = dup(chain[k].file);
      h->chain_offset[k] = chain[k].offset;
      h->in_system[k] = chain[k].in_system;
      h->carries[k] = chain[k].carries;
    }
  }
  SourceLocation poi = def->getPointOfInstantiation();
  if (poi.isValid()) {
    FullSourceLoc fl(sm.getFileLoc(poi), sm);
    OptionalFileEntryRef fe = sm.getFileEntryRefForID(fl.getFileID());
    h->poi_file = dup(fe ? std::string(fe->getName()) : std::string());
    h->poi_offset = fl.getFileOffset();
  }
  return true;
}

long hand_out(std::vector<hl_instance> &v, bool ok, hl_instance **out) {
  if (!ok) {
    hl_instances_free_each(v.data(), v.size());
    return -1;
  }
  if (v.empty()) return 0;
  *out = static_cast<hl_instance *>(std::malloc(v.size() * sizeof **out));
  if (!*out) std::abort();
  std::memcpy(*out, v.data(), v.size() * sizeof **out);
  return (long)v.size();
}

// The pattern expression of cursor e and the instantiated definitions of
// the function that holds it, or null with *why.
const Expr *pattern_and_defs(CXCursor e, std::vector<const FunctionDecl *> &defs, const char **why) {
  *why = "libclang-cpp is not the same clang as libclang";
  if (!hl_instances_usable()) return nullptr;
  *why = "not an expression";
  if (!clang_isExpression(clang_getCursorKind(e)) || !e.data[1]) return nullptr;
  const Expr *pattern = dyn_cast<Expr>(static_cast<const Stmt *>(e.data[1]));
  if (!pattern) return nullptr;
  const Decl *parent = static_cast<const Decl *>(e.data[0]);
  if (!parent) {
    const auto *tud =
        static_cast<const Decl *>(clang_getTranslationUnitCursor(clang_Cursor_getTranslationUnit(e)).data[0]);
    if (tud) parent = declaration_of(tud->getASTContext(), pattern);
  }
  *why = "not in a function";
  const FunctionDecl *fd = parent ? holder(parent) : nullptr;
  if (!fd) return nullptr;
  *why = "in template code whose instantiations are not followed";
  if (!instantiations(fd, defs)) return nullptr;
  return pattern;
}

}  // namespace

extern "C" long hl_instances_of_expr(CXCursor e, hl_instance **out, const char **why) {
  *out = nullptr;
  std::vector<const FunctionDecl *> defs;
  const Expr *pattern = pattern_and_defs(e, defs, why);
  if (!pattern) return -1;
  std::vector<hl_instance> v;
  bool ok = true;
  for (const FunctionDecl *def : defs) {
    const Expr *found = finder(pattern->getSourceRange()).find(def);
    if (!found) continue;  // not instantiated there (a discarded if constexpr branch)
    const Expr *x = written(found);
    hl_instance h;
    if (!make_instance(clang_Cursor_getTranslationUnit(e), x, def, x->getBeginLoc(), {}, &h)) {
      *why = "a type without a layout";
      ok = false;
      break;
    }
    v.push_back(h);
  }
  return hand_out(v, ok, out);
}

extern "C" long hl_instances_of_conversion(CXCursor call, CXCursor arg, const char *as_type,
                                           const char *const *wrappers, size_t nwrappers, hl_instance **out,
                                           const char **why) {
  *out = nullptr;
  std::vector<const FunctionDecl *> defs;
  const Expr *pc = pattern_and_defs(call, defs, why);
  if (!pc) return -1;
  *why = "not an expression";
  if (!clang_isExpression(clang_getCursorKind(arg)) || !arg.data[1]) return -1;
  const auto *pa = dyn_cast<Expr>(static_cast<const Stmt *>(arg.data[1]));
  if (!pa) return -1;
  // A member initializer's conversion: to the member's type, "decltype(this->m)".
  std::string member;
  if (as_type) {
    const char *pre = "decltype(this->";
    size_t n = std::strlen(as_type);
    *why = "a conversion to a type other than a member's";
    if (std::strncmp(as_type, pre, std::strlen(pre)) || as_type[n - 1] != ')') return -1;
    member.assign(as_type + std::strlen(pre), n - std::strlen(pre) - 1);
  }
  CXTranslationUnit tu = clang_Cursor_getTranslationUnit(call);
  std::vector<hl_instance> v;
  bool ok = true;
  for (const FunctionDecl *def : defs) {
    ASTContext &ctx = def->getASTContext();
    PrintingPolicy pp(ctx.getLangOpts());
    conversions cv;
    cv.wrappers = wrappers;
    cv.nwrappers = nwrappers;
    const Expr *x = nullptr;
    if (as_type) {
      const Expr *found = finder(pa->getSourceRange()).find(def);
      if (!found) continue;
      x = written(found);
      const auto *rd = dyn_cast<CXXRecordDecl>(def->getDeclContext());
      const FieldDecl *m = nullptr;
      if (rd)
        for (const FieldDecl *fld : rd->fields())
          if (fld->getName() == member) m = fld;
      *why = "a member initializer's member not found";
      if (!m) {
        ok = false;
        break;
      }
      cv.add(ctx, m->getType());
    } else {
      const CallExpr *ic = call_finder(pc->getSourceRange()).find(def);
      if (!ic) continue;  // not instantiated there
      int k = argument_index(ic, pa->getSourceRange());
      *why = "the argument is not among the instantiated call's";
      if (k < 0) {
        ok = false;
        break;
      }
      x = written(ic->getArg((unsigned)k));
      into_call(ctx, ic, (unsigned)k, cv, 0);
      if (cv.untold) {
        *why = cv.why;
        ok = false;
        break;
      }
    }
    for (size_t i = 0; i < cv.to.size(); i++) {
      QualType to = cv.to[i];
      hl_instance h;
      if (!make_instance(tu, x, def, pa->getBeginLoc(), cv.frames[i], &h)) {
        *why = "a type without a layout";
        ok = false;
        break;
      }
      h.to = dup(to.getAsString(pp));
      h.uncertain = cv.uncertain[i];
      h.inside = cv.inside[i];
      v.push_back(h);
    }
    if (!ok) break;
  }
  return hand_out(v, ok, out);
}

extern "C" void hl_instances_forget(void) {
  refs_idx.m.clear();
  refs_idx.implicit_uses.clear();
  refs_idx.ctx = nullptr;
  found.of.clear();
  found.at.clear();
  found.ctx = nullptr;
}

extern "C" void hl_instances_free(hl_instance *v, long n) {
  hl_instances_free_each(v, n > 0 ? static_cast<size_t>(n) : 0);
  std::free(v);
}
