#include "engine/flow/paths.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "engine/ast.h"
#include "engine/flow/flow_impl.h"
#include "util/util.h"

/* The state at a point (paths.h); 0 is no path at all (after a return). */
#define P_MAX HL_PATHS_MAX
#define P_EMPTY HL_PATHS_EMPTY
#define P_UNKNOWN HL_PATHS_UNKNOWN

typedef struct pw {
  const hl_flow *F;
  CXCursor decl; /* canonical */
  size_t idx[P_MAX];
  unsigned at[P_MAX];
  int n;
  hl_flow_read *reads; /* the state each read of d found */
  size_t nreads, capreads;
  uint64_t seen;  /* the writes whose assignment or declaration the walk passed */
  int has_init;   /* the declaration has an initializer: one of the writes */
  size_t copies;  /* how many reads of d by a DeclRefExpr (a capture by copy's among them) */
  uint64_t brk;   /* the states the breaks of the innermost switch (or do-while(0)) leave */
  uint64_t entry; /* the state a case label of the innermost switch is entered with */
  int in_switch;  /* case labels OR entry in */
  int cont_brk;   /* a continue leaves the innermost construct as a break does (do-while(0)) */
  int fail;
} pw;

unsigned hl_flow_write_at(CXCursor c) {
  unsigned off = 0;
  clang_getExpansionLocation(clang_getCursorLocation(c), NULL, NULL, NULL, &off);
  return off + 1; /* 0: no place */
}

typedef struct kids {
  CXCursor *c;
  size_t n;
} kids;

static kids children(CXCursor c) {
  kids K;
  K.c = hl_children(c, &K.n);
  return K;
}

static int is_decl(const pw *P, CXCursor c) { return clang_equalCursors(clang_getCanonicalCursor(c), P->decl); }

/* The writes recorded at where (an assignment or the declaration), or
 * P_UNKNOWN when none was. */
static uint64_t writes_at(pw *P, unsigned where) {
  uint64_t s = 0;
  for (int k = 0; k < P->n; k++)
    if (P->at[k] == where) s |= 1ull << k;
  P->seen |= s;
  return s ? s : P_UNKNOWN;
}

/* c assigns d (d = x, through operator=): the argument it assigns, or a
 * null cursor. */
static CXCursor assignment_to(const pw *P, CXCursor c) {
  if (clang_getCursorKind(c) != CXCursor_CallExpr || clang_Cursor_getNumArguments(c) != 2) return clang_getNullCursor();
  char *name = hl_cxstring_take(clang_getCursorSpelling(c));
  int op = strcmp(name, "operator=") == 0;
  free(name);
  if (!op) return clang_getNullCursor();
  CXCursor lhs = hl_strip(clang_Cursor_getArgument(c, 0));
  if (clang_getCursorKind(lhs) != CXCursor_DeclRefExpr || !is_decl(P, clang_getCursorReferenced(lhs)))
    return clang_getNullCursor();
  return lhs;
}

static uint64_t walk(pw *P, CXCursor c, uint64_t in);

/* The children in order, each from the state the one before left. */
static uint64_t sequence(pw *P, const kids *K, size_t from, uint64_t in) {
  for (size_t i = from; i < K->n && !P->fail; i++) in = walk(P, K->c[i], in);
  return in;
}

/* Every state an assignment or a declaration of d inside c can make. */
typedef struct assigns {
  pw *P;
  uint64_t states;
} assigns;

static enum CXChildVisitResult collect(CXCursor c, CXCursor parent, CXClientData d) {
  (void)parent;
  assigns *A = d;
  if (!clang_Cursor_isNull(assignment_to(A->P, c))) A->states |= writes_at(A->P, hl_flow_write_at(c));
  if (clang_getCursorKind(c) == CXCursor_VarDecl && is_decl(A->P, c))
    A->states |= P_EMPTY | (A->P->has_init ? writes_at(A->P, hl_flow_write_at(c)) : 0);
  return CXChildVisit_Recurse;
}

static uint64_t assigned_in(pw *P, CXCursor c) {
  assigns A = {P, 0};
  collect(c, clang_getNullCursor(), &A);
  clang_visitChildren(c, collect, &A);
  return A.states;
}

/* What a loop, a switch or a do-while(0) changes for what it holds: where
 * a break goes (each starts its own), where a continue goes, where a case
 * label enters from. */
typedef struct scope {
  uint64_t brk, entry;
  int in_switch, cont_brk;
} scope;

static scope enter(pw *P) {
  scope s = {P->brk, P->entry, P->in_switch, P->cont_brk};
  P->brk = 0;
  return s;
}

/* Leaves a construct entered with enter: the states its breaks left. */
static uint64_t leave(pw *P, scope s) {
  uint64_t brk = P->brk;
  P->brk = s.brk;
  P->entry = s.entry;
  P->in_switch = s.in_switch;
  P->cont_brk = s.cont_brk;
  return brk;
}

/* A construct whose parts run in an order or a number of times the walk
 * does not follow (a loop): each part entered with every state an
 * assignment inside may leave, and so left. Its breaks and continues stay
 * inside it (a case label in it is still its switch's). */
static uint64_t loosely(pw *P, CXCursor c, uint64_t in) {
  if (!in) return 0;
  uint64_t head = in | assigned_in(P, c);
  scope s = enter(P);
  P->cont_brk = 0;
  kids K = children(c);
  for (size_t i = 0; i < K.n && !P->fail; i++) walk(P, K.c[i], head);
  free(K.c);
  leave(P, s);
  return head;
}

/* The offset of a for statement's first ';' inside its parentheses (what
 * ends its init-statement), or 0 when there is none. Only its head is read
 * (up to its body, the last child): a body may be long, and each local the
 * paths follow walks the loop again. */
static unsigned init_end(CXCursor c, const kids *K) {
  CXTranslationUnit tu = clang_Cursor_getTranslationUnit(c);
  CXToken *t = NULL;
  unsigned n = 0, at = 0;
  int depth = 0;
  CXSourceRange head = clang_getCursorExtent(c);
  if (K->n)
    head = clang_getRange(clang_getRangeStart(head), clang_getRangeStart(clang_getCursorExtent(K->c[K->n - 1])));
  clang_tokenize(tu, head, &t, &n);
  for (unsigned i = 0; i < n && !at; i++) {
    if (clang_getTokenKind(t[i]) != CXToken_Punctuation) continue;
    char *sp = hl_cxstring_take(clang_getTokenSpelling(tu, t[i]));
    if (!strcmp(sp, "(")) depth++;
    if (!strcmp(sp, ")") && --depth == 0) i = n;
    if (!strcmp(sp, ";") && depth == 1) clang_getFileLocation(clang_getTokenLocation(tu, t[i]), NULL, NULL, NULL, &at);
    free(sp);
  }
  if (t) clang_disposeTokens(tu, t, n);
  return at;
}

/* Whether child k of a for statement (K, init ending at end) or of a
 * range-based for runs once, before the loop: the init-statement, and a
 * range-based for's range (not its loop variable, not its body). */
static int before_loop(CXCursor c, const kids *K, size_t k, unsigned end) {
  if (k + 1 == K->n) return 0;
  if (clang_getCursorKind(c) == CXCursor_CXXForRangeStmt) return clang_getCursorKind(K->c[k]) != CXCursor_VarDecl;
  unsigned off;
  clang_getFileLocation(clang_getRangeStart(clang_getCursorExtent(K->c[k])), NULL, NULL, NULL, &off);
  return end && off < end;
}

/* A for loop: what runs once before it in order (hl_flow: a copy in the
 * init-statement reads what the variable held before the loop), the rest
 * as a loop. */
static uint64_t walk_for(pw *P, CXCursor c, uint64_t in) {
  if (!in) return 0;
  kids K = children(c);
  unsigned end = clang_getCursorKind(c) == CXCursor_ForStmt ? init_end(c, &K) : 0;
  for (size_t i = 0; i < K.n && !P->fail; i++)
    if (before_loop(c, &K, i, end)) in = walk(P, K.c[i], in);
  uint64_t head = in;
  for (size_t i = 0; i < K.n; i++)
    if (!before_loop(c, &K, i, end)) head |= assigned_in(P, K.c[i]);
  scope s = enter(P);
  P->cont_brk = 0;
  for (size_t i = 0; i < K.n && !P->fail; i++)
    if (!before_loop(c, &K, i, end)) walk(P, K.c[i], head);
  free(K.c);
  leave(P, s);
  return head;
}

/* A switch: its condition, then its body in order, each case label
 * entered from the condition too; left by falling off the end, by a
 * break, or (no case taken) from the condition. A continue in it is its
 * enclosing construct's. */
static uint64_t walk_switch(pw *P, CXCursor c, uint64_t in) {
  kids K = children(c);
  for (size_t i = 0; i + 1 < K.n && !P->fail; i++) in = walk(P, K.c[i], in);
  scope s = enter(P);
  P->entry = in;
  P->in_switch = 1;
  uint64_t out = K.n ? walk(P, K.c[K.n - 1], in) : in;
  free(K.c);
  return out | leave(P, s) | in;
}

/* do ... while (0), the macro idiom: its body once, left at its end or by
 * a break or continue. */
static int once(CXCursor c) {
  kids K = children(c);
  CXCursor cond = K.n == 2 ? hl_strip(K.c[1]) : clang_getNullCursor();
  free(K.c);
  enum CXCursorKind k = clang_getCursorKind(cond);
  if (k != CXCursor_IntegerLiteral && k != CXCursor_CXXBoolLiteralExpr) return 0;
  CXEvalResult r = clang_Cursor_Evaluate(cond);
  int zero = r && clang_EvalResult_getKind(r) == CXEval_Int && clang_EvalResult_getAsLongLong(r) == 0;
  if (r) clang_EvalResult_dispose(r);
  return zero;
}

static uint64_t walk_once(pw *P, CXCursor c, uint64_t in) {
  scope s = enter(P);
  P->cont_brk = 1;
  kids K = children(c);
  uint64_t out = K.n ? walk(P, K.c[0], in) : in;
  free(K.c);
  return out | leave(P, s);
}

/* A try block: its body in order; a handler entered from anywhere in it. */
static uint64_t walk_try(pw *P, CXCursor c, uint64_t in) {
  kids K = children(c);
  uint64_t body = K.n ? walk(P, K.c[0], in) : in, out = body;
  uint64_t thrown = in | (K.n ? assigned_in(P, K.c[0]) : 0);
  for (size_t i = 1; i < K.n && !P->fail; i++) out |= walk(P, K.c[i], in ? thrown : 0);
  free(K.c);
  return out;
}

/* A call whose arguments assign d: they run in an order the language
 * leaves open, so each is entered with every state they may leave. */
static uint64_t unordered(pw *P, CXCursor c, uint64_t in, uint64_t assigned) {
  uint64_t head = in ? in | assigned : 0;
  kids K = children(c);
  for (size_t i = 0; i < K.n && !P->fail; i++) walk(P, K.c[i], head);
  free(K.c);
  return head;
}

/* Whether 'else' is written between two of an if's children: the third
 * child is its else branch, not its body after an init-statement. */
static int else_between(CXCursor a, CXCursor b) {
  CXTranslationUnit tu = clang_Cursor_getTranslationUnit(a);
  CXSourceRange r =
      clang_getRange(clang_getRangeEnd(clang_getCursorExtent(a)), clang_getRangeStart(clang_getCursorExtent(b)));
  CXToken *t = NULL;
  unsigned n = 0, found = 0;
  clang_tokenize(tu, r, &t, &n);
  for (unsigned i = 0; i < n && !found; i++) {
    char *s = hl_cxstring_take(clang_getTokenSpelling(tu, t[i]));
    found = clang_getTokenKind(t[i]) == CXToken_Keyword && strcmp(s, "else") == 0;
    free(s);
  }
  if (t) clang_disposeTokens(tu, t, n);
  return (int)found;
}

/* A condition, then one of two branches. */
static uint64_t branches(pw *P, CXCursor cond, CXCursor a, CXCursor b, uint64_t in) {
  uint64_t s = walk(P, cond, in);
  return walk(P, a, s) | walk(P, b, s);
}

static uint64_t walk_if(pw *P, CXCursor c, uint64_t in) {
  kids K = children(c);
  uint64_t out;
  if (K.n == 2 && clang_isExpression(clang_getCursorKind(K.c[0]))) {
    uint64_t s = walk(P, K.c[0], in);
    out = s | walk(P, K.c[1], s);
  } else if (K.n == 3 && clang_isExpression(clang_getCursorKind(K.c[0])) && else_between(K.c[1], K.c[2])) {
    out = branches(P, K.c[0], K.c[1], K.c[2], in);
  } else {
    out = loosely(P, c, in);
  }
  free(K.c);
  return out;
}

/* A lambda: its captures are read where it is made; its body runs later,
 * any number of times, so a read there may find any value — unless d is
 * captured by copy, when the body reads the copy — and an assignment there
 * is not placed. */
static uint64_t walk_lambda(pw *P, CXCursor c, uint64_t in) {
  kids K = children(c);
  size_t before = P->copies;
  for (size_t i = 0; i < K.n && !P->fail; i++)
    if (clang_getCursorKind(K.c[i]) != CXCursor_CompoundStmt) in = walk(P, K.c[i], in);
  /* A capture by copy is an expression naming d ([d], [=]); one by
   * reference ([&d]) only a VariableRef. */
  int by_copy = P->copies != before;
  for (size_t i = 0; i < K.n && !P->fail; i++) {
    if (clang_getCursorKind(K.c[i]) != CXCursor_CompoundStmt) continue;
    if (assigned_in(P, K.c[i]))
      P->fail = 1;
    else if (!by_copy)
      walk(P, K.c[i], ~0ull);
  }
  free(K.c);
  return in;
}

/* An assignment to d: the value it assigns is evaluated first. */
static uint64_t walk_assignment(pw *P, CXCursor c, CXCursor lhs, uint64_t in) {
  kids K = children(c);
  for (size_t i = 0; i < K.n && !P->fail; i++)
    if (!clang_equalCursors(K.c[i], lhs)) in = walk(P, K.c[i], in);
  free(K.c);
  uint64_t w = writes_at(P, hl_flow_write_at(c));
  return in ? w : 0;
}

static uint64_t walk(pw *P, CXCursor c, uint64_t in) {
  if (P->fail) return in;
  enum CXCursorKind k = clang_getCursorKind(c);
  switch (k) {
  case CXCursor_GotoStmt:
  case CXCursor_IndirectGotoStmt:
  case CXCursor_LabelStmt: P->fail = 1; return in;
  case CXCursor_IfStmt: return walk_if(P, c, in);
  case CXCursor_ConditionalOperator: {
    kids K = children(c);
    uint64_t out = K.n == 3 ? branches(P, K.c[0], K.c[1], K.c[2], in) : loosely(P, c, in);
    free(K.c);
    return out;
  }
  case CXCursor_BinaryOperator: {
    /* The right operand may not run (&&, ||). */
    kids K = children(c);
    uint64_t s = K.n ? walk(P, K.c[0], in) : in;
    uint64_t out = s | sequence(P, &K, 1, s);
    free(K.c);
    return out;
  }
  case CXCursor_DoStmt:
    if (once(c)) return walk_once(P, c, in);
    return loosely(P, c, in);
  case CXCursor_WhileStmt: return loosely(P, c, in);
  case CXCursor_ForStmt:
  case CXCursor_CXXForRangeStmt: return walk_for(P, c, in);
  case CXCursor_SwitchStmt: return walk_switch(P, c, in);
  case CXCursor_CXXTryStmt: return walk_try(P, c, in);
  case CXCursor_CaseStmt:
  case CXCursor_DefaultStmt:
    if (P->in_switch) in |= P->entry;
    break;
  case CXCursor_BreakStmt: P->brk |= in; return 0;
  case CXCursor_ContinueStmt:
    if (P->cont_brk) P->brk |= in;
    return 0;
  case CXCursor_LambdaExpr: return walk_lambda(P, c, in);
  case CXCursor_DeclRefExpr:
  case CXCursor_VariableRef: /* a lambda's capture [d] or [&d] */
    if (is_decl(P, clang_getCursorReferenced(c))) {
      hl_flow_read r = {hl_flow_write_at(c), in};
      HL_PUSH(P->reads, P->nreads, P->capreads, r);
      P->copies += k == CXCursor_DeclRefExpr;
    }
    return in;
  case CXCursor_VarDecl:
    if (is_decl(P, c)) {
      kids K = children(c);
      in = sequence(P, &K, 0, in);
      free(K.c);
      uint64_t init = P->has_init ? writes_at(P, hl_flow_write_at(c)) : P_EMPTY;
      return in ? init : 0;
    }
    break;
  default: break;
  }
  CXCursor lhs = assignment_to(P, c);
  if (!clang_Cursor_isNull(lhs)) return walk_assignment(P, c, lhs, in);
  uint64_t assigned = k == CXCursor_CallExpr ? assigned_in(P, c) : 0;
  if (assigned) return unordered(P, c, in, assigned);
  kids K = children(c);
  uint64_t out = sequence(P, &K, 0, in);
  free(K.c);
  if (k == CXCursor_ReturnStmt || k == CXCursor_CXXThrowExpr) return 0;
  return out;
}

/* The body of the function declaring local d, or a null cursor. */
static CXCursor body_of(CXCursor d) {
  CXCursor fn = clang_getCursorSemanticParent(d);
  if (!hl_is_function_like(clang_getCursorKind(fn))) return clang_getNullCursor();
  CXCursor def = clang_getCursorDefinition(fn);
  CXCursor body = hl_last_child(clang_Cursor_isNull(def) ? fn : def);
  return clang_getCursorKind(body) == CXCursor_CompoundStmt ? body : clang_getNullCursor();
}

int hl_flow_paths_of(const hl_flow *F, int d, hl_flow_paths *out) {
  memset(out, 0, sizeof *out);
  pw P;
  memset(&P, 0, sizeof P);
  P.F = F;
  P.decl = F->decls[d].cursor;
  if (clang_getCursorKind(P.decl) != CXCursor_VarDecl) return -1;
  for (size_t i = 0; i < F->nwrites; i++) {
    if (F->writes[i].decl != d) continue;
    if (P.n == P_MAX || !F->writes[i].at) return -1;
    out->widx[P.n] = i;
    P.at[P.n++] = F->writes[i].at;
  }
  out->nw = P.n;
  CXCursor body = body_of(P.decl);
  if (clang_Cursor_isNull(body)) return -1;
  P.has_init = F->decls[d].has_init;
  /* Before the declaration nothing can read d: any state will do. */
  walk(&P, body, P_EMPTY);
  if (P.fail) {
    free(P.reads);
    return -1;
  }
  /* A write the walk did not pass is in code it does not model
   * (d.operator=(v)): it cannot place it. */
  if (P.seen != (1ull << P.n) - 1) {
    free(P.reads);
    return -1;
  }
  for (size_t i = 0; i < P.nreads; i++) out->any |= P.reads[i].state;
  out->reads = P.reads;
  out->nreads = P.nreads;
  return 0;
}

void hl_flow_paths_free(hl_flow_paths *p) {
  if (p) free(p->reads);
}

uint64_t hl_flow_paths_at(const hl_flow_paths *p, unsigned at) {
  uint64_t s = 0;
  int found = 0;
  for (size_t i = 0; at && i < p->nreads; i++)
    if (p->reads[i].at == at) {
      s |= p->reads[i].state;
      found = 1;
    }
  return found ? s : p->any;
}

int hl_flow_paths_holds(const hl_flow_paths *p, uint64_t s, size_t i) {
  for (int k = 0; k < p->nw; k++)
    if (p->widx[k] == i) return (int)(s >> k & 1);
  return 0;
}
