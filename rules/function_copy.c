/* function-copy: a copy of a std::function (or std::any, or a profile's
 * copyable wrapper) whose target is known to be on the heap, so the copy
 * allocates again. Reported only when every value that can reach the copied
 * variable, member or parameter is a construction the sbo engine judges as
 * heap-stored; a copy of anything else stays silent. Fixes: a const
 * reference parameter where the callee only reads it, else std::move at a
 * last use. See docs/rules/function-copy.md.
 *
 * The walk records, for each tracked declaration (a local variable, a
 * by-value parameter of a function only this translation unit calls, and
 * only by name, a member of a class only this file defines), every value put
 * into it (a "write": a store the sbo engine judges, a copy of another
 * tracked declaration, or something unknown) and every other use; a use
 * that could change its target (a non-const member call, a move, a
 * non-const reference, its address) "taints" it. After the walk a
 * declaration is known to hold a heap target when it is untainted and all
 * its writes are allocating stores or copies of such declarations. */
#include <stdlib.h>
#include <string.h>

#include "util/strv.h"
#include "util/util.h"
#include "rules/lib/rewrite.h"
#include "rules/lib/uses.h"
#include "rules/sbo/judge.h"
#include "rules/sbo/match.h"
#include "rules/sbo/sbo.h"
#include "rules/sbo/templates.h"

/* The two rules whose wrappers can be copied word what is stored. */
extern const hl_sbo_wording hl_function_sbo_wording;
extern const hl_sbo_wording hl_any_sbo_wording;

typedef struct tracked {
  CXCursor cursor; /* canonical VarDecl, ParmDecl or FieldDecl */
  int tainted;
  int not_only_read; /* some use copies, captures, assigns or taints it */
  int has_init;      /* a local's initializer is one of its writes */
  int moves;         /* how often it is moved from (std::move into a wrapper) */
  int state;         /* known(): 0 not computed, 1 computing, 2 done */
  int origin;        /* known(): the allocating store its target comes from, or -1 */
} tracked;

/* A value put into a declaration: a store, a copy, the value another
 * declaration holds (alias: moved from it, or bound to a const reference
 * parameter), or unknown (all -1). */
typedef struct value_write {
  int decl;
  int store, copy, alias;
  int move;      /* alias: moved from it */
  CXCursor expr; /* the initializer or argument, while its store or copy is not yet seen */
} value_write;

typedef struct judged_store {
  hl_sbo_site site;
  hl_sbo_verdict verdict;
  CXCursor arg_of; /* a temporary passed to this call, or a null cursor */
  int arg_index;
} judged_store;

/* A member initializer inside a template copying a constructor's parameter
 * into a member whose type depends on the template (Node(const Callback_ &cb)
 * : cb(cb)): a copy of a wrapper in the instantiations where it is one,
 * which a conversion probe tells. */
typedef struct template_copy {
  hl_sbo_site site; /* the conversion site (its expr is the parameter) */
  CXCursor fn;      /* the constructor */
  int param;
} template_copy;

/* A temporary of a class that holds a wrapper, built by a call's
 * argument and copied whole by the function called (eventpp's AnyId, whose
 * std::any holds the event, copied into a map as its key): the class's
 * implicit copy constructor copies the wrapper. */
typedef struct class_copy {
  int store;       /* the member's store in the converting constructor (S->stores) */
  CXCursor cls;    /* the class */
  CXCursor member; /* its wrapper member */
  CXCursor call;   /* the code's call handing the temporary over */
  CXCursor copy;   /* where the callee's instantiated body copies it */
  int keyed;       /* there as an associative container's new key */
} class_copy;

typedef enum copy_kind { COPY_CONSTRUCT, COPY_ASSIGN, COPY_CONTAINER, COPY_CAPTURE } copy_kind;

typedef struct copy_site {
  copy_kind kind;
  int from;     /* the decl copied */
  CXCursor src; /* the expression naming it */
  char *wrapper_spelling;
  hl_loc loc;
  int in_loop;
  /* For the std::move fix: the statement holding the copy, directly in the
   * block that declares the variable (or the function's body for a
   * parameter); null when it is anywhere else. */
  CXCursor stmt;
  unsigned begin, end; /* the source expression's offsets */
  int capture_form;    /* COPY_CAPTURE: 1 for [x], 2 for [y = x], 0 for an implicit [=] */
  CXCursor callee;     /* a by-value argument: the function called, or null */
  int param;           /* and which parameter it initializes */
} copy_site;

/* Every reference to a tracked declaration, for the last-use check. */
typedef struct use_ref {
  int decl;
  unsigned offset;
  int in_lambda; /* lambda_access() */
  CXCursor src;
} use_ref;

typedef struct state {
  tracked *decls;
  size_t ndecls, capdecls;
  value_write *writes;
  size_t nwrites, capwrites;
  judged_store *stores;
  size_t nstores, capstores;
  copy_site *copies;
  size_t ncopies, capcopies;
  use_ref *refs;
  size_t nrefs, caprefs;
  CXCursor *sanctioned; /* references already accounted for: copy sources, assigned left-hand sides */
  size_t nsanctioned, capsanctioned;
  CXCursor *functions; /* every declaration of a function taking a tracked parameter */
  size_t nfunctions, capfunctions;
  CXCursor *escaped; /* canonical functions named other than by a call */
  size_t nescaped, capescaped;
  template_copy *tcopies;
  size_t ntcopies, captcopies;
  class_copy *ccopies;
  size_t nccopies, capccopies;
  hl_calls *calls;
} state;

/* ---- what is tracked ---- */

static int is_wrapper_value(const hl_ctx *ctx, CXType t) {
  return !hl_is_ref(t) && !hl_is_ref(clang_getCanonicalType(t)) && hl_ctx_wrapper_of_type(ctx, t);
}

static CXCursor enclosing_class(CXCursor field) { return clang_getCursorSemanticParent(field); }

/* A parameter const W &: what it refers to is the caller's value, which the
 * callee cannot change (a copy of it copies that value). */
static int is_const_wrapper_ref(const hl_ctx *ctx, CXType t) {
  CXType c = clang_getCanonicalType(t);
  return c.kind == CXType_LValueReference && clang_isConstQualifiedType(clang_getPointeeType(c)) &&
         hl_ctx_wrapper_of_type(ctx, clang_getPointeeType(c));
}

typedef struct field_find {
  char *name;
  CXCursor found;
} field_find;

static enum CXChildVisitResult same_named_field(CXCursor c, CXCursor parent, CXClientData data) {
  (void)parent;
  field_find *F = data;
  if (clang_getCursorKind(c) != CXCursor_FieldDecl) return CXChildVisit_Continue;
  char *name = hl_cxstring_take(clang_getCursorSpelling(c));
  int same = !strcmp(name, F->name);
  free(name);
  if (same) F->found = c;
  return same ? CXChildVisit_Break : CXChildVisit_Continue;
}

/* A member of a class template's specialization (o.cb of a tm<int> o) is
 * the template's own member: the template's code names that one. */
static CXCursor pattern_field(CXCursor f) {
  if (clang_getCursorKind(f) != CXCursor_FieldDecl) return f;
  CXCursor tmpl = clang_getSpecializedCursorTemplate(enclosing_class(f));
  if (clang_Cursor_isNull(tmpl)) return f;
  field_find F = {hl_cxstring_take(clang_getCursorSpelling(f)), f};
  clang_visitChildren(tmpl, same_named_field, &F);
  free(F.name);
  return F.found;
}

/* A declaration whose every write and use this translation unit shows: a
 * local variable (not static), a by-value parameter, or a member of a class
 * defined in the main file (a header's class may be written by other
 * translation units). A parameter's writes are its function's calls: they
 * are all seen only for a function with internal linkage. */
static int trackable(const hl_ctx *ctx, CXCursor d) {
  enum CXCursorKind k = clang_getCursorKind(d);
  if (k == CXCursor_ParmDecl && is_const_wrapper_ref(ctx, clang_getCursorType(d))) return 1;
  if (!is_wrapper_value(ctx, clang_getCursorType(d))) return 0;
  if (k == CXCursor_VarDecl)
    return clang_Cursor_getStorageClass(d) != CX_SC_Static && clang_Cursor_getStorageClass(d) != CX_SC_Extern &&
           hl_is_function_like(clang_getCursorKind(clang_getCursorSemanticParent(d)));
  if (k == CXCursor_ParmDecl) return 1;
  if (k == CXCursor_FieldDecl) return clang_Location_isFromMainFile(clang_getCursorLocation(enclosing_class(d)));
  return 0;
}

static int decl_index(state *S, CXCursor d) {
  CXCursor canon = clang_getCanonicalCursor(pattern_field(d));
  for (size_t i = 0; i < S->ndecls; i++)
    if (clang_equalCursors(S->decls[i].cursor, canon)) return (int)i;
  tracked n = {canon, 0, 0, 0, 0, 0, -1};
  HL_PUSH(S->decls, S->ndecls, S->capdecls, n);
  return (int)S->ndecls - 1;
}

/* The tracked declaration an expression names (through implicit
 * conversions and parentheses), or -1. */
static int named_decl(const hl_ctx *ctx, state *S, CXCursor e, CXCursor *ref) {
  e = hl_strip(e);
  enum CXCursorKind k = clang_getCursorKind(e);
  if (k != CXCursor_DeclRefExpr && k != CXCursor_MemberRefExpr) return -1;
  CXCursor d = clang_getCursorReferenced(e);
  if (!trackable(ctx, d)) return -1;
  if (ref) *ref = e;
  return decl_index(S, d);
}

static void sanction(state *S, CXCursor ref) { HL_PUSH(S->sanctioned, S->nsanctioned, S->capsanctioned, ref); }

/* The same reference: a cursor libclang made from a call's argument
 * (clang_Cursor_getArgument) and the one its walk makes may differ in the
 * parent they record. */
static int same_ref(CXCursor a, CXCursor b) {
  if (clang_equalCursors(a, b)) return 1;
  CXSourceRange ra = clang_getCursorExtent(a), rb = clang_getCursorExtent(b);
  return clang_getCursorKind(a) == clang_getCursorKind(b) && clang_equalRanges(ra, rb) &&
         clang_equalCursors(clang_getCursorReferenced(a), clang_getCursorReferenced(b));
}

static int take_sanctioned(state *S, CXCursor ref) {
  for (size_t i = 0; i < S->nsanctioned; i++)
    if (same_ref(S->sanctioned[i], ref)) {
      S->sanctioned[i] = S->sanctioned[--S->nsanctioned];
      return 1;
    }
  return 0;
}

static void add_write(state *S, int d, int store, int copy, CXCursor expr) {
  value_write w = {d, store, copy, -1, 0, expr};
  HL_PUSH(S->writes, S->nwrites, S->capwrites, w);
}

/* d takes the value from holds: moved from it, or bound to it. */
static void add_alias(state *S, int d, int from, int move) {
  value_write w = {d, -1, -1, from, move, clang_getNullCursor()};
  HL_PUSH(S->writes, S->nwrites, S->capwrites, w);
}

/* ---- where a value goes ---- */

/* The by-value wrapper parameter i of the function a call calls, when the
 * function is defined here and only this translation unit can call it —
 * and only by name: constructors, operators and lambdas are also called
 * from the library's templates (std::make_unique, std::function, std::sort),
 * whose calls the walk does not see. */
static CXCursor param_slot(const hl_ctx *ctx, CXCursor call, unsigned i) {
  CXCursor fn = clang_getCursorReferenced(call);
  enum CXCursorKind fk = clang_getCursorKind(fn);
  if (fk != CXCursor_FunctionDecl && fk != CXCursor_CXXMethod) return clang_getNullCursor();
  if (hl_is_function_template_specialization(fn) || (fk == CXCursor_CXXMethod && clang_CXXMethod_isVirtual(fn)) ||
      hl_type_is_lambda(clang_getCursorType(clang_getCursorSemanticParent(fn))))
    return clang_getNullCursor();
  char *name = hl_cxstring_take(clang_getCursorSpelling(fn));
  int op = hl_starts_with(name, "operator");
  free(name);
  if (op) return clang_getNullCursor();
  enum CXLinkageKind l = clang_getCursorLinkage(fn);
  if (l != CXLinkage_Internal && l != CXLinkage_UniqueExternal) return clang_getNullCursor();
  CXCursor def = clang_getCursorDefinition(fn);
  if (clang_Cursor_isNull(def) || (int)i >= clang_Cursor_getNumArguments(def)) return clang_getNullCursor();
  CXCursor p = clang_Cursor_getArgument(def, i);
  return trackable(ctx, p) ? p : clang_getNullCursor();
}

typedef struct ctor_inits {
  const hl_ctx *ctx;
  state *S;
  int field; /* the member the next initializer is for, or -1 */
} ctor_inits;

static enum CXChildVisitResult member_init(CXCursor c, CXCursor parent, CXClientData d) {
  (void)parent;
  ctor_inits *I = d;
  if (clang_getCursorKind(c) == CXCursor_MemberRef) {
    CXCursor f = clang_getCursorReferenced(c);
    I->field = trackable(I->ctx, f) ? decl_index(I->S, f) : -1;
  } else if (I->field >= 0 && clang_isExpression(clang_getCursorKind(c))) {
    add_write(I->S, I->field, -1, -1, c);
    I->field = -1;
  } else {
    I->field = -1;
  }
  return CXChildVisit_Continue;
}

/* Writes whose value is an expression not yet visited: a local's or a
 * member's initializer, a constructor's member initializers, the arguments
 * bound to tracked by-value parameters. The store or copy visited as that
 * expression claims the write; one nothing claims stays unknown. */
static void expect_writes(hl_ctx *ctx, state *S, CXCursor c) {
  enum CXCursorKind k = clang_getCursorKind(c);
  if ((k == CXCursor_VarDecl || k == CXCursor_FieldDecl) && trackable(ctx, c)) {
    CXCursor init = hl_last_child(c);
    if (!clang_isExpression(clang_getCursorKind(init))) return;
    int d = decl_index(S, c);
    if (k == CXCursor_VarDecl) S->decls[d].has_init = 1;
    add_write(S, d, -1, -1, init);
  } else if (k == CXCursor_Constructor) {
    ctor_inits I = {ctx, S, -1};
    clang_visitChildren(c, member_init, &I);
  } else if (k == CXCursor_CallExpr) {
    int n = clang_Cursor_getNumArguments(c);
    for (int i = 0; i < n; i++) {
      CXCursor p = param_slot(ctx, c, (unsigned)i);
      if (clang_Cursor_isNull(p)) continue;
      CXCursor arg = clang_Cursor_getArgument(c, (unsigned)i);
      /* A const reference parameter bound to a tracked lvalue refers to
       * its value; anything else is a temporary the store or copy that
       * makes it claims. */
      int from = is_const_wrapper_ref(ctx, clang_getCursorType(p)) ? named_decl(ctx, S, arg, NULL) : -1;
      if (from >= 0)
        add_alias(S, decl_index(S, p), from, 0);
      else
        add_write(S, decl_index(S, p), -1, -1, arg);
    }
  }
}

/* The write waiting for the value c (being visited) makes, or -1. */
static int claim(hl_ctx *ctx, state *S, CXCursor c) {
  size_t k = 0;
  CXCursor below;
  hl_ctx_opaque_ancestor(ctx, &k, c, &below);
  for (size_t i = 0; i < S->nwrites; i++) {
    value_write *w = &S->writes[i];
    if (w->store < 0 && w->copy < 0 && !clang_Cursor_isNull(w->expr) && clang_equalCursors(w->expr, below)) {
      w->expr = clang_getNullCursor();
      return (int)i;
    }
  }
  return -1;
}

/* The left-hand side of an assignment call: the tracked declaration it
 * names (and the reference is accounted for), or -1. */
static int assigned(hl_ctx *ctx, state *S, CXCursor call) {
  if (clang_Cursor_getNumArguments(call) < 2) {
    /* A member call spelled a.operator=(b): the object is the callee's base. */
    CXCursor callee = hl_first_child(call);
    if (clang_getCursorKind(callee) != CXCursor_MemberRefExpr) return -1;
    CXCursor ref;
    int d = named_decl(ctx, S, hl_first_child(callee), &ref);
    if (d >= 0) {
      sanction(S, ref);
      S->decls[d].not_only_read = 1;
    }
    return d;
  }
  CXCursor ref;
  int d = named_decl(ctx, S, clang_Cursor_getArgument(call, 0), &ref);
  if (d >= 0) {
    sanction(S, ref);
    S->decls[d].not_only_read = 1;
  }
  return d;
}

/* ---- finding the copies ---- */

static int is_const_lvalue_ref_to(CXType p, CXType cls) {
  CXType c = clang_getCanonicalType(p);
  return c.kind == CXType_LValueReference && clang_isConstQualifiedType(clang_getPointeeType(c)) &&
         hl_same_class(clang_getPointeeType(c), cls);
}

/* Whether the call c moves into a wrapper: its move constructor or move
 * assignment, from std::move(x) (or std::forward) of a tracked x. Sets
 * *kind (COPY_CONSTRUCT or COPY_ASSIGN) and *ref (x's reference); returns
 * x, or -1. */
static int move_call(const hl_ctx *ctx, state *S, CXCursor c, copy_kind *kind, CXCursor *ref) {
  CXCursor fn = clang_getCursorReferenced(c);
  enum CXCursorKind fk = clang_getCursorKind(fn);
  CXType fty = clang_getCursorType(fn);
  int nargs = clang_Cursor_getNumArguments(c);
  if ((fk != CXCursor_Constructor && fk != CXCursor_CXXMethod) || nargs < 1 || clang_getNumArgTypes(fty) != 1 ||
      hl_is_function_template_specialization(fn))
    return -1;
  CXCursor cls = clang_getCursorSemanticParent(fn);
  CXType p = clang_getCanonicalType(clang_getArgType(fty, 0));
  if (!hl_ctx_wrapper_of_decl(ctx, cls) || p.kind != CXType_RValueReference ||
      clang_isConstQualifiedType(clang_getPointeeType(p)) ||
      !hl_same_class(clang_getPointeeType(p), clang_getCursorType(cls)))
    return -1;
  char *name = hl_cxstring_take(clang_getCursorSpelling(fn));
  int assign = !strcmp(name, "operator=");
  free(name);
  if (fk == CXCursor_CXXMethod && !assign) return -1;
  *kind = assign ? COPY_ASSIGN : COPY_CONSTRUCT;
  CXCursor e = hl_strip(clang_Cursor_getArgument(c, (unsigned)nargs - 1));
  if (clang_getCursorKind(e) != CXCursor_CallExpr || clang_Cursor_getNumArguments(e) != 1) return -1;
  char *callee = hl_decl_name(clang_getCursorReferenced(e));
  int moves = !strcmp(callee, "std::move") || !strcmp(callee, "std::forward");
  free(callee);
  return moves ? named_decl(ctx, S, clang_Cursor_getArgument(e, 0), ref) : -1;
}

static const char *const container_copiers[] = {"push_back",    "push_front",    "insert",
                                                "emplace_back", "emplace_front", "emplace"};

/* Whether the call c copies a wrapper: its copy constructor or copy
 * assignment, or a standard container's member copying an lvalue into a new
 * element. Sets *kind and *src (the copied expression). */
static const hl_wrapper *copy_call(const hl_ctx *ctx, CXCursor c, copy_kind *kind, CXCursor *src) {
  CXCursor fn = clang_getCursorReferenced(c);
  enum CXCursorKind fk = clang_getCursorKind(fn);
  if (fk != CXCursor_Constructor && fk != CXCursor_CXXMethod) return NULL;
  int nargs = clang_Cursor_getNumArguments(c);
  CXType fty = clang_getCursorType(fn);
  if (nargs < 1 || clang_getNumArgTypes(fty) < 1) return NULL;
  CXCursor cls = clang_getCursorSemanticParent(fn);
  CXType last = clang_getArgType(fty, (unsigned)clang_getNumArgTypes(fty) - 1);
  const hl_wrapper *w = hl_ctx_wrapper_of_decl(ctx, cls);
  if (w) {
    if (hl_is_function_template_specialization(fn) || clang_getNumArgTypes(fty) != 1 ||
        !is_const_lvalue_ref_to(last, clang_getCursorType(cls)))
      return NULL;
    char *name = hl_cxstring_take(clang_getCursorSpelling(fn));
    int assign = !strcmp(name, "operator=");
    free(name);
    if (fk == CXCursor_CXXMethod && !assign) return NULL;
    *kind = assign ? COPY_ASSIGN : COPY_CONSTRUCT;
    *src = clang_Cursor_getArgument(c, (unsigned)nargs - 1);
    return w;
  }
  if (fk != CXCursor_CXXMethod) return NULL;
  char *name = hl_cxstring_take(clang_getCursorSpelling(fn));
  int copier = 0;
  for (size_t i = 0; i < sizeof container_copiers / sizeof *container_copiers; i++)
    copier |= !strcmp(name, container_copiers[i]);
  free(name);
  char *tname = hl_template_name(clang_getCursorType(cls));
  int standard = hl_starts_with(tname, "std::");
  free(tname);
  /* The element built from an lvalue (const T& or, through a forwarding
   * reference, T&) of the element's own class is a copy. */
  CXType lc = clang_getCanonicalType(last);
  if (!copier || !standard || lc.kind != CXType_LValueReference) return NULL;
  CXType elem = clang_getPointeeType(lc);
  w = hl_ctx_wrapper_of_type(ctx, elem);
  if (!w || !hl_same_class(clang_Type_getTemplateArgumentAsType(clang_getCursorType(cls), 0), elem)) return NULL;
  *kind = COPY_CONTAINER;
  *src = clang_Cursor_getArgument(c, (unsigned)nargs - 1);
  return w;
}

static unsigned offset_of(CXSourceLocation l) {
  unsigned off;
  clang_getFileLocation(l, NULL, NULL, NULL, &off);
  return off;
}

/* The statement holding the cursor being visited, when it sits directly in
 * the block that declares d (for a parameter: its function's body), with
 * no loop or lambda in between (for a capture, the lambda's creation
 * counts); else a null cursor. */
static CXCursor straight_stmt(const hl_ctx *ctx, CXCursor self, CXCursor d, int capture) {
  CXCursor below = self;
  for (size_t k = 0; !clang_Cursor_isNull(hl_ctx_ancestor(ctx, k)); k++) {
    CXCursor a = hl_ctx_ancestor(ctx, k);
    enum CXCursorKind ak = clang_getCursorKind(a);
    if (capture && ak == CXCursor_LambdaExpr) {
      /* A capture is made where the lambda is created. */
      capture = 0;
      below = a;
      continue;
    }
    if (ak == CXCursor_ForStmt || ak == CXCursor_WhileStmt || ak == CXCursor_DoStmt || ak == CXCursor_CXXForRangeStmt ||
        ak == CXCursor_LambdaExpr || hl_is_function_like(ak))
      return clang_getNullCursor();
    if (ak != CXCursor_CompoundStmt) {
      below = a;
      continue;
    }
    if (clang_getCursorKind(d) == CXCursor_ParmDecl) {
      CXCursor fn = hl_ctx_ancestor(ctx, k + 1);
      return hl_is_function_like(clang_getCursorKind(fn)) && clang_getCursorKind(fn) != CXCursor_LambdaExpr &&
                     clang_equalCursors(clang_getCanonicalCursor(fn),
                                        clang_getCanonicalCursor(clang_getCursorSemanticParent(d)))
                 ? below
                 : clang_getNullCursor();
    }
    /* d is declared in this block: a block nested in it would hide d from
     * the copy, one around it is outside its extent. */
    unsigned at = offset_of(clang_getCursorLocation(d));
    CXSourceRange r = clang_getCursorExtent(a);
    if (at < offset_of(clang_getRangeStart(r)) || at > offset_of(clang_getRangeEnd(r))) return clang_getNullCursor();
    return below;
  }
  return clang_getNullCursor();
}

typedef struct capture_find {
  CXCursor d;
  int found;
} capture_find;

static enum CXChildVisitResult by_copy(CXCursor c, CXCursor parent, CXClientData data) {
  (void)parent;
  capture_find *F = data;
  CXCursor e = hl_strip(c);
  if (clang_getCursorKind(e) == CXCursor_DeclRefExpr &&
      clang_equalCursors(clang_getCanonicalCursor(clang_getCursorReferenced(e)), F->d))
    F->found = 1;
  return F->found ? CXChildVisit_Break : CXChildVisit_Continue;
}

/* Whether the lambda captures d by copy: each capture by copy ([x], [y = x],
 * or what [=] takes) is an expression among its children. */
static int captures_by_copy(CXCursor lambda, CXCursor d) {
  capture_find F = {clang_getCanonicalCursor(d), 0};
  clang_visitChildren(lambda, by_copy, &F);
  return F.found;
}

/* How the reference being visited reaches d: directly (0); from the body
 * of a lambda holding d by reference (1), a closure that may run after any
 * later statement; or only from bodies of lambdas holding their own copy of
 * d (2), which do not read d itself. A capture's own expression belongs to
 * the scope that creates the lambda. */
static int lambda_access(const hl_ctx *ctx, CXCursor self, CXCursor d) {
  unsigned at = offset_of(clang_getCursorLocation(d));
  size_t top = 0;
  CXCursor capturing = hl_ctx_opaque_ancestor(ctx, &top, self, NULL);
  int r = 0;
  for (size_t k = 0; !clang_Cursor_isNull(hl_ctx_ancestor(ctx, k)); k++) {
    CXCursor a = hl_ctx_ancestor(ctx, k);
    if (clang_getCursorKind(a) != CXCursor_LambdaExpr || (k == top && clang_equalCursors(a, capturing))) continue;
    CXSourceRange rg = clang_getCursorExtent(a);
    if (at >= offset_of(clang_getRangeStart(rg)) && at <= offset_of(clang_getRangeEnd(rg))) continue;
    if (!captures_by_copy(a, d)) return 1;
    r = 2;
  }
  return r;
}

/* [x] (1), [y = x] (2), or an implicit capture by [=] (0): read off the
 * tokens around the copied name. */
static int capture_form(const hl_ctx *ctx, CXCursor ref) {
  CXSourceRange r = clang_getCursorExtent(ref);
  CXToken *toks = NULL;
  unsigned n = 0;
  clang_tokenize(hl_ctx_tu(ctx), r, &toks, &n);
  int form = 0;
  if (n == 1) {
    char *name = hl_cxstring_take(clang_getCursorSpelling(clang_getCursorReferenced(ref)));
    char *t = hl_cxstring_take(clang_getTokenSpelling(hl_ctx_tu(ctx), toks[0]));
    if (!strcmp(name, t)) {
      /* The token before it: '[' or ',' starts a simple capture, '=' ends
       * an init-capture's name. */
      CXFile file;
      unsigned off;
      clang_getFileLocation(clang_getRangeStart(r), &file, NULL, NULL, &off);
      size_t size;
      const char *text = clang_getFileContents(hl_ctx_tu(ctx), file, &size);
      while (text && off > 0 && (text[off - 1] == ' ' || text[off - 1] == '\t' || text[off - 1] == '\n')) off--;
      if (text && off > 0) form = text[off - 1] == '=' ? 2 : (text[off - 1] == '[' || text[off - 1] == ',') ? 1 : 0;
    }
    free(name);
    free(t);
  }
  clang_disposeTokens(hl_ctx_tu(ctx), toks, n);
  return form;
}

static void add_copy(hl_ctx *ctx, state *S, copy_kind kind, const hl_wrapper *w, CXCursor at, CXCursor src_ref,
                     int from, int in_loop) {
  if (!w) return;
  copy_site c;
  memset(&c, 0, sizeof c);
  c.kind = kind;
  c.from = from;
  c.src = src_ref;
  c.in_loop = in_loop;
  if (hl_ctx_loc(ctx, clang_getCursorLocation(src_ref), &c.loc)) return;
  char *canon = hl_type_spelling(clang_getCanonicalType(hl_unref(clang_getCursorType(src_ref))));
  const char *args = strchr(canon, '<');
  c.wrapper_spelling = hl_xasprintf("%s%s", w->name, args ? args : "");
  free(canon);
  CXSourceRange r = clang_getCursorExtent(src_ref);
  c.begin = offset_of(clang_getRangeStart(r));
  c.end = offset_of(clang_getRangeEnd(r));
  CXCursor d = S->decls[from].cursor;
  c.stmt = clang_getCursorKind(d) == CXCursor_FieldDecl ? clang_getNullCursor()
                                                        : straight_stmt(ctx, at, d, kind == COPY_CAPTURE);
  if (kind == COPY_CAPTURE) c.capture_form = capture_form(ctx, src_ref);
  c.callee = clang_getNullCursor();
  if (kind == COPY_CONSTRUCT) {
    /* A by-value argument: the callee might take a const reference instead. */
    size_t k = 0;
    CXCursor below;
    CXCursor call = hl_ctx_opaque_ancestor(ctx, &k, at, &below);
    int n = clang_getCursorKind(call) == CXCursor_CallExpr ? clang_Cursor_getNumArguments(call) : 0;
    for (int i = 0; i < n; i++)
      if (clang_equalCursors(clang_Cursor_getArgument(call, (unsigned)i), below)) {
        c.callee = clang_getCanonicalCursor(clang_getCursorReferenced(call));
        c.param = i;
      }
  }
  HL_PUSH(S->copies, S->ncopies, S->capcopies, c);
}

/* Whether the lambda around the capture being visited is created in a loop
 * body (its own body runs when it is called, not per iteration). */
static int lambda_in_loop(const hl_ctx *ctx) {
  for (size_t k = 0;; k++) {
    CXCursor a = hl_ctx_ancestor(ctx, k);
    if (clang_Cursor_isNull(a)) return 0;
    if (clang_getCursorKind(a) == CXCursor_LambdaExpr) return !clang_Cursor_isNull(hl_loop_above(ctx, k + 1, a));
  }
}

/* A reference to a tracked declaration that is not a copy or an assigned
 * left-hand side: harmless when it only reads (the wrapper called or
 * tested, a const member, bound to a const reference parameter); anything
 * else may change or empty the target, and taints it. */
static int only_reads(const hl_ctx *ctx, CXCursor ref) {
  size_t k = 0;
  CXCursor below;
  CXCursor a = hl_ctx_opaque_ancestor(ctx, &k, ref, &below);
  enum CXCursorKind ak = clang_getCursorKind(a);
  if (ak == CXCursor_MemberRefExpr || ak == CXCursor_CallExpr) {
    CXCursor fn = clang_getCursorReferenced(a);
    enum CXCursorKind fk = clang_getCursorKind(fn);
    if (fk == CXCursor_CXXMethod || fk == CXCursor_ConversionFunction) {
      /* The object of a member call: a.f(), a(), if (a). */
      int object = ak == CXCursor_MemberRefExpr || clang_equalCursors(hl_first_child(a), below);
      if (object && hl_ctx_wrapper_of_decl(ctx, clang_getCursorSemanticParent(fn))) return clang_CXXMethod_isConst(fn);
    }
    if (ak == CXCursor_CallExpr) {
      CXType fty = clang_getCursorType(fn);
      int n = clang_Cursor_getNumArguments(a), np = clang_getNumArgTypes(fty);
      for (int i = 0; i < n && i < np; i++)
        if (clang_equalCursors(clang_Cursor_getArgument(a, (unsigned)i), below))
          return is_const_lvalue_ref_to(clang_getArgType(fty, (unsigned)i), clang_getCursorType(ref));
    }
  }
  return 0;
}

/* A function named but not called (its address taken, bound to a
 * reference): calls through it are not seen, so neither are all the
 * values of its parameters. */
static void escaped_function(const hl_ctx *ctx, state *S, CXCursor fn) {
  CXCursor def = clang_getCursorDefinition(fn);
  int n = clang_Cursor_isNull(def) ? 0 : clang_Cursor_getNumArguments(def);
  for (int i = 0; i < n; i++) {
    CXCursor p = clang_Cursor_getArgument(def, (unsigned)i);
    if (trackable(ctx, p)) add_write(S, decl_index(S, p), -1, -1, clang_getNullCursor());
  }
}

typedef struct fields {
  const hl_ctx *ctx;
  state *S;
} fields;

static enum CXVisitorResult unknown_field(CXCursor f, CXClientData d) {
  fields *F = d;
  if (trackable(F->ctx, f)) add_write(F->S, decl_index(F->S, f), -1, -1, clang_getNullCursor());
  return CXVisit_Continue;
}

/* A class's members initialized by a braced list (aggregate
 * initialization): values heaplint does not follow. */
static void aggregate_writes(const hl_ctx *ctx, state *S, CXCursor list) {
  CXType t = clang_getCanonicalType(clang_getCursorType(list));
  if (t.kind != CXType_Record || hl_ctx_wrapper_of_type(ctx, t)) return;
  fields F = {ctx, S};
  clang_Type_visitFields(t, unknown_field, &F);
}

/* A wrapper built or assigned by moving from the tracked from: it holds
 * from's value, and from is left empty (its own copies are no longer
 * known). */
static void moved_into(hl_ctx *ctx, state *S, CXCursor c, copy_kind kind, int from, CXCursor ref) {
  sanction(S, ref);
  S->decls[from].moves++;
  S->decls[from].not_only_read = 1;
  int into = kind == COPY_ASSIGN ? assigned(ctx, S, c) : -1;
  int w = kind == COPY_CONSTRUCT ? claim(ctx, S, c) : -1;
  if (w >= 0) {
    S->writes[w].alias = from;
    S->writes[w].move = 1;
    S->writes[w].expr = clang_getNullCursor();
  } else if (into >= 0 && into != from) {
    add_alias(S, into, from, 1);
  } else if (into >= 0) {
    S->decls[into].tainted = 1;
  }
}

/* A store (a construction the sbo engine judges) into a tracked
 * declaration: one of its writes. */
static void store_into(hl_ctx *ctx, state *S, CXCursor c) {
  judged_store s;
  memset(&s, 0, sizeof s);
  if (!hl_sbo_match(ctx, c, &s.site)) return;
  int w = s.site.store_kind == HL_STORE_ASSIGN ? -1 : claim(ctx, S, c);
  int target = s.site.store_kind == HL_STORE_ASSIGN ? assigned(ctx, S, c) : w >= 0 ? S->writes[w].decl : -1;
  s.arg_of = clang_getNullCursor();
  s.arg_index = -1;
  if (target < 0) {
    /* A temporary handed to a call: a template's copy of it may be known. */
    size_t k = 0;
    CXCursor below;
    CXCursor call = hl_ctx_opaque_ancestor(ctx, &k, c, &below);
    int n = clang_getCursorKind(call) == CXCursor_CallExpr ? clang_Cursor_getNumArguments(call) : 0;
    for (int i = 0; i < n && s.arg_index < 0; i++)
      if (same_ref(clang_Cursor_getArgument(call, (unsigned)i), below)) {
        s.arg_of = call;
        s.arg_index = i;
      }
    if (s.arg_index < 0) {
      hl_sbo_site_free(&s.site);
      return;
    }
  }
  HL_PUSH(S->stores, S->nstores, S->capstores, s);
  if (w >= 0)
    S->writes[w].store = (int)S->nstores - 1;
  else if (target >= 0)
    add_write(S, target, (int)S->nstores - 1, -1, clang_getNullCursor());
}

/* ---- copies of a class that holds a wrapper ---- */

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
    m->field = is_wrapper_value(m->ctx, clang_getCursorType(f)) ? f : clang_getNullCursor();
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
 * instantiated body copies that parameter whole. The store is judged with
 * the others; the copy is reported when it allocates. */
static void class_copy_call(hl_ctx *ctx, state *S, CXCursor call) {
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
    judged_store s;
    memset(&s, 0, sizeof s);
    if (clang_Cursor_isNull(p.at) || !hl_sbo_match(ctx, m.init, &s.site)) continue;
    s.arg_of = clang_getNullCursor();
    s.arg_index = -1;
    HL_PUSH(S->stores, S->nstores, S->capstores, s);
    class_copy cc = {(int)S->nstores - 1, cls, m.member, call, p.at, p.keyed};
    HL_PUSH(S->ccopies, S->nccopies, S->capccopies, cc);
  }
}

/* The template copies at a constructor (or constructor template). */
static void template_copies(hl_ctx *ctx, state *S, CXCursor ctor) {
  hl_sbo_site *v;
  size_t n = hl_sbo_template_sites(ctx, ctor, &v);
  for (size_t i = 0; i < n; i++) {
    CXCursor e = hl_strip(v[i].expr);
    CXCursor p = clang_getCursorKind(e) == CXCursor_DeclRefExpr ? clang_getCursorReferenced(e) : clang_getNullCursor();
    int param = -1;
    for (int j = 0; clang_getCursorKind(p) == CXCursor_ParmDecl && j < clang_Cursor_getNumArguments(ctor); j++)
      if (clang_equalCursors(clang_getCanonicalCursor(clang_Cursor_getArgument(ctor, (unsigned)j)),
                             clang_getCanonicalCursor(p)))
        param = j;
    if (!v[i].convert || !v[i].convert_type || param < 0) {
      hl_sbo_site_free(&v[i]);
      continue;
    }
    template_copy t = {v[i], ctor, param};
    HL_PUSH(S->tcopies, S->ntcopies, S->captcopies, t);
  }
  free(v);
}

static void visit(hl_ctx *ctx, void *st, CXCursor c) {
  state *S = st;
  enum CXCursorKind k = clang_getCursorKind(c);
  expect_writes(ctx, S, c);
  if (k == CXCursor_Constructor) template_copies(ctx, S, c);
  if (k == CXCursor_FunctionDecl || k == CXCursor_CXXMethod || k == CXCursor_Constructor) {
    int n = clang_Cursor_getNumArguments(c), any = 0;
    for (int i = 0; i < n && !any; i++) any = trackable(ctx, clang_Cursor_getArgument(c, (unsigned)i));
    if (any) HL_PUSH(S->functions, S->nfunctions, S->capfunctions, c);
    return;
  }
  if (k == CXCursor_CallExpr) {
    hl_calls_visit(S->calls, ctx, c);
    store_into(ctx, S, c);
    class_copy_call(ctx, S, c);
    copy_kind kind;
    CXCursor src, ref;
    int moved = move_call(ctx, S, c, &kind, &ref);
    if (moved >= 0) {
      moved_into(ctx, S, c, kind, moved, ref);
      return;
    }
    const hl_wrapper *wr = copy_call(ctx, c, &kind, &src);
    int from = wr ? named_decl(ctx, S, src, &ref) : -1;
    if (from >= 0) {
      sanction(S, ref);
      S->decls[from].not_only_read = 1;
      add_copy(ctx, S, kind, wr, c, ref, from, !clang_Cursor_isNull(hl_loop_around(ctx, c)));
      int into = kind == COPY_ASSIGN ? assigned(ctx, S, c) : -1;
      int w = kind == COPY_CONSTRUCT ? claim(ctx, S, c) : -1;
      if (w >= 0)
        S->writes[w].copy = (int)S->ncopies - 1;
      else if (into >= 0 && into != from)
        add_write(S, into, -1, (int)S->ncopies - 1, clang_getNullCursor());
      else if (into >= 0)
        S->decls[into].tainted = 1;
    } else if (wr && kind == COPY_ASSIGN) {
      /* An assignment from an unknown wrapper. */
      int into = assigned(ctx, S, c);
      if (into >= 0) add_write(S, into, -1, -1, clang_getNullCursor());
    }
    return;
  }
  if (k == CXCursor_InitListExpr) {
    aggregate_writes(ctx, S, c);
    return;
  }
  if (k != CXCursor_DeclRefExpr && k != CXCursor_MemberRefExpr) return;
  CXCursor d = clang_getCursorReferenced(c);
  enum CXCursorKind dk = clang_getCursorKind(d);
  if (dk == CXCursor_FunctionDecl || dk == CXCursor_CXXMethod) {
    size_t depth = 0;
    CXCursor a = hl_ctx_opaque_ancestor(ctx, &depth, c, NULL);
    if (clang_getCursorKind(a) != CXCursor_CallExpr || !clang_equalCursors(clang_getCursorReferenced(a), d)) {
      escaped_function(ctx, S, d);
      HL_PUSH(S->escaped, S->nescaped, S->capescaped, clang_getCanonicalCursor(d));
    }
    return;
  }
  if (!trackable(ctx, d)) return;
  int i = decl_index(S, d);
  use_ref r = {i, offset_of(clang_getCursorLocation(c)), lambda_access(ctx, c, d), c};
  HL_PUSH(S->refs, S->nrefs, S->caprefs, r);
  if (take_sanctioned(S, c)) return;
  size_t depth = 0;
  CXCursor a = hl_ctx_opaque_ancestor(ctx, &depth, c, NULL);
  if (clang_getCursorKind(a) == CXCursor_LambdaExpr) {
    /* Captured by copy ([x], [y = x], [=]); a capture by reference is no
     * expression of its own. */
    S->decls[i].not_only_read = 1;
    /* d may be a const reference parameter: the capture copies its referee. */
    add_copy(ctx, S, COPY_CAPTURE, hl_ctx_wrapper_of_type(ctx, hl_unref(clang_getCursorType(d))), c, c, i,
             lambda_in_loop(ctx));
    return;
  }
  if (!only_reads(ctx, c)) S->decls[i].tainted = S->decls[i].not_only_read = 1;
}

/* ---- after the walk ---- */

static int known(state *S, int d);

/* The same for a declaration read (copied, or bound to a reference)
 * anywhere: one also moved from may be empty there. */
static int known_unmoved(state *S, int d) { return S->decls[d].moves ? -1 : known(S, d); }

/* The allocating store whose target d holds whatever path its value took,
 * or -1: d is untainted, a local has an initializer, and each of its
 * writes is an allocating store or a copy of a declaration with one. */
static int known(state *S, int d) {
  tracked *D = &S->decls[d];
  if (D->state == 2) return D->origin;
  if (D->state == 1) return -1; /* a cycle of copies: no store starts it */
  D->state = 1;
  int ok = !D->tainted && (clang_getCursorKind(D->cursor) != CXCursor_VarDecl || D->has_init);
  int origin = -1, any = 0;
  for (size_t i = 0; i < S->nwrites && ok; i++) {
    const value_write *w = &S->writes[i];
    if (w->decl != d) continue;
    any = 1;
    int o = w->store >= 0 && S->stores[w->store].verdict.allocates == HL_YES ? w->store
            : w->copy >= 0                                                   ? known_unmoved(S, S->copies[w->copy].from)
            : w->alias >= 0 && w->move && S->decls[w->alias].moves == 1      ? known(S, w->alias)
            : w->alias >= 0 && !w->move                                      ? known_unmoved(S, w->alias)
                                                                             : -1;
    if (o < 0)
      ok = 0;
    else if (origin < 0)
      origin = o;
  }
  D = &S->decls[d];
  D->state = 2;
  D->origin = ok && any ? origin : -1;
  return D->origin;
}

/* The copy is the variable's last use, in straight-line code: nothing
 * refers to it later, nor elsewhere in the copy's statement, nor from a
 * lambda (which may run later). Then std::move loses nothing. */
static int last_use(const state *S, const copy_site *c) {
  if (clang_Cursor_isNull(c->stmt) || (c->kind == COPY_CAPTURE && c->capture_form == 0)) return 0;
  CXCursor d = S->decls[c->from].cursor;
  if (clang_isConstQualifiedType(clang_getCursorType(d)) || hl_is_ref(clang_getCursorType(d))) return 0;
  unsigned stmt_begin = offset_of(clang_getRangeStart(clang_getCursorExtent(c->stmt)));
  for (size_t i = 0; i < S->nrefs; i++) {
    const use_ref *r = &S->refs[i];
    if (r->decl != c->from || clang_equalCursors(r->src, c->src)) continue;
    if (r->in_lambda == 1 || (r->in_lambda == 0 && r->offset >= stmt_begin)) return 0;
  }
  return 1;
}

/* An edit replacing length bytes at l by text. Returns -1 when that is not
 * plain file text (a macro). */
static int edit_at_loc(hl_ctx *ctx, CXSourceLocation l, unsigned length, const char *text, hl_edit *e) {
  CXFile file, spelled;
  unsigned line, col, off, soff;
  clang_getFileLocation(l, &file, &line, &col, &off);
  clang_getSpellingLocation(l, &spelled, NULL, NULL, &soff);
  size_t size;
  const char *contents = file ? clang_getFileContents(hl_ctx_tu(ctx), file, &size) : NULL;
  if (!contents || !clang_File_isEqual(file, spelled) || off != soff || off + length > size) return -1;
  memset(e, 0, sizeof *e);
  e->file = hl_file_abspath(file, hl_ctx_job(ctx)->directory);
  e->offset = off;
  e->length = length;
  e->line = line;
  e->col = col;
  e->text = hl_xstrdup(text);
  e->file_hash = hl_fnv1a(contents, size);
  return 0;
}

/* The same at the start (or, with at_end, the end) of c's extent. */
static int edit_at(hl_ctx *ctx, CXCursor c, int at_end, unsigned length, const char *text, hl_edit *e) {
  CXSourceRange r = clang_getCursorExtent(c);
  return edit_at_loc(ctx, at_end ? clang_getRangeEnd(r) : clang_getRangeStart(r), length, text, e);
}

/* The std::move fix of a copy at a last use, as edits on f and a note. */
static void move_fix(hl_ctx *ctx, const state *S, const copy_site *c, hl_finding *f) {
  char *name = hl_cxstring_take(clang_getCursorSpelling(S->decls[c->from].cursor));
  hl_edit e[2];
  int n = 0, ok;
  if (c->kind == COPY_CAPTURE && c->capture_form == 1) {
    char *t = hl_xasprintf("%s = std::move(%s)", name, name);
    ok = !edit_at(ctx, c->src, 0, c->end - c->begin, t, &e[n++]);
    free(t);
  } else {
    ok = !edit_at(ctx, c->src, 0, 0, "std::move(", &e[n++]);
    if (ok) ok = !edit_at(ctx, c->src, 1, 0, ")", &e[n++]);
  }
  if (ok) {
    for (int i = 0; i < n; i++) hl_finding_edit(f, &e[i]);
    hl_edit inc;
    if (!hl_rewrite_include(ctx, e[0].file, "utility", &inc)) {
      hl_finding_edit(f, &inc);
      hl_edit_free(&inc);
    }
    char *m = c->kind == COPY_CAPTURE
                  ? hl_xasprintf(
                        "fix: this is the last use of '%s': capture it by moving (%s = std::move(%s)), which "
                        "hands its target over without allocating",
                        name, name, name)
                  : hl_xasprintf(
                        "fix: this is the last use of '%s': std::move(%s) hands its target over without "
                        "allocating",
                        name, name);
    hl_finding_note(f, &c->loc, m);
    free(m);
  }
  for (int i = 0; i < n; i++) hl_edit_free(&e[i]);
  free(name);
}

/* The callee of a by-value argument, when it only reads the parameter
 * (calls it, tests it, reads it through const members and const
 * references): a const reference would do, and no copy would be made.
 * Returns its definition's parameter, or a null cursor. */
static CXCursor read_only_param(const state *S, const copy_site *c) {
  CXCursor none = clang_getNullCursor();
  if (clang_Cursor_isNull(c->callee)) return none;
  CXCursor def = clang_getCursorDefinition(c->callee);
  enum CXCursorKind k = clang_getCursorKind(def);
  if (k != CXCursor_FunctionDecl && k != CXCursor_CXXMethod && k != CXCursor_Constructor) return none;
  if (hl_is_function_template_specialization(def) || (k == CXCursor_CXXMethod && clang_CXXMethod_isVirtual(def)))
    return none;
  if (c->param >= clang_Cursor_getNumArguments(def)) return none;
  CXCursor p = clang_getCanonicalCursor(clang_Cursor_getArgument(def, (unsigned)c->param));
  for (size_t i = 0; i < S->ndecls; i++)
    if (clang_equalCursors(S->decls[i].cursor, p) && S->decls[i].not_only_read) return none;
  return p;
}

/* Why the parameter's declarations cannot all be rewritten, or NULL. */
static const char *const_ref_blocked(const state *S, const copy_site *c) {
  for (size_t i = 0; i < S->nescaped; i++)
    if (clang_equalCursors(S->escaped[i], c->callee)) return "the function's address is taken";
  for (size_t i = 0; i < S->nfunctions; i++) {
    CXCursor f = S->functions[i];
    if (!clang_equalCursors(clang_getCanonicalCursor(f), c->callee)) continue;
    CXCursor p = clang_Cursor_getArgument(f, (unsigned)c->param);
    char *name = hl_cxstring_take(clang_getCursorSpelling(p));
    int unnamed = !name[0];
    free(name);
    if (unnamed) return "a declaration leaves the parameter unnamed";
    if (clang_Location_isInSystemHeader(clang_getCursorLocation(f))) return "it is declared in a system header";
  }
  return NULL;
}

/* The const& fix: each declaration's parameter "T x" becomes "const T &x". */
static int const_ref_edits(hl_ctx *ctx, const state *S, const copy_site *c, hl_finding *f) {
  hl_edit *e = NULL;
  size_t n = 0, cap = 0;
  int ok = 1;
  for (size_t i = 0; i < S->nfunctions && ok; i++) {
    CXCursor fn = S->functions[i];
    if (!clang_equalCursors(clang_getCanonicalCursor(fn), c->callee)) continue;
    CXCursor p = clang_Cursor_getArgument(fn, (unsigned)c->param);
    hl_edit ed;
    if (!clang_isConstQualifiedType(clang_getCursorType(p))) {
      ok = !edit_at(ctx, p, 0, 0, "const ", &ed);
      if (ok) HL_PUSH(e, n, cap, ed);
    }
    /* '&' goes right before the name, where the cursor is. */
    if (ok) ok = !edit_at_loc(ctx, clang_getCursorLocation(p), 0, "&", &ed);
    if (ok) HL_PUSH(e, n, cap, ed);
  }
  if (ok)
    for (size_t i = 0; i < n; i++) hl_finding_edit(f, &e[i]);
  for (size_t i = 0; i < n; i++) hl_edit_free(&e[i]);
  free(e);
  return ok;
}

static const hl_sbo_wording *wording_of(const hl_wrapper *w) {
  if (!strcmp(w->rule, "function-sbo")) return &hl_function_sbo_wording;
  if (!strcmp(w->rule, "any-sbo")) return &hl_any_sbo_wording;
  return NULL;
}

static void report(hl_ctx *ctx, const state *S, const copy_site *c, const judged_store *o, const hl_loc *via) {
  const hl_sbo_site *s = &o->site;
  const hl_sbo_wording *wd = wording_of(s->wrapper);
  char *noun = wd ? wd->noun(ctx, s) : hl_xstrdup("value");
  const char *lib = s->wrapper->profile->library ? s->wrapper->profile->library : s->wrapper->name;
  char *m = hl_xasprintf("copying this %s allocates again%s: its target (a %s, %ld bytes) is stored on the heap by %s",
                         c->wrapper_spelling, c->in_loop ? " on every iteration of the enclosing loop" : "", noun,
                         o->verdict.size, lib);
  hl_finding *f = hl_finding_new("function-copy", HL_SEV_WARNING, &c->loc, m);
  free(m);
  hl_ctx_range(ctx, f, c->src);
  hl_sb b = {0};
  hl_sb_printf(&b, "its target is stored here: ");
  hl_sbo_reasons(ctx, s, &o->verdict, &b);
  hl_finding_note(f, &s->loc, hl_sb_str(&b));
  hl_sb_free(&b);
  if (via) hl_finding_note(f, via, "copied when this call hands it over");
  CXCursor p = read_only_param(S, c);
  if (!clang_Cursor_isNull(p)) {
    const char *blocked = const_ref_blocked(S, c);
    char *fn = hl_cxstring_take(clang_getCursorSpelling(c->callee));
    char *pname = hl_cxstring_take(clang_getCursorSpelling(p));
    char *type = hl_type_spelling(clang_getCursorType(p));
    int edited = !blocked && const_ref_edits(ctx, S, c, f);
    char *note =
        hl_xasprintf("%s%s() only reads '%s': take it by const reference (const %s &%s) and no copy is made%s%s",
                     edited ? "fix: " : "", fn, pname, hl_starts_with(type, "const ") ? type + 6 : type, pname,
                     edited || !blocked ? "" : "; not rewritten automatically: ", edited || !blocked ? "" : blocked);
    hl_finding_note(f, &c->loc, note);
    free(note);
    free(type);
    free(pname);
    free(fn);
    if (!edited && last_use(S, c)) move_fix(ctx, S, c, f);
  } else if (last_use(S, c)) {
    move_fix(ctx, S, c, f);
  }
  hl_ctx_report(ctx, f);
  free(noun);
}

static void *begin(hl_ctx *ctx, const hl_rule *self) {
  (void)self;
  (void)ctx;
  state *S = hl_xcalloc(1, sizeof(state));
  S->calls = hl_calls_new();
  return S;
}

/* The allocating store whose target the call passes as argument i: a
 * temporary it builds, or a variable known to hold one; else -1. */
static int passed_store(const hl_ctx *ctx, state *S, CXCursor call, int i) {
  for (size_t k = 0; k < S->nstores; k++)
    if (S->stores[k].arg_index == i && clang_equalCursors(S->stores[k].arg_of, call) &&
        S->stores[k].verdict.allocates == HL_YES)
      return (int)k;
  int d = i < clang_Cursor_getNumArguments(call) ? named_decl(ctx, S, clang_Cursor_getArgument(call, (unsigned)i), NULL)
                                                 : -1;
  return d >= 0 ? known_unmoved(S, d) : -1;
}

/* A template copy, per instantiation its probe saw copy a wrapper: when a
 * call of the code's own hands the copied parameter (through the chain of
 * calls that instantiated it) a temporary whose target is on the heap —
 * that call, or another of the same function — the copy allocates again
 * there. Reported once, at the copy, with the store and the call. */
static void judge_template_copy(hl_ctx *ctx, state *S, const template_copy *t) {
  size_t n = 0;
  const hl_probe_hit *h = t->site.probe >= 0 ? hl_probes_hits(hl_ctx_probes(ctx), t->site.probe, &n) : NULL;
  for (size_t i = 0; i < n; i++) {
    CXCursor call;
    int arg;
    const hl_wrapper *w = hl_sbo_conversion_copy(ctx, &h[i]);
    if (!w || hl_calls_chain_argument(S->calls, &h[i], t->fn, t->param, &call, &arg)) continue;
    CXCursor *same;
    size_t ns = hl_calls_same_callee(S->calls, call, &same);
    int o = -1;
    for (size_t k = 0; k < ns && o < 0; k++) {
      o = passed_store(ctx, S, same[k], arg);
      if (o >= 0) call = same[k];
    }
    free(same);
    if (o < 0) continue;
    copy_site c;
    memset(&c, 0, sizeof c);
    c.kind = COPY_CONSTRUCT;
    c.from = -1;
    c.src = t->site.expr;
    c.stmt = c.callee = clang_getNullCursor();
    c.loc = t->site.loc;
    c.wrapper_spelling = hl_xstrdup(h[i].to);
    hl_loc via;
    int has_via = !hl_ctx_loc(ctx, clang_getCursorLocation(call), &via);
    report(ctx, S, &c, &S->stores[o], has_via ? &via : NULL);
    if (has_via) hl_loc_free(&via);
    free(c.wrapper_spelling);
    (void)w;
    return;
  }
}

/* A class copy whose member's store allocates, once per class and member:
 * at the class, where the compiler defines its implicit copy constructor,
 * with the store, the copy and the call that handed the value over. */
static void judge_class_copy(hl_ctx *ctx, const state *S, size_t i) {
  const class_copy *cc = &S->ccopies[i];
  const judged_store *o = &S->stores[cc->store];
  if (o->verdict.allocates != HL_YES) return;
  for (size_t j = 0; j < i; j++)
    if (clang_equalCursors(S->ccopies[j].cls, cc->cls) && clang_equalCursors(S->ccopies[j].member, cc->member) &&
        S->stores[S->ccopies[j].store].verdict.allocates == HL_YES)
      return;
  hl_loc at, copy, call;
  if (hl_ctx_loc(ctx, clang_getCursorLocation(cc->cls), &at)) return;
  const hl_sbo_site *s = &o->site;
  const hl_sbo_wording *wd = wording_of(s->wrapper);
  char *noun = wd ? wd->noun(ctx, s) : hl_xstrdup("value");
  const char *lib = s->wrapper->profile->library ? s->wrapper->profile->library : s->wrapper->name;
  char *cls = hl_type_spelling(clang_getCursorType(cc->cls)),
       *member = hl_cxstring_take(clang_getCursorSpelling(cc->member));
  char *m = hl_xasprintf(
      "copying %s allocates again: its implicit copy constructor copies the %s member '%s', whose "
      "target (a %s, %ld bytes) is stored on the heap by %s",
      cls, s->wrapper_spelling, member, noun, o->verdict.size, lib);
  hl_finding *f = hl_finding_new("function-copy", HL_SEV_WARNING, &at, m);
  hl_sb b = {0};
  hl_sb_printf(&b, "its target is stored here: ");
  hl_sbo_reasons(ctx, s, &o->verdict, &b);
  hl_finding_note(f, &s->loc, hl_sb_str(&b));
  if (!hl_ctx_loc(ctx, clang_getCursorLocation(cc->copy), &copy)) {
    hl_finding_note(f, &copy,
                    cc->keyed ? "copied here, as the key, when the container does not hold it yet" : "copied here");
    hl_loc_free(&copy);
  }
  if (!hl_ctx_loc(ctx, clang_getCursorLocation(cc->call), &call)) {
    hl_finding_note(f, &call, "copied when this call hands it over");
    hl_loc_free(&call);
  }
  hl_ctx_report(ctx, f);
  hl_sb_free(&b);
  hl_loc_free(&at);
  free(m);
  free(member);
  free(cls);
  free(noun);
}

static void prepare(hl_ctx *ctx, void *st) {
  state *S = st;
  /* Only what the layout and the class structure cannot settle asks the
   * compiler, in the batch of every rule's questions. */
  for (size_t i = 0; i < S->nstores; i++) {
    hl_sbo_verdict v;
    hl_sbo_judge(ctx, &S->stores[i].site, 0, &v);
    if (v.allocates == HL_UNKNOWN) {
      hl_traits_free(&v.traits);
      hl_sbo_judge(ctx, &S->stores[i].site, 1, &v);
    }
    hl_traits_free(&v.traits);
  }
  for (size_t i = 0; i < S->ntcopies; i++) {
    hl_sbo_site *t = &S->tcopies[i].site;
    t->probe = hl_probes_add_conversion(hl_ctx_probes(ctx), t->convert_call, t->expr, t->convert_type, &t->unprobed);
  }
}

static void end(hl_ctx *ctx, void *st) {
  state *S = st;
  for (size_t i = 0; i < S->nstores; i++) hl_sbo_judge(ctx, &S->stores[i].site, 0, &S->stores[i].verdict);
  for (size_t i = 0; i < S->ncopies; i++) {
    int o = known_unmoved(S, S->copies[i].from);
    if (o >= 0) report(ctx, S, &S->copies[i], &S->stores[o], NULL);
  }
  for (size_t i = 0; i < S->ntcopies; i++) {
    judge_template_copy(ctx, S, &S->tcopies[i]);
    hl_sbo_site_free(&S->tcopies[i].site);
  }
  free(S->tcopies);
  for (size_t i = 0; i < S->nccopies; i++) judge_class_copy(ctx, S, i);
  free(S->ccopies);
  hl_calls_free(S->calls);
  for (size_t i = 0; i < S->nstores; i++) {
    hl_traits_free(&S->stores[i].verdict.traits);
    hl_sbo_site_free(&S->stores[i].site);
  }
  for (size_t i = 0; i < S->ncopies; i++) {
    free(S->copies[i].wrapper_spelling);
    hl_loc_free(&S->copies[i].loc);
  }
  free(S->decls);
  free(S->writes);
  free(S->stores);
  free(S->copies);
  free(S->refs);
  free(S->sanctioned);
  free(S->functions);
  free(S->escaped);
  free(S);
}

const hl_rule hl_rule_function_copy = {
    "function-copy", NULL, begin, visit, prepare, end, 0,
};
