// instances: a template's instantiations from clang's AST (instances.h):
// the C entry points, each instantiation made into an hl_instance (its
// type as the probe parse spells it, layout, traits, chain), and the check
// that libclang-cpp is libclang's clang.
//
// A cursor libclang hands out holds clang's own objects, read through
// instances_cursor.cpp. libclang-cpp, the same clang as libclang (checked
// in hl_instances_usable), reads them: which function template or class
// template member holds the expression, the specializations clang
// instantiated from it (instances_find.cpp), and in each the node built
// from the expression (same source range), with its chain
// (instances_chain.cpp) and, for a conversion, what it converts to
// (instances_convert.cpp). Read only: nothing here declares,
// instantiates or changes anything in the unit. What one unit's reading
// remembers lives in its hl_instances_session (instances_impl.hpp).
#include "engine/inst/instances.h"

#include <clang-c/Index.h>
#include <clang/AST/ASTContext.h>
#include <clang/AST/ASTLambda.h>
#include <clang/AST/DeclCXX.h>
#include <clang/AST/DeclTemplate.h>
#include <clang/AST/ExprCXX.h>
#include <clang/AST/RecursiveASTVisitor.h>
#include <clang/Basic/SourceManager.h>
#include <clang/Basic/Version.h>

#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "engine/inst/instances_impl.hpp"

using namespace clang;
using namespace hl_ast;

namespace {

char *dup(const std::string &s) {
  char *p = static_cast<char *>(std::malloc(s.size() + 1));
  if (!p) std::abort();
  std::memcpy(p, s.c_str(), s.size() + 1);
  return p;
}

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
bool make_instance(hl_instances_session &s, CXTranslationUnit tu, const Expr *x, const FunctionDecl *def,
                   SourceLocation at, const std::vector<SourceLocation> &frames, hl_instance *h) {
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
  std::vector<link> chain = chain_of(s, tu, ctx, x, def, h->type, pp, &h->no_chain);
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
const Expr *pattern_and_defs(hl_instances_session &s, CXCursor e, std::vector<const FunctionDecl *> &defs,
                             const char **why) {
  *why = "libclang-cpp is not the same clang as libclang";
  if (!hl_instances_usable()) return nullptr;
  *why = "not an expression";
  const Expr *pattern = cursor_expr(e);
  if (!pattern) return nullptr;
  const Decl *parent = cursor_decl(e);
  if (!parent) {
    const Decl *tud = cursor_decl(clang_getTranslationUnitCursor(clang_Cursor_getTranslationUnit(e)));
    if (tud) parent = declaration_of(s, tud->getASTContext(), pattern);
  }
  *why = "not in a function";
  const FunctionDecl *fd = parent ? holder(parent) : nullptr;
  if (!fd) return nullptr;
  *why = "in template code whose instantiations are not followed";
  if (!instantiations(fd, defs)) return nullptr;
  return pattern;
}

}  // namespace

extern "C" long hl_instances_of_expr(hl_instances_session *s, CXCursor e, hl_instance **out, const char **why) {
  *out = nullptr;
  std::vector<const FunctionDecl *> defs;
  const Expr *pattern = pattern_and_defs(*s, e, defs, why);
  if (!pattern) return -1;
  std::vector<hl_instance> v;
  bool ok = true;
  for (const FunctionDecl *def : defs) {
    const Expr *found = finder(pattern->getSourceRange()).find(def);
    if (!found) continue;  // not instantiated there (a discarded if constexpr branch)
    const Expr *x = written(found);
    hl_instance h;
    if (!make_instance(*s, clang_Cursor_getTranslationUnit(e), x, def, x->getBeginLoc(), {}, &h)) {
      *why = "a type without a layout";
      ok = false;
      break;
    }
    v.push_back(h);
  }
  return hand_out(v, ok, out);
}

extern "C" long hl_instances_of_conversion(hl_instances_session *s, CXCursor call, CXCursor arg, const char *as_type,
                                           const char *const *wrappers, size_t nwrappers, hl_instance **out,
                                           const char **why) {
  *out = nullptr;
  std::vector<const FunctionDecl *> defs;
  const Expr *pc = pattern_and_defs(*s, call, defs, why);
  if (!pc) return -1;
  *why = "not an expression";
  const Expr *pa = cursor_expr(arg);
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
      if (!make_instance(*s, tu, x, def, pa->getBeginLoc(), cv.frames[i], &h)) {
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

extern "C" hl_instances_session *hl_instances_open(void) { return new hl_instances_session(); }

extern "C" void hl_instances_close(hl_instances_session *s) { delete s; }

extern "C" void hl_instances_free(hl_instance *v, long n) {
  hl_instances_free_each(v, n > 0 ? static_cast<size_t>(n) : 0);
  std::free(v);
}
