#include "engine/inst/relay.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/ast.h"
#include "engine/inst/answer.h"
#include "engine/inst/callsite.h"
#include "engine/inst/probe_parse.h"
#include "util/util.h"

#define MAX_RELAYS 3

typedef struct cut {
  hl_loc at;       /* the call where chains end */
  size_t first, n; /* its relay probes */
} cut;

/* Whether the lambda expression l is the one type spells "(lambda at F:line:col)". */
static int is_lambda_named(CXCursor l, const char *type) {
  CXFile f;
  unsigned line, col;
  clang_getFileLocation(clang_getCursorLocation(l), &f, &line, &col, NULL);
  if (!f || !hl_starts_with(type, "(lambda at ")) return 0;
  char tail[48];
  snprintf(tail, sizeof tail, ":%u:%u)", line, col);
  return hl_ends_with(type, tail);
}

/* The relay probes for the call at L, when L is a call inside a template's
 * own code: its arguments that may have the stored type (the lambda the
 * type names, else any of a dependent type). */
static void relay_probes(hl_inst *P, const hl_loc *L, const char *type) {
  hl_callsite w;
  if (hl_callsite_at(P->u.tu, L, &w)) return;
  if (!w.in_template || clang_Cursor_isNull(w.call)) return;
  CXCursor *args;
  size_t nargs = hl_callsite_args(w.call, &args);
  int named = 0;
  for (size_t i = 0; i < nargs; i++)
    named |= clang_getCursorKind(hl_strip(args[i])) == CXCursor_LambdaExpr && is_lambda_named(hl_strip(args[i]), type);
  for (size_t i = 0; i < nargs; i++) {
    CXCursor e = hl_strip(args[i]);
    int lambda = clang_getCursorKind(e) == CXCursor_LambdaExpr;
    if (named ? !(lambda && is_lambda_named(e, type)) : !lambda && !hl_type_is_dependent(clang_getCursorType(args[i])))
      continue;
    const char *why;
    int id = hl_inst_ask_layout(P, args[i], &why);
    if (id >= 0) P->v[id].relay = 1;
  }
  free(args);
}

/* h's chain up to its entry ci, continued by the relay answer r's beyond
 * its own entry. */
static hl_inst_answer splice(const hl_inst_answer *h, size_t ci, const hl_inst_answer *r) {
  hl_inst_answer s = *h;
  s.type = hl_xstrdup(h->type);
  s.to = h->to ? hl_xstrdup(h->to) : NULL;
  size_t hn = ci + 1;
  s.nchain = hn + r->nchain - 1;
  s.chain = hl_xcalloc(s.nchain, sizeof *s.chain);
  s.in_system = hl_xcalloc(s.nchain, 1);
  s.carries = hl_xcalloc(s.nchain, 1);
  s.user = s.outer = 0;
  for (size_t i = 0; i < s.nchain; i++) {
    const hl_loc *l = i < hn ? &h->chain[i] : &r->chain[i - hn + 1];
    s.chain[i] = *l;
    s.chain[i].file = hl_xstrdup(l->file);
    s.in_system[i] = i < hn ? h->in_system[i] : r->in_system[i - hn + 1];
    s.carries[i] = i < hn ? h->carries[i] : r->carries[i - hn + 1];
    if (!s.in_system[i]) s.user = s.outer = i;
  }
  return s;
}

/* What a chain entry is: a call in a template's code, the function that
 * holds it and the template the call instantiates (canonical cursors, or
 * null ones). */
typedef struct entry_info {
  char *file;
  unsigned offset;
  int in_template;
  CXCursor fn, callee;
} entry_info;

static const entry_info *entry_at(hl_inst *P, entry_info **seen, size_t *n, size_t *cap, const hl_loc *L) {
  for (size_t i = 0; i < *n; i++)
    if ((*seen)[i].offset == L->offset && !strcmp((*seen)[i].file, L->file)) return &(*seen)[i];
  entry_info e = {hl_xstrdup(L->file), L->offset, 0, clang_getNullCursor(), clang_getNullCursor()};
  hl_callsite w;
  if (!hl_callsite_at(P->u.tu, L, &w)) {
    e.in_template = w.in_template;
    if (!clang_Cursor_isNull(w.fn)) e.fn = clang_getCanonicalCursor(w.fn);
    CXCursor callee = clang_Cursor_isNull(w.call) ? w.call : clang_getCursorReferenced(w.call);
    CXCursor t = clang_Cursor_isNull(callee) ? callee : clang_getSpecializedCursorTemplate(callee);
    if (!clang_Cursor_isNull(t)) e.callee = clang_getCanonicalCursor(t);
  }
  HL_PUSH(*seen, *n, *cap, e);
  return &(*seen)[*n - 1];
}

/* Where a hit's chain is cut: the last entry when it is in a template's
 * code; or an entry in a function template whose next entry instantiates
 * another template (a template queued while another instantiation was
 * made for its return type keeps only the outer caller: `fill_sync<T>`
 * calling `auto fill(v)`, whose store names fill's call, then fill_sync's
 * caller). Returns its index, or 0 when the chain is whole. */
static size_t cut_index(hl_inst *P, const hl_inst_answer *h, entry_info **seen, size_t *n, size_t *cap) {
  for (size_t k = 1; k < h->nchain; k++) {
    if (h->in_system[k]) continue;
    const entry_info *e = entry_at(P, seen, n, cap, &h->chain[k]);
    if (!e->in_template) continue;
    if (k == h->nchain - 1) return k;
    size_t next = k + 1;
    while (next < h->nchain - 1 && h->in_system[next]) next++;
    if (h->in_system[next]) continue;
    const entry_info *o = entry_at(P, seen, n, cap, &h->chain[next]);
    e = entry_at(P, seen, n, cap, &h->chain[k]); /* seen may have moved */
    if (!clang_Cursor_isNull(o->callee) && !clang_Cursor_isNull(e->fn) && !clang_equalCursors(o->callee, e->fn) &&
        clang_getCursorKind(e->fn) == CXCursor_FunctionTemplate &&
        clang_getCursorKind(o->callee) == CXCursor_FunctionTemplate)
      return k;
  }
  return 0;
}

/* What the relays know across their rounds. */
typedef struct relays {
  cut *C; /* the calls where chains were cut, each with its probes */
  size_t nC, capC;
  entry_info *E; /* what each chain entry looked at is */
  size_t nE, capE;
  hl_inst_answer *R; /* every relay's answers */
  size_t nR, capR;
} relays;

/* The cut of each hit from start on (cut_of: its index in S->C, or -1;
 * cut_at: the chain entry), queuing relay probes at each new one. */
static void find_cuts(hl_inst *P, relays *S, size_t start, size_t *cut_of, size_t *cut_at) {
  for (size_t i = start; i < P->nhits; i++) {
    hl_inst_answer *h = &P->hits[i];
    size_t ci = cut_index(P, h, &S->E, &S->nE, &S->capE);
    cut_at[i] = ci;
    cut_of[i] = (size_t)-1;
    if (!ci) continue;
    const hl_loc *L = &h->chain[ci];
    size_t c = 0;
    while (c < S->nC && !hl_answer_same_place(&S->C[c].at, L)) c++;
    if (c == S->nC) {
      cut k = {*L, P->n, 0};
      k.at.file = hl_xstrdup(L->file);
      relay_probes(P, L, h->type);
      k.n = P->n - k.first;
      HL_PUSH(S->C, S->nC, S->capC, k);
    }
    cut_of[i] = c;
  }
}

/* Each hit from start to nhits continued by every relay answer of its
 * cut's arguments with its type and layout (the continued ones, new, go
 * last); left as it is without one. Returns where the new ones start. */
static size_t continue_chains(hl_inst *P, relays *S, size_t start, size_t nhits, const size_t *cut_of,
                              const size_t *cut_at) {
  hl_inst_answer *next = NULL;
  size_t nnext = 0, capnext = 0, kept = start;
  for (size_t i = start; i < nhits; i++) {
    hl_inst_answer *h = &P->hits[i];
    const cut *k = cut_of[i] == (size_t)-1 ? NULL : &S->C[cut_of[i]];
    int continued = 0;
    for (size_t j = 0; k && j < S->nR; j++) {
      const hl_inst_answer *r = &S->R[j];
      if ((size_t)r->question < k->first || (size_t)r->question >= k->first + k->n || !hl_answer_same_numbers(h, r))
        continue;
      hl_inst_answer sp = splice(h, cut_at[i], r);
      int dup = 0;
      for (size_t q = 0; q < nnext && !dup; q++) dup = hl_answer_same(&next[q], &sp);
      if (dup)
        hl_answer_free(&sp);
      else
        HL_PUSH(next, nnext, capnext, sp);
      continued = 1;
    }
    if (continued)
      hl_answer_free(h);
    else
      P->hits[kept++] = *h;
  }
  P->nhits = kept;
  for (size_t i = 0; i < nnext; i++) HL_PUSH(P->hits, P->nhits, P->caphits, next[i]);
  free(next);
  return kept;
}

void hl_relay(hl_inst *P) {
  relays S;
  memset(&S, 0, sizeof S);
  size_t start = 0; /* hits before it are examined */
  for (int round = 0; round < MAX_RELAYS && start < P->nhits; round++) {
    size_t nhits = P->nhits, first = P->n;
    size_t *cut_of = hl_xcalloc(nhits, sizeof *cut_of), *cut_at = hl_xcalloc(nhits, sizeof *cut_at);
    find_cuts(P, &S, start, cut_of, cut_at);
    char *why = NULL;
    if (P->n > first && hl_probe_parse(P, first, NULL, NULL, NULL, &why)) {
      free(why);
      free(cut_of);
      free(cut_at);
      break;
    }
    /* The relays' answers out of the hits. */
    size_t out = 0;
    for (size_t i = 0; i < P->nhits; i++) {
      if ((size_t)P->hits[i].question >= first)
        HL_PUSH(S.R, S.nR, S.capR, P->hits[i]);
      else
        P->hits[out++] = P->hits[i];
    }
    P->nhits = out;
    start = continue_chains(P, &S, start, nhits, cut_of, cut_at);
    free(cut_of);
    free(cut_at);
  }
  for (size_t i = 0; i < S.nR; i++) hl_answer_free(&S.R[i]);
  free(S.R);
  for (size_t i = 0; i < S.nC; i++) hl_loc_free(&S.C[i].at);
  free(S.C);
  for (size_t i = 0; i < S.nE; i++) free(S.E[i].file);
  free(S.E);
  hl_answers_sort(P);
}
