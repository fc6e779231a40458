#include "rules/copies/slots.h"

#include <stdlib.h>
#include <string.h>

#include "util/strv.h"
#include "util/util.h"

/* Slots one copy's search looks at, at most: past it the copy is left
 * undecided (a bound, not a limit real code reaches). */
#define MAX_SLOTS 2000
/* The targets a message names, at most; the rest are counted. */
#define MAX_NAMED 3

/* ---- recording, during the walk ---- */

/* The wrapper t is (through references), or NULL. */
static const hl_wrapper *wrapper_of(const hl_ctx *ctx, CXType t) {
  return hl_ctx_wrapper_of_type(ctx, clang_getCanonicalType(hl_unref(t)));
}

/* A wrapper member of a class declared in one of the project's headers:
 * other units store into it and copy it. */
static char *field_key(const hl_ctx *ctx, CXCursor f) {
  CXType t = clang_getCursorType(f);
  CXSourceLocation at = clang_getCursorLocation(f);
  CXFile file;
  clang_getFileLocation(at, &file, NULL, NULL, NULL);
  if (clang_getCursorKind(f) != CXCursor_FieldDecl || t.kind == CXType_LValueReference ||
      t.kind == CXType_RValueReference || !wrapper_of(ctx, t) || !file || clang_Location_isFromMainFile(at) ||
      clang_Location_isInSystemHeader(at))
    return NULL;
  char *usr = hl_cxstring_take(clang_getCursorUSR(f));
  char *key = *usr ? hl_slot_member(usr) : NULL;
  free(usr);
  return key;
}

/* A function other units can call by name, whose parameters and result
 * are slots. Virtual functions, templates and lambdas are left out: their
 * calls are not all calls of one function the index can name. */
static int slot_function(CXCursor fn) {
  enum CXCursorKind k = clang_getCursorKind(fn);
  return (k == CXCursor_FunctionDecl || k == CXCursor_CXXMethod || k == CXCursor_Constructor) &&
         clang_getCursorLinkage(fn) == CXLinkage_External && !hl_is_function_template_specialization(fn) &&
         !(k == CXCursor_CXXMethod && clang_CXXMethod_isVirtual(fn)) &&
         !hl_type_is_lambda(clang_getCursorType(clang_getCursorSemanticParent(fn))) &&
         !clang_Location_isInSystemHeader(clang_getCursorLocation(fn));
}

/* A wrapper parameter (by value or reference) of such a function: its
 * values are the arguments of calls anywhere. */
static char *param_key(const hl_ctx *ctx, CXCursor p) {
  CXCursor fn = clang_getCursorSemanticParent(p);
  if (clang_getCursorKind(p) != CXCursor_ParmDecl || !wrapper_of(ctx, clang_getCursorType(p)) || !slot_function(fn))
    return NULL;
  int n = clang_Cursor_getNumArguments(fn), index = -1;
  for (int i = 0; i < n && index < 0; i++)
    if (clang_equalCursors(clang_Cursor_getArgument(fn, (unsigned)i), p)) index = i;
  char *usr = index < 0 ? NULL : hl_cxstring_take(clang_getCursorUSR(fn));
  char *key = usr && *usr ? hl_slot_param(usr, index) : NULL;
  free(usr);
  return key;
}

/* The wrapper such a function returns by value: its values are its return
 * statements'. */
static char *return_key(const hl_ctx *ctx, CXCursor fn) {
  CXType r = clang_getCursorResultType(fn);
  if (!slot_function(fn) || r.kind == CXType_LValueReference || r.kind == CXType_RValueReference || !wrapper_of(ctx, r))
    return NULL;
  char *usr = hl_cxstring_take(clang_getCursorUSR(fn));
  char *key = *usr ? hl_slot_return(usr) : NULL;
  free(usr);
  return key;
}

/* The function whose body the cursor being visited is in (a lambda's body
 * is the lambda's: a null cursor). */
static CXCursor enclosing_function(const hl_ctx *ctx) {
  for (size_t k = 0;; k++) {
    CXCursor a = hl_ctx_ancestor(ctx, k);
    enum CXCursorKind ak = clang_getCursorKind(a);
    if (clang_Cursor_isNull(a) || ak == CXCursor_LambdaExpr) return clang_getNullCursor();
    if (ak == CXCursor_FunctionDecl || ak == CXCursor_CXXMethod || ak == CXCursor_Constructor) return a;
  }
}

/* The slot expression e names, or NULL. */
static char *slot_of(const hl_ctx *ctx, CXCursor e) {
  e = hl_strip(e);
  enum CXCursorKind k = clang_getCursorKind(e);
  if (k != CXCursor_DeclRefExpr && k != CXCursor_MemberRefExpr) return NULL;
  CXCursor d = clang_getCursorReferenced(e);
  return clang_getCursorKind(d) == CXCursor_FieldDecl  ? field_key(ctx, d)
         : clang_getCursorKind(d) == CXCursor_ParmDecl ? param_key(ctx, d)
                                                       : NULL;
}

/* The slot whose value the wrapper expression e is: one it names, or the
 * result of a call of a slot function; else NULL. */
static char *source_of(const hl_ctx *ctx, CXCursor e) {
  char *k = slot_of(ctx, e);
  if (k) return k;
  e = hl_strip(e);
  CXCursor fn = clang_getCursorReferenced(e);
  return clang_getCursorKind(e) == CXCursor_CallExpr && clang_getCursorKind(fn) != CXCursor_Constructor
             ? return_key(ctx, fn)
             : NULL;
}

/* The value of slot from (NULL: one heaplint cannot follow) goes into slot
 * to (taken) at at. */
static void add_flow(hl_ctx *ctx, const char *from, char *to, CXCursor at) {
  hl_sflow f = {from ? hl_xstrdup(from) : NULL, to, {0}};
  if (hl_ctx_loc(ctx, clang_getCursorLocation(at), &f.at)) {
    hl_sflow_free(&f);
    return;
  }
  hl_summary *s = hl_ctx_summary(ctx);
  HL_PUSH(s->flows, s->nflows, s->capflows, f);
}

/* "std::function<void ()>", as the wrapper w names the type t. */
static char *wrapper_spelling(const hl_wrapper *w, CXType t) {
  char *canon = hl_type_spelling(clang_getCanonicalType(hl_unref(t)));
  const char *args = strchr(canon, '<');
  char *s = hl_xasprintf("%s%s", w->name, args ? args : "");
  free(canon);
  return s;
}

/* A copy of slot's value (what, taken: the message's subject) at at. */
static void add_copy(hl_ctx *ctx, const char *slot, char *wrapper, char *what, CXCursor at) {
  hl_scopy c = {hl_xstrdup(slot), wrapper, what, {0}};
  if (hl_ctx_loc(ctx, clang_getCursorLocation(at), &c.at)) {
    hl_scopy_free(&c);
    return;
  }
  hl_summary *s = hl_ctx_summary(ctx);
  HL_PUSH(s->copies, s->ncopies, s->capcopies, c);
}

/* The parameter slot that the call's argument c (being visited) is
 * passed to, or NULL. */
static char *argument_slot(const hl_ctx *ctx, CXCursor c) {
  size_t k = 0;
  CXCursor below;
  CXCursor call = hl_ctx_opaque_ancestor(ctx, &k, c, &below);
  if (clang_getCursorKind(call) != CXCursor_CallExpr) return NULL;
  CXCursor fn = clang_getCursorReferenced(call);
  int n = clang_Cursor_getNumArguments(call);
  for (int i = 0; i < n; i++)
    if (clang_equalCursors(clang_Cursor_getArgument(call, (unsigned)i), below))
      return i < clang_Cursor_getNumArguments(fn) ? param_key(ctx, clang_Cursor_getArgument(fn, (unsigned)i)) : NULL;
  return NULL;
}

/* The left-hand side of an assignment call. */
static CXCursor assigned(CXCursor call) {
  if (clang_Cursor_getNumArguments(call) >= 2) return clang_Cursor_getArgument(call, 0);
  CXCursor callee = hl_first_child(call); /* a.operator=(b) */
  return clang_getCursorKind(callee) == CXCursor_MemberRefExpr ? hl_first_child(callee) : clang_getNullCursor();
}

/* Whether the call c is a wrapper's copy or move constructor or
 * assignment (one parameter: the wrapper itself): *assign says which. */
static int transfer(const hl_ctx *ctx, CXCursor c, int *assign) {
  CXCursor fn = clang_getCursorReferenced(c);
  enum CXCursorKind fk = clang_getCursorKind(fn);
  CXType fty = clang_getCursorType(fn);
  if ((fk != CXCursor_Constructor && fk != CXCursor_CXXMethod) || clang_getNumArgTypes(fty) != 1 ||
      hl_is_function_template_specialization(fn) || !hl_ctx_wrapper_of_decl(ctx, clang_getCursorSemanticParent(fn)))
    return 0;
  CXType p = clang_getCanonicalType(hl_unref(clang_getArgType(fty, 0)));
  if (!hl_same_class(p, clang_getCursorType(clang_getCursorSemanticParent(fn)))) return 0;
  char *name = hl_cxstring_take(clang_getCursorSpelling(fn));
  *assign = !strcmp(name, "operator=");
  free(name);
  return fk == CXCursor_Constructor || *assign;
}

/* A wrapper copied or moved at call c: the flow into the slot it goes to
 * (a by-value parameter, an assigned member), and the copy of a slot. */
static void wrapper_write(hl_ctx *ctx, CXCursor c) {
  int assign = 0;
  if (!transfer(ctx, c, &assign)) return;
  hl_flow_copy_kind kind;
  CXCursor src = clang_getNullCursor();
  const hl_wrapper *copied = NULL;
  if (!hl_flow_move_call(ctx, c, &kind, &src)) copied = hl_flow_copy_call(ctx, c, &kind, &src);
  int n = clang_Cursor_getNumArguments(c);
  /* Not a named wrapper: a temporary moved in (a call's result). */
  char *from = !clang_Cursor_isNull(src) ? slot_of(ctx, src)
               : n > 0                   ? source_of(ctx, clang_Cursor_getArgument(c, (unsigned)n - 1))
                                         : NULL;
  char *to = assign ? slot_of(ctx, assigned(c)) : argument_slot(ctx, c);
  if (to) add_flow(ctx, from, to, c);
  if (copied && from) {
    char *w = wrapper_spelling(copied, clang_getCursorType(src));
    add_copy(ctx, from, w, hl_xasprintf("copying this %s", w), src);
  }
  free(from);
}

typedef struct fieldwalk {
  hl_ctx *ctx;
  CXCursor at; /* the class: where its implicit copy is, and where the
                 program's line table charges what that copy allocates */
  char *cls;
} fieldwalk;

static enum CXVisitorResult copied_field(CXCursor f, CXClientData d) {
  fieldwalk *W = d;
  char *key = field_key(W->ctx, f);
  if (key) {
    char *w = wrapper_spelling(wrapper_of(W->ctx, clang_getCursorType(f)), clang_getCursorType(f));
    char *name = hl_cxstring_take(clang_getCursorSpelling(f));
    add_copy(W->ctx, key, w, hl_xasprintf("copying %s (which copies its %s member '%s')", W->cls, w, name), W->at);
    free(name);
    free(key);
  }
  return CXVisit_Continue;
}

/* Whether fn is a copy assignment operator (X::operator=(const X &)), as
 * clang_CXXMethod_isCopyAssignmentOperator says from libclang 16 on:
 * heaplint also builds against libclang 14. */
static int is_copy_assignment(CXCursor fn) {
  CXType fty = clang_getCursorType(fn);
  if (clang_getCursorKind(fn) != CXCursor_CXXMethod || clang_getNumArgTypes(fty) != 1) return 0;
  CXType p = clang_getCanonicalType(clang_getArgType(fty, 0));
  char *name = hl_cxstring_take(clang_getCursorSpelling(fn));
  int r = !strcmp(name, "operator=") && p.kind == CXType_LValueReference &&
          hl_same_class(clang_getPointeeType(p), clang_getCursorType(clang_getCursorSemanticParent(fn)));
  free(name);
  return r;
}

/* A class copied whole by its implicit (or defaulted) copy constructor or
 * copy assignment: each wrapper member it has is copied. */
static void class_copy(hl_ctx *ctx, CXCursor c) {
  CXCursor fn = clang_getCursorReferenced(c);
  enum CXCursorKind fk = clang_getCursorKind(fn);
  int ctor = fk == CXCursor_Constructor && clang_CXXConstructor_isCopyConstructor(fn);
  int assign = is_copy_assignment(fn);
  CXCursor cls = clang_getCursorSemanticParent(fn);
  if ((!ctor && !assign) || !clang_CXXMethod_isDefaulted(fn) || hl_ctx_wrapper_of_decl(ctx, cls) ||
      clang_Location_isInSystemHeader(clang_getCursorLocation(cls)))
    return;
  fieldwalk W = {ctx, cls, hl_type_spelling(clang_getCursorType(cls))};
  clang_Type_visitFields(clang_getCursorType(cls), copied_field, &W);
  free(W.cls);
}

/* Whether e builds a wrapper (a constructor of one): its value is the
 * sbo rules' store, or a copy or move wrapper_write sees. */
static int builds_wrapper(const hl_ctx *ctx, CXCursor e) {
  CXCursor fn = clang_getCursorReferenced(e);
  return clang_getCursorKind(e) == CXCursor_CallExpr && clang_getCursorKind(fn) == CXCursor_Constructor &&
         hl_ctx_wrapper_of_decl(ctx, clang_getCursorSemanticParent(fn));
}

/* The arguments of call c bound to parameter slots that no copy, move or
 * store claims: a reference bound to a slot (its value flows in), anything
 * else heaplint does not follow (a call's result, a local). */
static void arguments(hl_ctx *ctx, CXCursor c) {
  CXCursor fn = clang_getCursorReferenced(c);
  int n = clang_Cursor_getNumArguments(c);
  if (n > clang_Cursor_getNumArguments(fn)) n = clang_Cursor_getNumArguments(fn);
  for (int i = 0; i < n; i++) {
    CXCursor p = clang_Cursor_getArgument(fn, (unsigned)i), a = hl_strip(clang_Cursor_getArgument(c, (unsigned)i));
    char *key = param_key(ctx, p);
    if (!key || builds_wrapper(ctx, a)) {
      free(key);
      continue;
    }
    char *from = source_of(ctx, a);
    add_flow(ctx, from, key, a);
    free(from);
  }
}

static char *moved_source(const hl_ctx *ctx, CXCursor e);

typedef struct initwalk {
  hl_ctx *ctx;
  char *field; /* the slot the next initializer is for, or NULL */
} initwalk;

/* A constructor's member initializers of slots: the value each gets. */
static enum CXChildVisitResult member_init(CXCursor c, CXCursor parent, CXClientData d) {
  (void)parent;
  initwalk *I = d;
  if (clang_getCursorKind(c) == CXCursor_MemberRef) {
    free(I->field);
    I->field = field_key(I->ctx, clang_getCursorReferenced(c));
    return CXChildVisit_Continue;
  }
  if (I->field && clang_isExpression(clang_getCursorKind(c))) {
    CXCursor e = hl_strip(c);
    int assign = 0;
    if (!builds_wrapper(I->ctx, e)) {
      char *from = source_of(I->ctx, e); /* a call's result, or not followed */
      add_flow(I->ctx, from, I->field, c);
      free(from);
    } else if (transfer(I->ctx, e, &assign)) {
      char *from = moved_source(I->ctx, e);
      add_flow(I->ctx, from, I->field, c);
      free(from);
    } else {
      free(I->field); /* a store: the sbo rules file its value */
    }
    I->field = NULL;
  }
  return CXChildVisit_Continue;
}

/* The source of wrapper e when it is copied or moved in (its copy or move
 * constructor's argument, through std::move), else e's own. */
static char *moved_source(const hl_ctx *ctx, CXCursor e) {
  int assign = 0;
  if (!builds_wrapper(ctx, e)) return source_of(ctx, e);
  if (!transfer(ctx, e, &assign)) return NULL;
  CXCursor src = hl_strip(clang_Cursor_getArgument(e, 0));
  char *callee =
      clang_getCursorKind(src) == CXCursor_CallExpr ? hl_decl_name(clang_getCursorReferenced(src)) : hl_xstrdup("");
  if (!strcmp(callee, "std::move") || !strcmp(callee, "std::forward")) src = clang_Cursor_getArgument(src, 0);
  free(callee);
  return source_of(ctx, src);
}

/* A return statement of a slot function: the value it returns, unless it
 * is a store (the function-copy rule files its value: hl_slots_return). */
static void returned(hl_ctx *ctx, CXCursor ret) {
  char *key = return_key(ctx, enclosing_function(ctx));
  CXCursor e = hl_strip(hl_first_child(ret));
  int assign = 0;
  if (!key || clang_Cursor_isNull(e) || (builds_wrapper(ctx, e) && !transfer(ctx, e, &assign))) {
    free(key);
    return;
  }
  char *from = moved_source(ctx, e);
  add_flow(ctx, from, key, ret);
  free(from);
}

char *hl_slots_return(hl_ctx *ctx, CXCursor store) {
  size_t k = 0;
  CXCursor a = hl_ctx_opaque_ancestor(ctx, &k, store, NULL);
  return clang_getCursorKind(a) == CXCursor_ReturnStmt ? return_key(ctx, enclosing_function(ctx)) : NULL;
}

/* A slot captured by copy by a lambda ([cb], [=]). */
static void capture(hl_ctx *ctx, CXCursor ref) {
  size_t depth = 0;
  if (clang_getCursorKind(hl_ctx_opaque_ancestor(ctx, &depth, ref, NULL)) != CXCursor_LambdaExpr) return;
  char *key = slot_of(ctx, ref);
  if (!key) return;
  CXType t = clang_getCursorType(clang_getCursorReferenced(ref));
  char *w = wrapper_spelling(wrapper_of(ctx, t), t);
  add_copy(ctx, key, w, hl_xasprintf("capturing this %s by copy", w), ref);
  free(key);
}

void hl_slots_visit(hl_ctx *ctx, CXCursor c) {
  if (!hl_ctx_summary(ctx)) return;
  switch (clang_getCursorKind(c)) {
  case CXCursor_CallExpr:
    wrapper_write(ctx, c);
    class_copy(ctx, c);
    arguments(ctx, c);
    break;
  case CXCursor_Constructor: {
    initwalk I = {ctx, NULL};
    clang_visitChildren(c, member_init, &I);
    free(I.field);
    break;
  }
  case CXCursor_DeclRefExpr: capture(ctx, c); break;
  case CXCursor_ReturnStmt: returned(ctx, c); break;
  default: break;
  }
}

/* ---- the link step ---- */

/* What can reach a slot over the index: the values stored into it or into
 * a slot that flows into it, each once, and whether a value heaplint
 * cannot follow does. */
typedef struct reach {
  hl_svalue *values;
  size_t nvalues;
  int unknown;
} reach;

static int same_loc(const hl_loc *a, const hl_loc *b) {
  return a->line == b->line && a->col == b->col && !strcmp(a->file ? a->file : "", b->file ? b->file : "");
}

static void gather(const hl_index_lookup *ix, const char *key, reach *R) {
  hl_strv queue = {0};
  hl_strv_add(&queue, key);
  for (size_t q = 0; q < queue.n && !R->unknown; q++) {
    if (q == MAX_SLOTS) {
      R->unknown = 1;
      break;
    }
    hl_svalue *v = NULL;
    hl_sflow *f = NULL;
    size_t nv = 0, nf = 0;
    ix->slot(ix->data, queue.v[q], &v, &nv, &f, &nf);
    for (size_t i = 0; i < nf; i++) {
      if (!f[i].from)
        R->unknown = 1;
      else
        hl_strv_add_unique(&queue, f[i].from);
      hl_sflow_free(&f[i]);
    }
    for (size_t i = 0; i < nv; i++) {
      int seen = !v[i].known;
      R->unknown |= !v[i].known;
      for (size_t k = 0; k < R->nvalues && !seen; k++) seen = same_loc(&R->values[k].at, &v[i].at);
      if (seen) {
        hl_svalue_free(&v[i]);
        continue;
      }
      R->values = hl_xrealloc(R->values, (R->nvalues + 1) * sizeof *R->values);
      R->values[R->nvalues++] = v[i];
    }
    free(v);
    free(f);
  }
  hl_strv_free(&queue);
}

/* The heap-stored targets first, the largest first. */
static int by_heap_then_size(const void *a, const void *b) {
  const hl_svalue *x = a, *y = b;
  if (x->allocates != y->allocates) return y->allocates - x->allocates;
  return (y->size > x->size) - (y->size < x->size);
}

static void judge_copy(const hl_index_lookup *ix, const hl_scopy *c, const char *rule, hl_findings *out) {
  reach R = {0};
  gather(ix, c->slot, &R);
  size_t heap = 0;
  for (size_t i = 0; i < R.nvalues; i++) heap += R.values[i].allocates != 0;
  if (!R.unknown && heap) {
    qsort(R.values, R.nvalues, sizeof *R.values, by_heap_then_size);
    char *first = hl_loc_where(&R.values[0].at);
    hl_sb b = {0};
    size_t others = R.nvalues - 1;
    /* "may": a member or parameter can also be empty (never assigned,
     * nullptr), and its copy then allocates nothing. */
    hl_sb_printf(&b, "%s may allocate: it may hold the target from %s (%ld bytes), which is stored on the heap",
                 c->what, first, R.values[0].size);
    if (others && heap == 1)
      hl_sb_printf(&b, ", and %zu other target%s kept inline", others, others > 1 ? "s" : "");
    else if (others)
      hl_sb_printf(&b, ", and %zu other target%s, %zu of them on the heap", others, others > 1 ? "s" : "", heap - 1);
    hl_finding *f = hl_finding_new(rule, HL_SEV_WARNING, &c->at, hl_sb_str(&b));
    for (size_t i = 0; i < heap && i < MAX_NAMED; i++) {
      char *m = hl_xasprintf("a target it may hold, stored on the heap: %ld bytes (align %ld)", R.values[i].size,
                             R.values[i].align);
      hl_finding_note(f, &R.values[i].at, m);
      free(m);
    }
    hl_findings_add(out, f);
    hl_sb_free(&b);
    free(first);
  }
  for (size_t i = 0; i < R.nvalues; i++) hl_svalue_free(&R.values[i]);
  free(R.values);
}

void hl_slots_link(const hl_index_lookup *ix, const hl_summary *unit, const char *rule, hl_findings *out) {
  if (!ix->slot) return;
  for (size_t i = 0; i < unit->ncopies; i++) judge_copy(ix, &unit->copies[i], rule, out);
}
