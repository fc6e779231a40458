#include "engine/reach.h"

#include <stdlib.h>

#include "engine/ast.h"
#include "util/util.h"

typedef struct node {
  CXCursor fn;     /* canonical */
  size_t *callers; /* node indices: the reverse edges */
  size_t ncallers, cap;
  int depth;     /* calls from the nearest root */
  unsigned seen; /* the query that last marked it */
} node;

struct hl_reach {
  node *nodes;
  size_t n, cap;
  size_t *table; /* open addressing: node index + 1, 0 empty */
  size_t tcap;
  /* The recorded calls: the specialization each calls (canonical), where
   * clang names it; roots[i]: its node, once the graph is made. */
  CXCursor *call_fn, *call_name, last;
  size_t ncalls, capcalls, capnames;
  size_t *roots;
  int made;   /* the graph */
  int frozen; /* the calls were read: no more are recorded */
  unsigned query;
};

/* Whether fn is a function (or member function, constructor, conversion)
 * instantiated from a template: a node of the graph. */
static int is_specialization(CXCursor fn) {
  enum CXCursorKind k = clang_getCursorKind(fn);
  if (k != CXCursor_FunctionDecl && k != CXCursor_CXXMethod && k != CXCursor_Constructor &&
      k != CXCursor_ConversionFunction)
    return 0;
  return !clang_Cursor_isNull(clang_getSpecializedCursorTemplate(fn));
}

static void rehash(hl_reach *R) {
  size_t cap = R->tcap ? R->tcap * 2 : 256;
  free(R->table);
  R->table = hl_xcalloc(cap, sizeof *R->table);
  R->tcap = cap;
  for (size_t i = 0; i < R->n; i++) {
    size_t h = clang_hashCursor(R->nodes[i].fn) & (cap - 1);
    while (R->table[h]) h = (h + 1) & (cap - 1);
    R->table[h] = i + 1;
  }
}

/* The table slot of the canonical fn: its node's, or the empty one where
 * it goes. */
static size_t slot_of(const hl_reach *R, CXCursor fn) {
  size_t h = clang_hashCursor(fn) & (R->tcap - 1);
  while (R->table[h] && !clang_equalCursors(R->nodes[R->table[h] - 1].fn, fn)) h = (h + 1) & (R->tcap - 1);
  return h;
}

/* fn's node, made (at depth) when new; *made says which. */
static size_t node_of(hl_reach *R, CXCursor fn, int depth, int *made) {
  fn = clang_getCanonicalCursor(fn);
  if ((R->n + 1) * 2 > R->tcap) rehash(R);
  size_t h = slot_of(R, fn);
  *made = 0;
  if (R->table[h]) return R->table[h] - 1;
  node nd = {0};
  nd.fn = fn;
  nd.depth = depth;
  HL_PUSH(R->nodes, R->n, R->cap, nd);
  R->table[h] = R->n;
  *made = 1;
  return R->n - 1;
}

typedef struct {
  hl_reach *R;
  size_t from;
  size_t **queue;
  size_t *nqueue, *capqueue;
} edges;

static enum CXChildVisitResult add_edges(CXCursor c, CXCursor parent, CXClientData data) {
  (void)parent;
  edges *e = data;
  enum CXCursorKind k = clang_getCursorKind(c);
  if (k == CXCursor_LambdaExpr) return CXChildVisit_Continue;
  if (k == CXCursor_CallExpr) {
    CXCursor r = clang_getCursorReferenced(c);
    if (is_specialization(r)) {
      int made;
      size_t to = node_of(e->R, r, e->R->nodes[e->from].depth + 1, &made);
      node *t = &e->R->nodes[to];
      HL_PUSH(t->callers, t->ncallers, t->cap, e->from);
      if (made) HL_PUSH(*e->queue, *e->nqueue, *e->capqueue, to);
    }
  }
  return CXChildVisit_Recurse;
}

hl_reach *hl_reach_new(void) { return hl_xcalloc(1, sizeof(hl_reach)); }

/* The cursor whose location clang names for a call's "requested here":
 * the function's (or member's) name; a constructor call's own. */
static CXCursor callee_name(CXCursor call, CXCursor fn) {
  if (clang_getCursorKind(fn) == CXCursor_Constructor) return call;
  CXCursor callee = hl_strip(hl_first_child(call));
  enum CXCursorKind k = clang_getCursorKind(callee);
  return k == CXCursor_MemberRefExpr || k == CXCursor_DeclRefExpr ? callee : clang_getNullCursor();
}

void hl_reach_note_call(hl_reach *R, CXCursor call) {
  if (R->frozen || (R->ncalls && clang_equalCursors(call, R->last))) return;
  CXCursor fn = clang_getCursorReferenced(call);
  if (!is_specialization(fn)) return;
  CXCursor name = callee_name(call, fn);
  if (clang_Cursor_isNull(name)) return;
  R->last = call;
  size_t before = R->ncalls;
  HL_PUSH(R->call_fn, R->ncalls, R->capcalls, clang_getCanonicalCursor(fn));
  hl_grow((void **)&R->call_name, &R->capnames, R->ncalls, sizeof *R->call_name);
  R->call_name[before] = name;
}

const CXCursor *hl_reach_call_names(hl_reach *R, size_t *n) {
  R->frozen = 1;
  *n = R->ncalls;
  return R->call_name;
}

int hl_reach_same_callee(const hl_reach *R, size_t i, size_t j) {
  return clang_equalCursors(R->call_fn[i], R->call_fn[j]);
}

/* The graph from the specializations the recorded calls call. */
static void make_graph(hl_reach *R) {
  size_t *queue = NULL, nqueue = 0, capqueue = 0;
  R->made = R->frozen = 1;
  R->roots = hl_xcalloc(R->ncalls ? R->ncalls : 1, sizeof *R->roots);
  for (size_t i = 0; i < R->ncalls; i++) {
    int made = 0;
    R->roots[i] = node_of(R, R->call_fn[i], 0, &made);
    if (made) HL_PUSH(queue, nqueue, capqueue, R->roots[i]);
  }
  /* Breadth first: a node's depth is its nearest root's distance. */
  for (size_t q = 0; q < nqueue; q++) {
    size_t i = queue[q];
    if (R->nodes[i].depth >= HL_REACH_DEPTH) continue;
    CXCursor def = clang_getCursorDefinition(R->nodes[i].fn);
    if (clang_Cursor_isNull(def) || clang_Location_isInSystemHeader(clang_getCursorLocation(def))) continue;
    edges e = {R, i, &queue, &nqueue, &capqueue};
    clang_visitChildren(def, add_edges, &e);
  }
  free(queue);
}

void hl_reach_free(hl_reach *R) {
  if (!R) return;
  for (size_t i = 0; i < R->n; i++) free(R->nodes[i].callers);
  free(R->nodes);
  free(R->table);
  free(R->roots);
  free(R->call_fn);
  free(R->call_name);
  free(R);
}

void hl_reach_callers(hl_reach *R, size_t to, char *flags) {
  if (!R->made) make_graph(R);
  size_t first = R->roots[to];
  /* Backwards from to's node, over the reverse edges. */
  unsigned query = ++R->query;
  size_t *stack = NULL, nstack = 0, capstack = 0;
  HL_PUSH(stack, nstack, capstack, first);
  R->nodes[first].seen = query;
  while (nstack) {
    node *nd = &R->nodes[stack[--nstack]];
    for (size_t k = 0; k < nd->ncallers; k++) {
      size_t c = nd->callers[k];
      if (R->nodes[c].seen == query) continue;
      R->nodes[c].seen = query;
      HL_PUSH(stack, nstack, capstack, c);
    }
  }
  free(stack);
  for (size_t i = 0; i < R->ncalls; i++) flags[i] = R->nodes[R->roots[i]].seen == query;
}
