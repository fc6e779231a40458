/* function-copy: a copy of a std::function (or std::any, or a profile's
 * copyable wrapper) whose target is known to be on the heap, so the copy
 * allocates again. Reported only when every value that can reach the copied
 * variable, member or parameter is a construction the sbo engine judges as
 * heap-stored; a copy of anything else stays silent. Fixes: a const
 * reference parameter where the callee only reads it, else std::move at a
 * last use. See docs/rules/function-copy.md.
 *
 * Where a wrapper's values come from and where they go is engine/flow's
 * (engine/flow/flow.h): this rule hands it the stores the sbo engine
 * matches, judges them, and words the copies whose every value is a
 * heap-stored target, with the const& and std::move fixes. Template copies
 * are the rule's own: only a conversion probe tells which instantiations
 * copy a wrapper. */
#include <stdlib.h>
#include <string.h>

#include "util/util.h"
#include "rules/copies/slots.h"
#include "rules/lib/rewrite.h"
#include "rules/sbo/judge.h"
#include "rules/sbo/match.h"
#include "rules/sbo/sbo.h"
#include "rules/sbo/templates.h"

/* A store the sbo engine matched, as the flow keeps it, and its verdict. */
typedef struct judged_store {
  hl_sbo_site site;
  hl_sbo_verdict verdict;
} judged_store;

/* A store a function other units call returns: its value is filed under
 * the function's key (copies/slots.h) for the link step. */
typedef struct returned_store {
  judged_store s;
  char *key;
} returned_store;

/* A member initializer inside a template copying a constructor's parameter
 * into a member whose type depends on the template (Node(const Callback_ &cb)
 * : cb(cb)): a copy of a wrapper in the instantiations where it is one,
 * which a conversion probe tells. */
typedef struct template_copy {
  hl_sbo_site site; /* the conversion site (its expr is the parameter) */
  CXCursor fn;      /* the constructor */
  int param;
} template_copy;

typedef struct state {
  hl_flow *flow;
  returned_store *rets;
  size_t nrets, caprets;
  template_copy *tcopies;
  size_t ntcopies, captcopies;
} state;

static void *match_store(hl_ctx *ctx, CXCursor c, int *assign) {
  judged_store *s = hl_xcalloc(1, sizeof *s);
  if (!hl_sbo_match(ctx, c, &s->site)) {
    free(s);
    return NULL;
  }
  *assign = s->site.store_kind == HL_STORE_ASSIGN;
  return s;
}

static void release_store(void *store) {
  judged_store *s = store;
  hl_traits_free(&s->verdict.traits);
  hl_sbo_site_free(&s->site);
  free(s);
}

static const hl_flow_hooks store_hooks = {match_store, release_store};

static judged_store *store_of(const state *S, int id) { return hl_flow_store(S->flow, id); }

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
  hl_flow_visit(S->flow, ctx, c);
  hl_slots_visit(ctx, c);
  char *key = hl_ctx_summary(ctx) && clang_getCursorKind(c) == CXCursor_CallExpr ? hl_slots_return(ctx, c) : NULL;
  returned_store r;
  memset(&r, 0, sizeof r);
  r.key = key;
  if (key && hl_sbo_match(ctx, c, &r.s.site))
    HL_PUSH(S->rets, S->nrets, S->caprets, r);
  else
    free(key);
  if (clang_getCursorKind(c) == CXCursor_Constructor) template_copies(ctx, S, c);
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
static void move_fix(hl_ctx *ctx, const state *S, const hl_flow_copy *c, hl_finding *f) {
  char *name = hl_cxstring_take(clang_getCursorSpelling(hl_flow_decl(S->flow, c->from)));
  hl_edit e[2];
  int n = 0, ok;
  if (c->kind == HL_FLOW_CAPTURE && c->capture_form == 1) {
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
    char *m = c->kind == HL_FLOW_CAPTURE
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

/* Why the parameter's declarations cannot all be rewritten, or NULL. */
static const char *const_ref_blocked(const state *S, const hl_flow_copy *c) {
  static const char *const why[] = {
      [HL_FLOW_PARAM_FREE] = NULL,
      [HL_FLOW_PARAM_ESCAPED] = "the function's address is taken",
      [HL_FLOW_PARAM_UNNAMED] = "a declaration leaves the parameter unnamed",
      [HL_FLOW_PARAM_IN_SYSTEM] = "it is declared in a system header",
  };
  return why[hl_flow_param_blocked(S->flow, c)];
}

/* The const& fix: each declaration's parameter "T x" becomes "const T &x". */
static int const_ref_edits(hl_ctx *ctx, const state *S, const hl_flow_copy *c, hl_finding *f) {
  hl_edit *e = NULL;
  size_t n = 0, cap = 0;
  int ok = 1;
  CXCursor *params;
  size_t np = hl_flow_param_decls(S->flow, c->callee, c->param, &params);
  for (size_t i = 0; i < np && ok; i++) {
    CXCursor p = params[i];
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
  free(params);
  return ok;
}

/* The targets a copy copies: those stored on the heap (the largest first)
 * and how many others it may hold, kept inline. */
typedef struct copied {
  const judged_store **heap;
  size_t nheap, ninline;
  int may; /* it may also hold one kept inline, or be empty */
} copied;

/* At most this many heap-stored targets get a note each. */
#define NAMED_TARGETS 4

static char *copy_headline(hl_ctx *ctx, const hl_flow_copy *c, const copied *t) {
  const hl_sbo_site *s = &t->heap[0]->site;
  const hl_sbo_wording *wd = hl_sbo_wording_of(s->wrapper);
  char *noun = wd ? wd->noun(ctx, s) : hl_xstrdup("value");
  const char *lib = s->wrapper->profile->library ? s->wrapper->profile->library : s->wrapper->name;
  const char *loop = c->in_loop ? " on every iteration of the enclosing loop" : "";
  hl_sb b = {0};
  if (!t->may)
    hl_sb_printf(&b, "copying this %s allocates again%s: its target (a %s, %ld bytes) is stored on the heap by %s",
                 c->wrapper_spelling, loop, noun, t->heap[0]->verdict.size, lib);
  else
    hl_sb_printf(&b, "copying this %s may allocate%s: it may hold a %s (%ld bytes), which %s stores on the heap",
                 c->wrapper_spelling, loop, noun, t->heap[0]->verdict.size, lib);
  if (t->nheap == 2)
    hl_sb_printf(&b, "%s", t->may ? ", or another target stored on the heap" : ", as is the other target it may hold");
  else if (t->nheap > 2)
    hl_sb_printf(
        &b, t->may ? ", or one of %zu other targets stored on the heap" : ", as are the %zu other targets it may hold",
        t->nheap - 1);
  if (t->ninline) hl_sb_printf(&b, ", and %zu other target%s kept inline", t->ninline, t->ninline > 1 ? "s" : "");
  free(noun);
  return hl_sb_take(&b);
}

static void report(hl_ctx *ctx, const state *S, const hl_flow_copy *c, const copied *t, const hl_loc *via) {
  char *m = copy_headline(ctx, c, t);
  hl_finding *f = hl_finding_new("function-copy", HL_SEV_WARNING, &c->loc, m);
  free(m);
  hl_ctx_range(ctx, f, c->src);
  for (size_t i = 0; i < t->nheap && i < NAMED_TARGETS; i++) {
    const judged_store *o = t->heap[i];
    hl_sb b = {0};
    hl_sb_printf(&b, "%s",
                 i        ? "or here: "
                 : t->may ? "a target it may hold is stored here: "
                          : "its target is stored here: ");
    hl_sbo_reasons(ctx, &o->site, &o->verdict, &b);
    hl_finding_note(f, &o->site.loc, hl_sb_str(&b));
    hl_sb_free(&b);
  }
  if (via) hl_finding_note(f, via, "copied when this call hands it over");
  CXCursor p = hl_flow_read_only_param(S->flow, c);
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
    if (!edited && hl_flow_last_use(S->flow, c)) move_fix(ctx, S, c, f);
  } else if (hl_flow_last_use(S->flow, c)) {
    move_fix(ctx, S, c, f);
  }
  hl_ctx_report(ctx, f);
}

/* The largest first. */
static int by_size(const void *a, const void *b) {
  const judged_store *x = *(const judged_store *const *)a, *y = *(const judged_store *const *)b;
  return (y->verdict.size > x->verdict.size) - (y->verdict.size < x->verdict.size);
}

/* A copy of a declaration the flow follows: it allocates again when every
 * value that may reach it is a heap-stored target, and may allocate when
 * every such value is known and one is (the others inline, or the local
 * empty on some path). Where the flow cannot tell the values per read, its
 * origin (every write heap-stored) still decides "allocates again". */
static void judge_copy(hl_ctx *ctx, const state *S, const hl_flow_copy *c) {
  int *stores, empty = 0;
  size_t n;
  if (hl_flow_targets(S->flow, c, &stores, &n, &empty)) {
    int o = hl_flow_origin(S->flow, c->from);
    if (o < 0) return;
    stores = hl_xcalloc(1, sizeof *stores);
    stores[0] = o;
    n = 1;
  }
  const judged_store **heap = hl_xcalloc(n + 1, sizeof *heap);
  copied t = {heap, 0, 0, empty};
  int undecided = 0; /* a target heaplint did not decide: nor is the copy */
  for (size_t i = 0; i < n; i++) {
    const judged_store *s = store_of(S, stores[i]);
    if (s->verdict.allocates == HL_YES)
      heap[t.nheap++] = s;
    else if (s->verdict.allocates == HL_NO)
      t.ninline++;
    else
      undecided = 1;
  }
  t.may = t.may || t.ninline;
  qsort(heap, t.nheap, sizeof *heap, by_size);
  if (t.nheap && !undecided) report(ctx, S, c, &t, NULL);
  free(heap);
  free(stores);
}

static void *begin(hl_ctx *ctx, const hl_rule *self) {
  (void)self;
  (void)ctx;
  state *S = hl_xcalloc(1, sizeof(state));
  S->flow = hl_flow_new(&store_hooks);
  return S;
}

/* A template copy, per instantiation its probe saw copy a wrapper: when a
 * call of the code's own hands the copied parameter (through the chain of
 * calls that instantiated it) a temporary whose target is on the heap —
 * that call, or another of the same function — the copy allocates again
 * there. Reported once, at the copy, with the store and the call. */
static void judge_template_copy(hl_ctx *ctx, state *S, const template_copy *t) {
  size_t n = 0;
  const hl_inst_answer *h = t->site.probe >= 0 ? hl_inst_answers(hl_ctx_inst(ctx), t->site.probe, &n) : NULL;
  for (size_t i = 0; i < n; i++) {
    CXCursor call;
    int arg;
    const hl_wrapper *w = hl_sbo_conversion_copy(ctx, &h[i]);
    if (!w || hl_calls_chain_argument(hl_flow_calls(S->flow), &h[i], t->fn, t->param, &call, &arg)) continue;
    CXCursor *same;
    size_t ns = hl_calls_same_callee(hl_flow_calls(S->flow), call, &same);
    int o = -1;
    for (size_t k = 0; k < ns && o < 0; k++) {
      o = hl_flow_argument_origin(S->flow, ctx, same[k], arg);
      if (o >= 0) call = same[k];
    }
    free(same);
    if (o < 0) continue;
    hl_flow_copy c;
    memset(&c, 0, sizeof c);
    c.kind = HL_FLOW_CONSTRUCT;
    c.from = -1;
    c.src = t->site.expr;
    c.stmt = c.callee = clang_getNullCursor();
    c.loc = t->site.loc;
    c.wrapper_spelling = hl_xstrdup(h[i].to);
    hl_loc via;
    int has_via = !hl_ctx_loc(ctx, clang_getCursorLocation(call), &via);
    const judged_store *heap[1] = {store_of(S, o)};
    copied one = {heap, 1, 0, 0};
    report(ctx, S, &c, &one, has_via ? &via : NULL);
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
  size_t n;
  const hl_flow_class_copy *all = hl_flow_class_copies(S->flow, &n), *cc = &all[i];
  const judged_store *o = store_of(S, cc->store);
  if (o->verdict.allocates != HL_YES) return;
  for (size_t j = 0; j < i; j++)
    if (clang_equalCursors(all[j].cls, cc->cls) && clang_equalCursors(all[j].member, cc->member) &&
        store_of(S, all[j].store)->verdict.allocates == HL_YES)
      return;
  hl_loc at, copy, call;
  if (hl_ctx_loc(ctx, clang_getCursorLocation(cc->cls), &at)) return;
  const hl_sbo_site *s = &o->site;
  const hl_sbo_wording *wd = hl_sbo_wording_of(s->wrapper);
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
  for (size_t i = 0; i < hl_flow_nstores(S->flow); i++) {
    judged_store *s = store_of(S, (int)i);
    hl_sbo_verdict v;
    hl_sbo_judge(ctx, &s->site, 0, &v);
    if (v.allocates == HL_UNKNOWN) {
      hl_traits_free(&v.traits);
      hl_sbo_judge(ctx, &s->site, 1, &v);
    }
    hl_traits_free(&v.traits);
  }
  for (size_t i = 0; i < S->nrets; i++) {
    hl_sbo_verdict v;
    hl_sbo_judge(ctx, &S->rets[i].s.site, 0, &v);
    if (v.allocates == HL_UNKNOWN) {
      hl_traits_free(&v.traits);
      hl_sbo_judge(ctx, &S->rets[i].s.site, 1, &v);
    }
    hl_traits_free(&v.traits);
  }
  for (size_t i = 0; i < S->ntcopies; i++) {
    hl_sbo_site *t = &S->tcopies[i].site;
    t->probe = hl_inst_ask_conversion(hl_ctx_inst(ctx), t->convert_call, t->expr, t->convert_type, &t->unprobed);
  }
}

/* A value a function other units call returns, filed under its key for
 * the link step (copies/slots.h). */
static void file_return(hl_ctx *ctx, returned_store *r) {
  judged_store *s = &r->s;
  hl_sbo_judge(ctx, &s->site, 0, &s->verdict);
  hl_summary *sum = hl_ctx_summary(ctx);
  hl_svalue v = {.wrapper = r->key,
                 .at = hl_loc_copy(&s->site.loc),
                 .store = hl_loc_copy(&s->site.loc),
                 .known = s->verdict.allocates != HL_UNKNOWN,
                 .allocates = s->verdict.allocates == HL_YES,
                 .size = s->verdict.size,
                 .align = s->verdict.align};
  HL_PUSH(sum->values, sum->nvalues, sum->capvalues, v);
  hl_traits_free(&s->verdict.traits);
  hl_sbo_site_free(&s->site);
}

static void end(hl_ctx *ctx, void *st) {
  state *S = st;
  size_t n = hl_flow_nstores(S->flow);
  for (size_t i = 0; i < n; i++) {
    judged_store *s = store_of(S, (int)i);
    hl_sbo_judge(ctx, &s->site, 0, &s->verdict);
    hl_flow_settle(S->flow, (int)i, s->verdict.allocates == HL_YES);
  }
  for (size_t i = 0; i < S->nrets; i++) file_return(ctx, &S->rets[i]);
  free(S->rets);
  const hl_flow_copy *copies = hl_flow_copies(S->flow, &n);
  for (size_t i = 0; i < n; i++) judge_copy(ctx, S, &copies[i]);
  for (size_t i = 0; i < S->ntcopies; i++) {
    judge_template_copy(ctx, S, &S->tcopies[i]);
    hl_sbo_site_free(&S->tcopies[i].site);
  }
  free(S->tcopies);
  hl_flow_class_copies(S->flow, &n);
  for (size_t i = 0; i < n; i++) judge_class_copy(ctx, S, i);
  hl_flow_free(S->flow);
  free(S);
}

/* The copies of wrappers other units see, judged over the project index. */
static void link(const hl_index_lookup *ix, const hl_summary *unit, hl_findings *out) {
  hl_slots_link(ix, unit, "function-copy", out);
}

const hl_rule hl_rule_function_copy = {
    "function-copy",
    NULL,
    begin,
    visit,
    prepare,
    end,
    0,
    link,
    NULL, /* no project-wide plan */
    NULL,
    NULL, /* no numbers from the profiles, no config key */
};
