// instances_chain: the probe parse's "requested here" chain rebuilt from
// the AST (instances.h's hl_instance): each point of instantiation
// outward, through the specialization of the code there that names the
// previous one, past implicit members to the use where clang defined them.

#include <clang-c/Index.h>
#include <clang/AST/ASTContext.h>
#include <clang/AST/ASTLambda.h>
#include <clang/AST/DeclCXX.h>
#include <clang/AST/DeclTemplate.h>
#include <clang/AST/ExprCXX.h>
#include <clang/AST/RecursiveASTVisitor.h>
#include <clang/Basic/SourceManager.h>

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "engine/inst/instances_impl.hpp"

using namespace clang;

namespace hl_ast {

link link_at(const SourceManager &sm, SourceLocation l, char carries) {
  SourceLocation fl = sm.getFileLoc(l);
  OptionalFileEntryRef fe = sm.getFileEntryRefForID(sm.getFileID(fl));
  return link{fe ? std::string(fe->getName()) : std::string(), sm.getFileOffset(fl),
              static_cast<char>(sm.isInSystemHeader(sm.getExpansionLoc(l)) ? 1 : 0), carries};
}

}  // namespace hl_ast

namespace {

using namespace hl_ast;

// The declaration whose code is at l, from libclang's cursor there: a
// declaration's cursor, or the declaration holding an expression's (from
// the parent map). Null where the cursor is neither (a reference to a
// type, a template or an overload set).
const Decl *decl_at_uncached(hl_instances_session &s, CXTranslationUnit tu, const ASTContext &ctx, SourceLocation l) {
  const SourceManager &sm = ctx.getSourceManager();
  SourceLocation fl = sm.getFileLoc(l);
  FileID fid = sm.getFileID(fl);
  CXCursor c = clang_getCursor(tu, cursor_location(ctx, fl));
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
    c = clang_getCursor(tu, cursor_location(ctx, sm.getComposedLoc(fid, end)));
    k = clang_getCursorKind(c);
  }
  if (clang_isDeclaration(k)) return cursor_decl(c);
  if (!clang_isExpression(k) && !clang_isStatement(k)) return nullptr;
  // Not the cursor's parent declaration: there libclang may put the
  // declaration the expression refers to.
  const auto *x = dyn_cast_or_null<Expr>(cursor_stmt(c));
  return x ? declaration_of(s, const_cast<ASTContext &>(ctx), x) : nullptr;
}

const Decl *decl_at(hl_instances_session &s, CXTranslationUnit tu, const ASTContext &ctx, SourceLocation l) {
  s.found.use(ctx);
  auto it = s.found.at.find(l.getRawEncoding());
  if (it != s.found.at.end()) return it->second;
  const Decl *d = decl_at_uncached(s, tu, ctx, l);
  s.found.at.emplace(l.getRawEncoding(), d);
  return d;
}

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

ref_index &indexed(hl_instances_session &s, ASTContext &ctx) {
  if (s.refs.ctx != &ctx) {
    s.refs.m.clear();
    s.refs.implicit_uses.clear();
    s.refs.ctx = &ctx;
    ref_indexer v;
    v.idx = &s.refs;
    v.TraverseDecl(ctx.getTranslationUnitDecl());
  }
  return s.refs;
}

const Decl *indexed_referrer(hl_instances_session &s, ASTContext &ctx, SourceLocation at, const Decl *target) {
  ref_index &idx = indexed(s, ctx);
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
const std::pair<SourceLocation, const Decl *> *defining_use(hl_instances_session &s, ASTContext &ctx, const Decl *md) {
  ref_index &idx = indexed(s, ctx);
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

}  // namespace

namespace hl_ast {

// The chain from the store at x in the specialization def outward (see
// instances.h); empty when it cannot be followed.
std::vector<link> chain_of(hl_instances_session &s, CXTranslationUnit tu, ASTContext &ctx, const Expr *x,
                           const FunctionDecl *def, const std::string &type, const PrintingPolicy &pp,
                           const char **why) {
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
    const Decl *d = decl_at(s, tu, ctx, poi);
    if (!d) d = indexed_referrer(s, ctx, poi, cur->getCanonicalDecl());
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
    const Decl *m = !fd && (isa<CXXRecordDecl>(d) || isa<ClassTemplateDecl>(d)) ? indexed_referrer(s, ctx, poi, target)
                    : fd && fd->isImplicit()                                    ? fd
                                                                                : nullptr;
    for (int hops = 0; m && hops < 16; hops++) {
      const auto *md = dyn_cast<CXXMethodDecl>(m);
      const std::pair<SourceLocation, const Decl *> *use = md && md->isImplicit() ? defining_use(s, ctx, md) : nullptr;
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

}  // namespace hl_ast
