#include "engine/flow/flow.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "engine/ast.h"
#include "engine/flow/decls.h"
#include "engine/flow/flow_impl.h"
#include "engine/flow/paths.h"
#include "engine/loops.h"
#include "util/util.h"

hl_flow *hl_flow_new(const hl_flow_hooks *hooks) {
  hl_flow *F = hl_xcalloc(1, sizeof(hl_flow));
  F->hooks = *hooks;
  F->calls = hl_calls_new();
  return F;
}

void hl_flow_free(hl_flow *F) {
  if (!F) return;
  hl_calls_free(F->calls);
  for (size_t i = 0; i < F->nstores; i++) F->hooks.release(F->stores[i].record);
  for (size_t i = 0; i < F->ncopies; i++) {
    free(F->copies[i].wrapper_spelling);
    hl_loc_free(&F->copies[i].loc);
  }
  for (size_t i = 0; i < F->ndecls; i++) {
    hl_flow_paths_free(F->decls[i].reaching);
    free(F->decls[i].reaching);
  }
  free(F->decls);
  free(F->writes);
  free(F->stores);
  free(F->copies);
  free(F->refs);
  free(F->sanctioned);
  free(F->functions);
  free(F->escaped);
  free(F->ccopies);
  free(F);
}

size_t hl_flow_nstores(const hl_flow *F) { return F->nstores; }

void *hl_flow_store(const hl_flow *F, int store) { return F->stores[store].record; }

void hl_flow_settle(hl_flow *F, int store, int allocates) { F->stores[store].allocates = allocates; }

CXCursor hl_flow_decl(const hl_flow *F, int decl) { return F->decls[decl].cursor; }

const hl_calls *hl_flow_calls(const hl_flow *F) { return F->calls; }

static void sanction(hl_flow *F, CXCursor ref) { HL_PUSH(F->sanctioned, F->nsanctioned, F->capsanctioned, ref); }

/* The same reference: a cursor libclang made from a call's argument
 * (clang_Cursor_getArgument) and the one its walk makes may differ in the
 * parent they record. */
static int same_ref(CXCursor a, CXCursor b) {
  if (clang_equalCursors(a, b)) return 1;
  CXSourceRange ra = clang_getCursorExtent(a), rb = clang_getCursorExtent(b);
  return clang_getCursorKind(a) == clang_getCursorKind(b) && clang_equalRanges(ra, rb) &&
         clang_equalCursors(clang_getCursorReferenced(a), clang_getCursorReferenced(b));
}

static int take_sanctioned(hl_flow *F, CXCursor ref) {
  for (size_t i = 0; i < F->nsanctioned; i++)
    if (same_ref(F->sanctioned[i], ref)) {
      F->sanctioned[i] = F->sanctioned[--F->nsanctioned];
      return 1;
    }
  return 0;
}

static void add_write(hl_flow *F, int d, int store, int copy, CXCursor expr) {
  flow_write w = {d, store, copy, -1, 0, expr, 0};
  HL_PUSH(F->writes, F->nwrites, F->capwrites, w);
}

/* d takes the value from holds: moved from it, or bound to it. */
static void add_alias(hl_flow *F, int d, int from, int move) {
  flow_write w = {d, -1, -1, from, move, clang_getNullCursor(), 0};
  HL_PUSH(F->writes, F->nwrites, F->capwrites, w);
}

/* The write just added is made by c (an assignment): where paths finds it. */
static void placed(hl_flow *F, CXCursor c) { F->writes[F->nwrites - 1].at = hl_flow_write_at(c); }

/* A local built by its class's default constructor (`W w;`, `W w{}`):
 * empty, as if it had no initializer. */
static int default_built(CXCursor init) {
  init = hl_strip(init);
  return clang_getCursorKind(init) == CXCursor_CallExpr && clang_Cursor_getNumArguments(init) == 0 &&
         clang_getCursorKind(clang_getCursorReferenced(init)) == CXCursor_Constructor;
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
  return hl_flow_trackable(ctx, p) ? p : clang_getNullCursor();
}

typedef struct ctor_inits {
  const hl_ctx *ctx;
  hl_flow *F;
  int field; /* the member the next initializer is for, or -1 */
} ctor_inits;

static enum CXChildVisitResult member_init(CXCursor c, CXCursor parent, CXClientData d) {
  (void)parent;
  ctor_inits *I = d;
  if (clang_getCursorKind(c) == CXCursor_MemberRef) {
    CXCursor f = clang_getCursorReferenced(c);
    I->field = hl_flow_trackable(I->ctx, f) ? hl_flow_decl_index(I->F, f) : -1;
  } else if (I->field >= 0 && clang_isExpression(clang_getCursorKind(c))) {
    add_write(I->F, I->field, -1, -1, c);
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
static void expect_writes(hl_ctx *ctx, hl_flow *F, CXCursor c) {
  enum CXCursorKind k = clang_getCursorKind(c);
  if ((k == CXCursor_VarDecl || k == CXCursor_FieldDecl) && hl_flow_trackable(ctx, c)) {
    CXCursor init = hl_last_child(c);
    if (!clang_isExpression(clang_getCursorKind(init))) return;
    int d = hl_flow_decl_index(F, c);
    if (k == CXCursor_VarDecl && default_built(init)) return;
    if (k == CXCursor_VarDecl) F->decls[d].has_init = 1;
    add_write(F, d, -1, -1, init);
    placed(F, c);
  } else if (k == CXCursor_Constructor) {
    ctor_inits I = {ctx, F, -1};
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
      int from = hl_flow_is_const_wrapper_ref(ctx, clang_getCursorType(p)) ? hl_flow_named_decl(ctx, F, arg, NULL) : -1;
      if (from >= 0)
        add_alias(F, hl_flow_decl_index(F, p), from, 0);
      else
        add_write(F, hl_flow_decl_index(F, p), -1, -1, arg);
    }
  }
}

/* The write waiting for the value c (being visited) makes, or -1. */
static int claim(hl_ctx *ctx, hl_flow *F, CXCursor c) {
  size_t k = 0;
  CXCursor below;
  hl_ctx_opaque_ancestor(ctx, &k, c, &below);
  for (size_t i = 0; i < F->nwrites; i++) {
    flow_write *w = &F->writes[i];
    if (w->store < 0 && w->copy < 0 && !clang_Cursor_isNull(w->expr) && clang_equalCursors(w->expr, below)) {
      w->expr = clang_getNullCursor();
      return (int)i;
    }
  }
  return -1;
}

/* The left-hand side of an assignment call: the tracked declaration it
 * names (and the reference is accounted for), or -1. */
static int assigned(hl_ctx *ctx, hl_flow *F, CXCursor call) {
  if (clang_Cursor_getNumArguments(call) < 2) {
    /* A member call spelled a.operator=(b): the object is the callee's base. */
    CXCursor callee = hl_first_child(call);
    if (clang_getCursorKind(callee) != CXCursor_MemberRefExpr) return -1;
    CXCursor ref;
    int d = hl_flow_named_decl(ctx, F, hl_first_child(callee), &ref);
    if (d >= 0) {
      sanction(F, ref);
      F->decls[d].not_only_read = 1;
    }
    return d;
  }
  CXCursor ref;
  int d = hl_flow_named_decl(ctx, F, clang_Cursor_getArgument(call, 0), &ref);
  if (d >= 0) {
    sanction(F, ref);
    F->decls[d].not_only_read = 1;
  }
  return d;
}

/* A function named but not called (its address taken, bound to a
 * reference): calls through it are not seen, so neither are all the
 * values of its parameters. */
static void escaped_function(const hl_ctx *ctx, hl_flow *F, CXCursor fn) {
  CXCursor def = clang_getCursorDefinition(fn);
  int n = clang_Cursor_isNull(def) ? 0 : clang_Cursor_getNumArguments(def);
  for (int i = 0; i < n; i++) {
    CXCursor p = clang_Cursor_getArgument(def, (unsigned)i);
    if (hl_flow_trackable(ctx, p)) add_write(F, hl_flow_decl_index(F, p), -1, -1, clang_getNullCursor());
  }
}

typedef struct fields {
  const hl_ctx *ctx;
  hl_flow *flow;
} fields;

static enum CXVisitorResult unknown_field(CXCursor f, CXClientData d) {
  fields *A = d;
  if (hl_flow_trackable(A->ctx, f)) add_write(A->flow, hl_flow_decl_index(A->flow, f), -1, -1, clang_getNullCursor());
  return CXVisit_Continue;
}

/* A class's members initialized by a braced list (aggregate
 * initialization): values heaplint does not follow. */
static void aggregate_writes(const hl_ctx *ctx, hl_flow *F, CXCursor list) {
  CXType t = clang_getCanonicalType(clang_getCursorType(list));
  if (t.kind != CXType_Record || hl_ctx_wrapper_of_type(ctx, t)) return;
  fields A = {ctx, F};
  clang_Type_visitFields(t, unknown_field, &A);
}

/* A wrapper built or assigned by moving from the tracked from: it holds
 * from's value, and from is left empty (its own copies are no longer
 * known). */
static void moved_into(hl_ctx *ctx, hl_flow *F, CXCursor c, hl_flow_copy_kind kind, int from, CXCursor ref) {
  sanction(F, ref);
  F->decls[from].moves++;
  F->decls[from].not_only_read = 1;
  int into = kind == HL_FLOW_ASSIGN ? assigned(ctx, F, c) : -1;
  int w = kind == HL_FLOW_CONSTRUCT ? claim(ctx, F, c) : -1;
  if (w >= 0) {
    F->writes[w].alias = from;
    F->writes[w].move = 1;
    F->writes[w].expr = clang_getNullCursor();
  } else if (into >= 0 && into != from) {
    add_alias(F, into, from, 1);
    placed(F, c);
  } else if (into >= 0) {
    F->decls[into].tainted = 1;
  }
}

/* A store (a construction the owner matches) into a tracked declaration:
 * one of its writes. */
static void store_into(hl_ctx *ctx, hl_flow *F, CXCursor c) {
  int assign = 0;
  void *record = F->hooks.store(ctx, c, &assign);
  if (!record) return;
  flow_store s = {record, clang_getNullCursor(), -1, 0};
  int w = assign ? -1 : claim(ctx, F, c);
  int target = assign ? assigned(ctx, F, c) : w >= 0 ? F->writes[w].decl : -1;
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
      F->hooks.release(record);
      return;
    }
  }
  HL_PUSH(F->stores, F->nstores, F->capstores, s);
  if (w >= 0)
    F->writes[w].store = (int)F->nstores - 1;
  else if (target >= 0) {
    add_write(F, target, (int)F->nstores - 1, -1, clang_getNullCursor());
    placed(F, c);
  }
}

void hl_flow_visit(hl_flow *F, hl_ctx *ctx, CXCursor c) {
  enum CXCursorKind k = clang_getCursorKind(c);
  expect_writes(ctx, F, c);
  if (k == CXCursor_FunctionDecl || k == CXCursor_CXXMethod || k == CXCursor_Constructor) {
    int n = clang_Cursor_getNumArguments(c), any = 0;
    for (int i = 0; i < n && !any; i++) any = hl_flow_trackable(ctx, clang_Cursor_getArgument(c, (unsigned)i));
    if (any) HL_PUSH(F->functions, F->nfunctions, F->capfunctions, c);
    return;
  }
  if (k == CXCursor_CallExpr) {
    hl_calls_visit(F->calls, ctx, c);
    store_into(ctx, F, c);
    hl_flow_class_copy_call(ctx, F, c);
    hl_flow_copy_kind kind;
    CXCursor src, ref;
    int moved = hl_flow_move_call(ctx, c, &kind, &src) ? hl_flow_named_decl(ctx, F, src, &ref) : -1;
    if (moved >= 0) {
      moved_into(ctx, F, c, kind, moved, ref);
      return;
    }
    const hl_wrapper *wr = hl_flow_copy_call(ctx, c, &kind, &src);
    int from = wr ? hl_flow_named_decl(ctx, F, src, &ref) : -1;
    if (from >= 0) {
      sanction(F, ref);
      F->decls[from].not_only_read = 1;
      hl_flow_add_copy(ctx, F, kind, wr, c, ref, from, !clang_Cursor_isNull(hl_loop_around(ctx, c)));
      int into = kind == HL_FLOW_ASSIGN ? assigned(ctx, F, c) : -1;
      int w = kind == HL_FLOW_CONSTRUCT ? claim(ctx, F, c) : -1;
      if (w >= 0)
        F->writes[w].copy = (int)F->ncopies - 1;
      else if (into >= 0 && into != from) {
        add_write(F, into, -1, (int)F->ncopies - 1, clang_getNullCursor());
        placed(F, c);
      } else if (into >= 0)
        F->decls[into].tainted = 1;
    } else if (wr && kind == HL_FLOW_ASSIGN) {
      /* An assignment from an unknown wrapper. */
      int into = assigned(ctx, F, c);
      if (into >= 0) {
        add_write(F, into, -1, -1, clang_getNullCursor());
        placed(F, c);
      }
    }
    return;
  }
  if (k == CXCursor_InitListExpr) {
    aggregate_writes(ctx, F, c);
    return;
  }
  if (k != CXCursor_DeclRefExpr && k != CXCursor_MemberRefExpr) return;
  CXCursor d = clang_getCursorReferenced(c);
  enum CXCursorKind dk = clang_getCursorKind(d);
  if (dk == CXCursor_FunctionDecl || dk == CXCursor_CXXMethod) {
    size_t depth = 0;
    CXCursor a = hl_ctx_opaque_ancestor(ctx, &depth, c, NULL);
    if (clang_getCursorKind(a) != CXCursor_CallExpr || !clang_equalCursors(clang_getCursorReferenced(a), d)) {
      escaped_function(ctx, F, d);
      HL_PUSH(F->escaped, F->nescaped, F->capescaped, clang_getCanonicalCursor(d));
    }
    return;
  }
  if (!hl_flow_trackable(ctx, d)) return;
  int i = hl_flow_decl_index(F, d);
  hl_flow_add_ref(ctx, F, i, c);
  if (take_sanctioned(F, c)) return;
  size_t depth = 0;
  CXCursor a = hl_ctx_opaque_ancestor(ctx, &depth, c, NULL);
  if (clang_getCursorKind(a) == CXCursor_LambdaExpr) {
    /* Captured by copy ([x], [y = x], [=]); a capture by reference is no
     * expression of its own. */
    F->decls[i].not_only_read = 1;
    /* d may be a const reference parameter: the capture copies its referee. */
    hl_flow_add_copy(ctx, F, HL_FLOW_CAPTURE, hl_ctx_wrapper_of_type(ctx, hl_unref(clang_getCursorType(d))), c, c, i,
                     hl_flow_lambda_in_loop(ctx));
    return;
  }
  if (!hl_flow_only_reads(ctx, c)) F->decls[i].tainted = F->decls[i].not_only_read = 1;
}

/* ---- after the walk ---- */

static int known(hl_flow *F, int d);

/* The same for a declaration read (copied, or bound to a reference)
 * anywhere: one also moved from may be empty there. */
static int known_unmoved(hl_flow *F, int d) { return F->decls[d].moves ? -1 : known(F, d); }

/* The allocating store whose target d holds whatever path its value took,
 * or -1: d is untainted, a local is assigned before every read (paths: or,
 * where paths cannot tell, has an initializer), and each of its writes
 * that may reach a read is an allocating store or a copy of a declaration
 * with one. */
/* Asks paths about local d, once. Returns d's record. */
static flow_decl *with_paths(hl_flow *F, int d) {
  flow_decl *D = &F->decls[d];
  if (D->paths || clang_getCursorKind(D->cursor) != CXCursor_VarDecl) return D;
  D->reaching = hl_xcalloc(1, sizeof *D->reaching);
  D->paths = hl_flow_paths_of(F, d, D->reaching) ? -1 : 1;
  return D;
}

/* What the reads of d at `at` (any read: 0) may find, when paths models d;
 * else every write, and empty for a local without an initializer. */
static uint64_t found_at(const flow_decl *D, unsigned at) {
  if (D->paths == 1) return hl_flow_paths_at(D->reaching, at);
  int local = clang_getCursorKind(D->cursor) == CXCursor_VarDecl;
  return ~0ull & ~(local && !D->has_init ? 0 : HL_PATHS_EMPTY) & ~HL_PATHS_UNKNOWN;
}

/* Whether state s (found_at) may hold write i of d. */
static int holds(const flow_decl *D, uint64_t s, size_t i) {
  return D->paths != 1 || hl_flow_paths_holds(D->reaching, s, i);
}

static int known(hl_flow *F, int d) {
  flow_decl *D = with_paths(F, d);
  if (D->state == 2) return D->origin;
  if (D->state == 1) return -1; /* a cycle of copies: no store starts it */
  D->state = 1;
  uint64_t s = found_at(D, 0);
  int ok = !D->tainted && !(s & (HL_PATHS_EMPTY | HL_PATHS_UNKNOWN));
  int origin = -1, any = 0;
  for (size_t i = 0; i < F->nwrites && ok; i++) {
    const flow_write *w = &F->writes[i];
    if (w->decl != d || !holds(&F->decls[d], s, i)) continue;
    any = 1;
    int o = w->store >= 0 && F->stores[w->store].allocates              ? w->store
            : w->copy >= 0                                              ? known_unmoved(F, F->copies[w->copy].from)
            : w->alias >= 0 && w->move && F->decls[w->alias].moves == 1 ? known(F, w->alias)
            : w->alias >= 0 && !w->move                                 ? known_unmoved(F, w->alias)
                                                                        : -1;
    if (o < 0)
      ok = 0;
    else if (origin < 0)
      origin = o;
  }
  D = &F->decls[d];
  D->state = 2;
  D->origin = ok && any ? origin : -1;
  return D->origin;
}

/* Adds to *T every store whose target d may hold where it is read at `at`
 * (0: anywhere); -1 when a value the flow does not follow may reach it (or
 * d is changed where the flow cannot tell, or moved from, or is a local
 * paths does not model). done[d] holds the writes of d already followed
 * (the state bits; all of them for a declaration without paths): a cycle
 * of copies brings no store of its own, a second read of d only the
 * writes it may find that the first did not. */
typedef struct targets {
  int *stores;
  size_t n, cap;
  uint64_t *done;
  int empty; /* a local followed may be empty there */
} targets;

static int add_targets(hl_flow *F, int d, unsigned at, targets *T) {
  flow_decl *D = with_paths(F, d);
  int local = clang_getCursorKind(D->cursor) == CXCursor_VarDecl, any = 0;
  uint64_t s = found_at(D, at);
  if (D->tainted || D->moves || (local && D->paths != 1) || (s & HL_PATHS_UNKNOWN)) return -1;
  /* Followed before: only writes this read may find that the last did not
   * (none, without paths). */
  uint64_t fresh = T->done[d] ? (D->paths == 1 ? s & ~T->done[d] : 0) : s;
  if (T->done[d] && !fresh) return 0;
  T->done[d] |= s | HL_PATHS_UNKNOWN; /* UNKNOWN marks d as followed */
  if (local && (s & HL_PATHS_EMPTY)) T->empty = 1;
  for (size_t i = 0; i < F->nwrites; i++) {
    const flow_write *w = &F->writes[i];
    if (w->decl != d || !holds(&F->decls[d], fresh, i)) continue;
    any = 1;
    int from = w->copy >= 0 ? F->copies[w->copy].from : w->alias;
    unsigned from_at = w->copy >= 0 ? hl_flow_write_at(F->copies[w->copy].src) : 0;
    if (w->store >= 0) {
      int dup = 0;
      for (size_t k = 0; k < T->n && !dup; k++) dup = T->stores[k] == w->store;
      if (!dup) HL_PUSH(T->stores, T->n, T->cap, w->store);
    } else if (from < 0 || (w->move && F->decls[from].moves != 1) || add_targets(F, from, from_at, T)) {
      return -1;
    }
  }
  /* A parameter or member no write reaches gets its values where the flow
   * does not look (callers in other units); a local is empty. */
  return any || local ? 0 : -1;
}

int hl_flow_targets(hl_flow *F, const hl_flow_copy *c, int **stores, size_t *n, int *maybe_empty) {
  targets T = {NULL, 0, 0, hl_xcalloc(F->ndecls + 1, sizeof(uint64_t)), 0};
  int r = add_targets(F, c->from, hl_flow_write_at(c->src), &T);
  free(T.done);
  if (r) {
    free(T.stores);
    T.stores = NULL;
    T.n = 0;
  }
  *stores = T.stores;
  *n = T.n;
  *maybe_empty = T.empty;
  return r;
}

int hl_flow_origin(hl_flow *F, int decl) { return known_unmoved(F, decl); }

int hl_flow_argument_origin(hl_flow *F, const hl_ctx *ctx, CXCursor call, int i) {
  for (size_t k = 0; k < F->nstores; k++)
    if (F->stores[k].arg_index == i && clang_equalCursors(F->stores[k].arg_of, call) && F->stores[k].allocates)
      return (int)k;
  int d = i < clang_Cursor_getNumArguments(call)
              ? hl_flow_named_decl(ctx, F, clang_Cursor_getArgument(call, (unsigned)i), NULL)
              : -1;
  return d >= 0 ? known_unmoved(F, d) : -1;
}
