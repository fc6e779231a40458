#include "engine/flow/instantiated.h"

#include <stdlib.h>

#include "engine/ast.h"
#include "engine/flow/decls.h"
#include "engine/flow/flow_impl.h"
#include "util/strv.h"
#include "util/util.h"

/* Whether cls's copy constructor is the compiler's (implicit or
 * defaulted): it copies the wrapper member as the member's own copy
 * constructor does. A class template's specialization has its pattern's. */
static enum CXChildVisitResult written_copy(CXCursor c, CXCursor parent, CXClientData d) {
  (void)parent;
  if (clang_getCursorKind(c) == CXCursor_Constructor && clang_CXXConstructor_isCopyConstructor(c) &&
      !clang_CXXMethod_isDefaulted(c)) {
    *(int *)d = 1;
    return CXChildVisit_Break;
  }
  return CXChildVisit_Continue;
}

static int implicit_copy(CXCursor cls) {
  /* An explicit specialization names the primary template too, and has
   * members of its own: neither may write one. */
  CXCursor pattern = clang_getSpecializedCursorTemplate(cls);
  int written = 0;
  clang_visitChildren(cls, written_copy, &written);
  if (!clang_Cursor_isNull(pattern)) clang_visitChildren(pattern, written_copy, &written);
  return !written;
}

static enum CXChildVisitResult find_body(CXCursor c, CXCursor parent, CXClientData d) {
  (void)parent;
  if (clang_getCursorKind(c) != CXCursor_CompoundStmt) return CXChildVisit_Continue;
  *(CXCursor *)d = c;
  return CXChildVisit_Break;
}

/* Whether a constructor's body is empty: nothing there can change what
 * its member initializers stored (value.reset()). */
static int empty_body(CXCursor ctor) {
  CXCursor body = clang_getNullCursor();
  clang_visitChildren(ctor, find_body, &body);
  return !clang_Cursor_isNull(body) && clang_Cursor_isNull(hl_first_child(body));
}

typedef struct member_init_find {
  const hl_ctx *ctx;
  CXCursor field, member, init;
} member_init_find;

/* The first member initializer of a constructor's definition that
 * initializes a wrapper member: libclang shows each initializer as the
 * member's reference followed by its expression. */
static enum CXChildVisitResult wrapper_init(CXCursor c, CXCursor parent, CXClientData d) {
  (void)parent;
  member_init_find *m = d;
  enum CXCursorKind k = clang_getCursorKind(c);
  if (k == CXCursor_MemberRef) {
    CXCursor f = clang_getCursorReferenced(c);
    m->field = hl_flow_is_wrapper_value(m->ctx, clang_getCursorType(f)) ? f : clang_getNullCursor();
    return CXChildVisit_Continue;
  }
  if (!clang_Cursor_isNull(m->field) && clang_isExpression(k)) {
    m->member = m->field;
    m->init = hl_strip(c);
    return CXChildVisit_Break;
  }
  m->field = clang_getNullCursor();
  return k == CXCursor_CompoundStmt ? CXChildVisit_Break : CXChildVisit_Continue;
}

/* Standard containers' members that copy an lvalue they are given into
 * the container (map::operator[] copies the key when it inserts it). */
static const char *const copying_members[] = {"operator[]",    "insert",          "emplace",     "emplace_back",
                                              "emplace_front", "emplace_hint",    "try_emplace", "push_back",
                                              "push_front",    "insert_or_assign"};

/* Whether fn is such a member of a standard container of cls (its key, or
 * its element): *keyed for the associative ones, which copy the key only
 * when it is not there yet. A container of something else (a
 * reference_wrapper, a base class, a type built from cls) copies nothing
 * of cls's wrapper. */
static int is_container_copy(CXCursor fn, CXType cls, int *keyed) {
  if (clang_getCursorKind(fn) != CXCursor_CXXMethod) return 0;
  CXCursor owner = clang_getCursorSemanticParent(fn);
  if (!clang_Location_isInSystemHeader(clang_getCursorLocation(owner))) return 0;
  CXType ot = clang_getCursorType(owner);
  if (clang_Type_getNumTemplateArguments(ot) < 1 || !hl_same_class(clang_Type_getTemplateArgumentAsType(ot, 0), cls))
    return 0;
  char *name = hl_class_name(ot), *member = hl_cxstring_take(clang_getCursorSpelling(fn));
  static const char *const keyed_containers[] = {
      "std::map",           "std::multimap",           "std::set",           "std::multiset",
      "std::unordered_map", "std::unordered_multimap", "std::unordered_set", "std::unordered_multiset"};
  static const char *const sequences[] = {"std::vector", "std::deque", "std::list", "std::forward_list"};
  *keyed = hl_str_in(name, keyed_containers, sizeof keyed_containers / sizeof *keyed_containers);
  int yes = (*keyed || hl_str_in(name, sequences, sizeof sequences / sizeof *sequences)) &&
            hl_str_in(member, copying_members, sizeof copying_members / sizeof *copying_members);
  free(name);
  free(member);
  return yes;
}

typedef struct param_copy {
  CXCursor param, cls, at;
  CXType cls_type;
  int keyed; /* at inserts into an associative container */
} param_copy;

/* A call in an instantiated body that copies the parameter: cls's copy
 * constructor from it, or a standard container taking it in. A lambda's
 * body runs only when it is called: not followed. */
static enum CXChildVisitResult copies_param(CXCursor c, CXCursor parent, CXClientData d) {
  (void)parent;
  param_copy *p = d;
  enum CXCursorKind k = clang_getCursorKind(c);
  /* Nor what is never evaluated: sizeof, alignof, noexcept, typeid. */
  if (k == CXCursor_LambdaExpr || k == CXCursor_UnaryExpr || k == CXCursor_CXXTypeidExpr) return CXChildVisit_Continue;
  if (k != CXCursor_CallExpr) return CXChildVisit_Recurse;
  CXCursor fn = clang_getCursorReferenced(c);
  int keyed = 0;
  int copy = is_container_copy(fn, p->cls_type, &keyed) ||
             (clang_getCursorKind(fn) == CXCursor_Constructor && clang_CXXConstructor_isCopyConstructor(fn) &&
              clang_equalCursors(clang_getCanonicalCursor(clang_getCursorSemanticParent(fn)), p->cls));
  for (int i = 0; copy && i < clang_Cursor_getNumArguments(c); i++) {
    CXCursor a = hl_strip(clang_Cursor_getArgument(c, (unsigned)i));
    if (clang_getCursorKind(a) == CXCursor_DeclRefExpr && clang_equalCursors(clang_getCursorReferenced(a), p->param)) {
      p->at = c;
      p->keyed = keyed;
      return CXChildVisit_Break;
    }
  }
  return CXChildVisit_Recurse;
}

/* A call of a template's specialization handing it, by const reference, a
 * temporary its argument builds with a converting constructor of a class
 * of the project that stores into a wrapper member; the specialization's
 * instantiated body copies that parameter whole. The member's store joins
 * the flow's stores, which the owner judges; the copy matters when it
 * allocates. */
void hl_flow_class_copy_call(hl_ctx *ctx, hl_flow *F, CXCursor call) {
  CXCursor fn = clang_getCursorReferenced(call);
  enum CXCursorKind fk = clang_getCursorKind(fn);
  if ((fk != CXCursor_CXXMethod && fk != CXCursor_FunctionDecl) ||
      clang_Cursor_isNull(clang_getSpecializedCursorTemplate(fn)))
    return;
  CXCursor def = clang_getCursorDefinition(fn);
  if (clang_Cursor_isNull(def) || clang_Location_isInSystemHeader(clang_getCursorLocation(def))) return;
  int n = clang_Cursor_getNumArguments(call);
  if (n != clang_Cursor_getNumArguments(def)) return; /* an operator's object, default arguments */
  for (int i = 0; i < n; i++) {
    CXCursor arg = hl_strip(clang_Cursor_getArgument(call, (unsigned)i));
    CXCursor k = clang_getCursorKind(arg) == CXCursor_CallExpr ? clang_getCursorReferenced(arg) : clang_getNullCursor();
    if (clang_getCursorKind(k) != CXCursor_Constructor || clang_CXXConstructor_isCopyConstructor(k) ||
        clang_CXXConstructor_isMoveConstructor(k))
      continue;
    CXCursor cls = clang_getCursorSemanticParent(k), param = clang_Cursor_getArgument(def, (unsigned)i);
    CXType pt = clang_getCanonicalType(clang_getCursorType(param));
    if (clang_Location_isInSystemHeader(clang_getCursorLocation(cls)) || pt.kind != CXType_LValueReference ||
        !clang_isConstQualifiedType(clang_getPointeeType(pt)) ||
        !hl_same_class(clang_getPointeeType(pt), clang_getCursorType(cls)) || !implicit_copy(cls))
      continue;
    CXCursor kdef = clang_getCursorDefinition(k);
    member_init_find m = {ctx, clang_getNullCursor(), clang_getNullCursor(), clang_getNullCursor()};
    if (clang_Cursor_isNull(kdef) || !empty_body(kdef)) continue;
    clang_visitChildren(kdef, wrapper_init, &m);
    param_copy p = {param, clang_getCanonicalCursor(cls), clang_getNullCursor(), clang_getCursorType(cls), 0};
    if (clang_Cursor_isNull(m.init)) continue;
    clang_visitChildren(def, copies_param, &p);
    int assign;
    void *record = clang_Cursor_isNull(p.at) ? NULL : F->hooks.store(ctx, m.init, &assign);
    if (!record) continue;
    flow_store s = {record, clang_getNullCursor(), -1, 0};
    HL_PUSH(F->stores, F->nstores, F->capstores, s);
    hl_flow_class_copy cc = {(int)F->nstores - 1, cls, m.member, call, p.at, p.keyed};
    HL_PUSH(F->ccopies, F->nccopies, F->capccopies, cc);
  }
}

const hl_flow_class_copy *hl_flow_class_copies(const hl_flow *F, size_t *n) {
  *n = F->nccopies;
  return F->ccopies;
}
