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

void hl_instances_free_each(hl_instance *v, size_t n) {
  for (size_t i = 0; i < n; i++) {
    std::free(v[i].type);
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
const Decl *decl_at(CXTranslationUnit tu, const SourceManager &sm, SourceLocation l) {
  link at = link_at(sm, l, 0);
  CXFile f = at.file.empty() ? nullptr : clang_getFile(tu, at.file.c_str());
  if (!f) return nullptr;
  CXCursor c = clang_getCursor(tu, clang_getLocationForOffset(tu, f, at.offset));
  enum CXCursorKind k = clang_getCursorKind(c);
  // A qualified name's first part (CLI::Range(0, 12) is requested at CLI):
  // the cursor after each reference, until what holds them.
  for (int step = 0; step < 8 && clang_isReference(k); step++) {
    unsigned end;
    clang_getFileLocation(clang_getRangeEnd(clang_getCursorExtent(c)), nullptr, nullptr, nullptr, &end);
    size_t len;
    const char *text = clang_getFileContents(tu, f, &len);
    while (text && end < len && (text[end] == ':' || text[end] == ' ' || text[end] == '<' || text[end] == '>'))
      end++;
    if (!text || end >= len) return nullptr;
    c = clang_getCursor(tu, clang_getLocationForOffset(tu, f, end));
    k = clang_getCursorKind(c);
  }
  if (clang_isDeclaration(k)) return static_cast<const Decl *>(c.data[0]);
  if (!clang_isExpression(k) && !clang_isStatement(k)) return nullptr;
  // Not the cursor's parent declaration: there libclang may put the
  // declaration the expression refers to.
  const auto *x = dyn_cast_or_null<Expr>(static_cast<const Stmt *>(c.data[1]));
  return x ? declaration_of(clang_getTranslationUnitCursor(tu), x) : nullptr;
}

// Whether the code of d is a template's (a dependent context), and in a
// way this follows: not in a generic lambda's body (its specializations
// are the call operator's, which holder() passes over).
bool template_code(const Decl *d, bool *followed) {
  const DeclContext *dc = isa<DeclContext>(d) ? cast<DeclContext>(d) : d->getDeclContext();
  *followed = true;
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
  bool found = false;
  bool shouldVisitImplicitCode() const { return true; }
  bool match(const Decl *d, SourceLocation l) {
    if (l == at && d && d->getCanonicalDecl() == target) found = true;
    return !found;
  }
  bool VisitDeclRefExpr(DeclRefExpr *x) { return match(x->getDecl(), x->getLocation()); }
  bool VisitMemberExpr(MemberExpr *x) { return match(x->getMemberDecl(), x->getMemberLoc()); }
  bool VisitCXXConstructExpr(CXXConstructExpr *x) { return match(x->getConstructor(), x->getLocation()); }
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
    v.push_back(link_at(sm, poi, carried(cur, type, pp)));
    const Decl *d = decl_at(tu, sm, poi);
    *why = "no declaration holds a point of instantiation";
    if (!d) return {};
    // libclang's cursor there may be an instantiation's node (the unit's
    // specializations are among its top-level declarations, at their
    // pattern's place): its pattern's code is template code.
    const FunctionDecl *fd = holder(d);
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
      r.at = poi;
      r.target = cur->getCanonicalDecl();
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
    std::vector<link> chain = chain_of(clang_Cursor_getTranslationUnit(e), ctx, x, def, h.type, pp, &h.no_chain);
    if (!chain.empty()) {
      h.nchain = chain.size();
      h.chain_file = static_cast<char **>(std::calloc(chain.size(), sizeof *h.chain_file));
      h.chain_offset = static_cast<unsigned *>(std::calloc(chain.size(), sizeof *h.chain_offset));
      h.in_system = static_cast<char *>(std::calloc(chain.size(), 1));
      h.carries = static_cast<char *>(std::calloc(chain.size(), 1));
      if (!h.chain_file || !h.chain_offset || !h.in_system || !h.carries) std::abort();
      for (size_t k = 0; k < chain.size(); k++) {
        h.chain_file[k] = dup(chain[k].file);
        h.chain_offset[k] = chain[k].offset;
        h.in_system[k] = chain[k].in_system;
        h.carries[k] = chain[k].carries;
      }
    }
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
    hl_instances_free_each(v.data(), v.size());
    return -1;
  }
  if (v.empty()) return 0;
  *out = static_cast<hl_instance *>(std::malloc(v.size() * sizeof **out));
  if (!*out) std::abort();
  std::memcpy(*out, v.data(), v.size() * sizeof **out);
  return (long)v.size();
}

extern "C" void hl_instances_free(hl_instance *v, long n) {
  hl_instances_free_each(v, n > 0 ? static_cast<size_t>(n) : 0);
  std::free(v);
}
