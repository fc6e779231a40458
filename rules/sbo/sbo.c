#include "rules/sbo/sbo.h"

#include <stdlib.h>
#include <string.h>

#include "rules/sbo/alias.h"
#include "rules/sbo/captures.h"
#include "rules/sbo/judge.h"
#include "rules/sbo/match.h"
#include "rules/sbo/plan.h"
#include "rules/registry.h"
#include "rules/sbo/templates.h"
#include "util/strv.h"
#include "util/util.h"

struct hl_sbo {
  const char *rule;
  const hl_sbo_wording *wording;
  hl_sbo_site *sites;
  size_t n, cap;
  hl_retype *retype;
};

/* The place a lambda's type spells, "(lambda at F:line:col)": 1 with its
 * file (*path, *plen bytes), line and column, else 0. */
static int lambda_spelled(const char *type, const char **path, size_t *plen, unsigned *line, unsigned *col) {
  if (!hl_starts_with(type, "(lambda at ")) return 0;
  const char *p = type + strlen("(lambda at "), *close = strchr(p, ')');
  if (!close) return 0;
  const char *c2 = close, *c1;
  while (c2 > p && c2[-1] != ':') c2--;
  for (c1 = c2 - 1; c1 > p && c1[-1] != ':'; c1--) {
  }
  if (c1 <= p + 1) return 0;
  *path = p;
  *plen = (size_t)(c1 - 1 - p);
  *line = (unsigned)atoi(c1);
  *col = (unsigned)atoi(c2);
  return 1;
}

/* "async.hpp:147" when the probed type is a lambda written on another
 * line than loc's (a library's lambda around the callable handed over
 * there), else NULL. */
static char *lambda_elsewhere(const char *type, const hl_loc *loc) {
  const char *path;
  size_t plen;
  unsigned line, col;
  if (!lambda_spelled(type, &path, &plen, &line, &col)) return NULL;
  const char *base = path + plen;
  while (base > path && base[-1] != '/') base--;
  size_t blen = (size_t)(path + plen - base);
  const char *lbase = strrchr(loc->file, '/');
  lbase = lbase ? lbase + 1 : loc->file;
  if (line == loc->line && strlen(lbase) == blen && !strncmp(lbase, base, blen)) return NULL;
  return hl_xasprintf("%.*s:%u", (int)blen, base, line);
}

/* The lambda expression of the unit that type spells, or a null cursor. */
static CXCursor lambda_named(hl_ctx *ctx, const char *type) {
  const char *path;
  size_t plen;
  unsigned line, col;
  if (!lambda_spelled(type, &path, &plen, &line, &col)) return clang_getNullCursor();
  char *file = hl_xstrndup(path, plen);
  CXTranslationUnit tu = hl_ctx_tu(ctx);
  CXFile f = clang_getFile(tu, file);
  free(file);
  CXCursor l = clang_getNullCursor();
  if (f) l = clang_getCursor(tu, clang_getLocation(tu, f, line, col));
  return clang_getCursorKind(l) == CXCursor_LambdaExpr ? l : clang_getNullCursor();
}

/* A value a template's call converts into a wrapper (c, judged v): one of
 * that wrapper type's, for API rewrites, filed where the code made it
 * concrete. A lambda of the unit is named, so that a const capture that
 * keeps it from moving without throwing can be made an init-capture. */
static void converted_value(hl_ctx *ctx, hl_sbo *S, const hl_sbo_site *c, const hl_inst_answer *h,
                            const hl_sbo_verdict *v) {
  hl_sbo_site u = *c;
  u.loc = h->chain[h->user];
  u.captures = NULL;
  u.ncaptures = 0;
  u.lambda = h->type ? lambda_named(ctx, h->type) : clang_getNullCursor();
  u.stored = clang_Cursor_isNull(u.lambda) ? (CXType){0} : clang_getCursorType(u.lambda);
  hl_sbo_name_captures(&u);
  hl_sbo_alias_value(ctx, S->wording, &u, v, &c->loc, clang_getNullCursor());
  for (size_t i = 0; i < u.ncaptures; i++) free(u.captures[i]);
  free(u.captures);
}

/* Where a probed instantiation's finding comes from: the store inside the
 * template, and the call the compiler named, with the words that say how
 * the finding's call relates to it ("in the instantiation requested at",
 * "it calls the instantiation first requested at"). */
typedef struct origin {
  const hl_loc *stored_at, *from;
  const char *from_words;
} origin;

/* A probed instantiation is reported where the code made its type concrete
 * (probed_type names what the probe saw), with notes from o (NULL: none);
 * every other site where it stores. */
static void add_finding(hl_ctx *ctx, hl_sbo *S, const hl_sbo_site *s, const hl_sbo_verdict *v, const hl_sbo_plan *p,
                        const char *probed_type, const origin *o) {
  const hl_loc *stored_at = o ? o->stored_at : NULL, *from = o ? o->from : NULL;
  char *noun = probed_type ? S->wording->probed_noun(probed_type) : S->wording->noun(ctx, s);
  hl_sb m = {0};
  char *made = probed_type ? lambda_elsewhere(probed_type, &s->loc) : NULL;
  char *at_store = made && stored_at ? lambda_elsewhere(probed_type, stored_at) : made ? hl_xstrdup(made) : NULL;
  if (!at_store) {
    /* The stored expression itself: the note at the store shows it. */
    free(made);
    made = NULL;
  }
  free(at_store);
  if (made)
    hl_sb_printf(&m, "%s stores the %s made at %s on the heap%s: ", s->wrapper_spelling, noun, made,
                 s->in_loop ? " on every iteration of the enclosing loop" : "");
  else
    hl_sb_printf(&m, "%s stores this %s on the heap%s: ", s->wrapper_spelling, noun,
                 s->in_loop ? " on every iteration of the enclosing loop" : "");
  free(made);
  hl_sbo_reasons(ctx, s, v, &m);
  hl_finding *f = hl_finding_new(S->rule, HL_SEV_WARNING, &s->loc, hl_sb_str(&m));
  hl_sb_free(&m);
  if (!probed_type && !clang_Cursor_isNull(s->expr)) hl_ctx_range(ctx, f, s->expr);
  if (stored_at) {
    char *where = hl_loc_where(stored_at);
    char *note = hl_xasprintf("stored at %s as %s", where, s->wrapper_spelling);
    hl_finding_note(f, stored_at, note);
    free(note);
    free(where);
  }
  if (from) {
    char *where = hl_loc_where(from);
    char *note = hl_xasprintf("%s %s", o->from_words, where);
    hl_finding_note(f, from, note);
    free(note);
    free(where);
  }

  char *caps = hl_sbo_captures_note(ctx, s, v);
  if (caps) hl_finding_note(f, &s->loc, caps);
  free(caps);
  char *tname = s->decays                      ? hl_xstrdup("the pointer")
                : hl_type_is_lambda(s->stored) ? hl_xstrdup("the lambda")
                                               : hl_type_spelling(s->stored);
  /* "the std::bind result (std::_Bind<...>)": what it is, then its type. */
  if (hl_starts_with(noun, "std::") && !s->decays) {
    char *named = hl_xasprintf("the %s (%s)", noun, tname);
    free(tname);
    tname = named;
  }
  if (v->failed & HL_REQ_TRIVIALLY_COPYABLE)
    hl_sbo_why_note(f, &s->loc, "not trivially copyable", tname, &v->traits.trivially_copyable);
  if (v->failed & HL_REQ_NOTHROW_COPY)
    hl_sbo_why_note(f, &s->loc, "not nothrow copy constructible", tname, &v->traits.nothrow_copy);
  if (v->failed & HL_REQ_NOTHROW_MOVE)
    hl_sbo_why_note(f, &s->loc, "not nothrow move constructible", tname, &v->traits.nothrow_move);
  free(tname);
  hl_sbo_fix fx = {hl_sbo_capacity(v->size), v->align, s->untargeted, 0};
  if (p && !p->blocked) {
    fx.capacity = p->capacity;
    fx.align = p->align;
    fx.rewritten = 1;
    hl_finding_edit(f, &p->type);
    if (p->has_include) hl_finding_edit(f, &p->include);
  } else if (p) {
    fx.blocked = p->blocked;
  }
  S->wording->fix(ctx, s, v, &fx, f);
  hl_ctx_report(ctx, f);
  free(noun);
}

/* An allocating value passed to a function's parameter: the unit's
 * summary keeps it for the per-API figures (engine/summary.h). */
static void record_api(hl_ctx *ctx, const hl_sbo *S, const hl_sbo_site *s, const hl_sbo_verdict *v) {
  hl_summary *sum = hl_ctx_summary(ctx);
  if (!sum || !s->param.usr) return;
  const char *replacement = S->wording->replacement ? S->wording->replacement(s) : NULL;
  hl_sapi a = {hl_xstrdup(s->param.usr),
               s->param.index,
               hl_xstrdup(s->param.api),
               hl_xstrdup(s->param.type),
               hl_xstrdup(s->wrapper_spelling),
               hl_xstrdup(replacement ? replacement : ""),
               hl_xstrdup(S->rule),
               hl_loc_copy(&s->loc),
               v->size,
               v->align,
               hl_sbo_capacity(v->size)};
  HL_PUSH(sum->apis, sum->napis, sum->capapis, a);
}

/* Whether target t is declared outside the unit's main file (a header's
 * member or global): the owner of its flow, which the project retypes. */
static int owner(const hl_sbo *S, int t) {
  int container;
  if (!hl_retype_shared(S->retype, t)) return 0;
  CXSourceLocation at = clang_getCursorLocation(hl_retype_decl(S->retype, t, &container));
  CXFile f;
  clang_getFileLocation(at, &f, NULL, NULL, NULL);
  return f && !clang_Location_isFromMainFile(at);
}

/* The header member (or global) whose flow s stores into, or a null cursor. */
static CXCursor shared_member(const hl_sbo *S, const hl_sbo_site *s) {
  int container;
  if (s->target < 0 || !hl_retype_shared(S->retype, s->target)) return clang_getNullCursor();
  int g = hl_retype_group(S->retype, s->target);
  for (int t = 0; t < hl_retype_count(S->retype); t++)
    if (hl_retype_group(S->retype, t) == g && owner(S, t)) return hl_retype_decl(S->retype, t, &container);
  return clang_getNullCursor();
}

/* Every header member (or global) the unit stores into or uses, with the
 * locals of this unit its value flows into, for the project's API
 * rewrites. */
static void record_members(hl_ctx *ctx, const hl_sbo *S) {
  int n = hl_retype_count(S->retype), container;
  CXCursor *partners = hl_xcalloc(n ? (size_t)n : 1, sizeof *partners);
  for (int t = 0; t < n; t++) {
    if (!owner(S, t)) continue;
    size_t np = 0;
    int g = hl_retype_group(S->retype, t);
    for (int u = 0; u < n; u++)
      if (u != t && hl_retype_group(S->retype, u) == g && !owner(S, u))
        partners[np++] = hl_retype_decl(S->retype, u, &container);
    hl_sbo_member_record(ctx, S->rule, S->wording, hl_retype_decl(S->retype, t, &container),
                         hl_retype_local_blocked(S->retype, t), partners, np);
  }
  free(partners);
}

/* What was computed about a site, flagged or not, for a front end that
 * shows layouts (the language server's hover). */
static void record_layout(hl_ctx *ctx, const hl_sbo *S, const hl_sbo_site *s, const hl_sbo_verdict *v) {
  hl_layout *l = hl_layout_new(S->rule, &s->loc);
  if (!clang_Cursor_isNull(s->expr)) hl_ctx_range_end(ctx, &s->loc, s->expr, &l->end_line, &l->end_col);
  l->wrapper = hl_xstrdup(s->wrapper_spelling);
  l->stored = S->wording->noun(ctx, s);
  l->size = v->size;
  l->align = v->align;
  hl_sbo_captures_layout(ctx, s, l);
  l->library_rule = hl_sbo_rule_words(ctx, s);
  l->storage = v->allocates == HL_YES ? HL_STORED_HEAP : HL_STORED_INLINE;
  if (v->allocates == HL_YES) {
    hl_sb why = {0};
    hl_sbo_reasons(ctx, s, v, &why);
    l->why = hl_sb_take(&why);
  }
  hl_ctx_layout(ctx, l);
}

/* ---- the pass ---- */

void *hl_sbo_begin(hl_ctx *ctx, const hl_rule *self) {
  (void)ctx;
  hl_sbo *S = hl_xcalloc(1, sizeof *S);
  S->rule = self->id;
  S->wording = self->data;
  S->retype = hl_retype_new();
  return S;
}

static void keep(hl_ctx *ctx, hl_sbo *S, hl_sbo_site *s) {
  if (!s->convert && strcmp(s->wrapper->rule, S->rule)) {
    hl_sbo_site_free(s);
    return;
  }
  hl_sbo_name_captures(s);
  if (!s->convert && S->wording->replacement && S->wording->replacement(s))
    s->target = hl_retype_store(S->retype, ctx, s->call, clang_Cursor_isNull(s->call) ? HL_STORE_OTHER : s->store_kind,
                                s->wrapper, &s->untargeted);
  /* A conversion a template's call makes (construct_value(std::forward<U>(v))
   * into a T that is a std::function): the wrapper's type is written where
   * the template is instantiated, not here. */
  if (s->convert && !s->untargeted)
    s->untargeted = hl_xstrdup(
        "the wrapper is made by a call inside a template, whose parameter type comes from "
        "the instantiation: retype the type the template is instantiated with");
  if (!s->convert && !clang_Cursor_isNull(s->call) && s->store_kind == HL_STORE_CONSTRUCT && hl_ctx_summary(ctx))
    hl_retype_param_of(ctx, s->call, &s->param);
  HL_PUSH(S->sites, S->n, S->cap, *s);
}

void hl_sbo_visit(hl_ctx *ctx, void *state, CXCursor c) {
  hl_sbo *S = state;
  enum CXCursorKind k = clang_getCursorKind(c);
  if (k == CXCursor_VarDecl || k == CXCursor_FieldDecl || k == CXCursor_BinaryOperator || k == CXCursor_ReturnStmt ||
      k == CXCursor_Constructor || k == CXCursor_FunctionTemplate || k == CXCursor_CXXNewExpr) {
    hl_sbo_site *v;
    size_t n = hl_sbo_template_sites(ctx, c, &v);
    for (size_t i = 0; i < n; i++) keep(ctx, S, &v[i]);
    free(v);
  }
  if (k == CXCursor_InitListExpr || k == CXCursor_CallExpr) {
    hl_sbo_site *v;
    size_t n = k == CXCursor_InitListExpr ? hl_sbo_init_list_sites(ctx, c, &v) : hl_sbo_tuple_sites(ctx, c, &v);
    for (size_t i = 0; i < n; i++) keep(ctx, S, &v[i]);
    free(v);
    if (k == CXCursor_CallExpr && !n) {
      n = hl_sbo_built_sites(ctx, c, &v);
      for (size_t i = 0; i < n; i++) keep(ctx, S, &v[i]);
      free(v);
    }
    if (k == CXCursor_InitListExpr || n) return;
  }
  hl_sbo_site s;
  if (hl_sbo_match(ctx, c, &s)) {
    keep(ctx, S, &s);
  } else if (k == CXCursor_CallExpr) {
    hl_ctx_note_template_call(ctx, c);
    hl_sbo_site *v;
    size_t n = hl_sbo_template_sites(ctx, c, &v);
    for (size_t i = 0; i < n; i++) keep(ctx, S, &v[i]);
    free(v);
  }
  if (k == CXCursor_DeclRefExpr || k == CXCursor_MemberRefExpr) hl_retype_use(S->retype, ctx, c);
  if (k == CXCursor_TypeAliasDecl || k == CXCursor_TypedefDecl || k == CXCursor_TemplateRef ||
      k == CXCursor_FunctionDecl || k == CXCursor_CXXMethod || k == CXCursor_Constructor || k == CXCursor_DeclRefExpr)
    hl_sbo_alias_visit(ctx, S->rule, S->wording, c);
}

void hl_sbo_prepare(hl_ctx *ctx, void *state) {
  hl_sbo *S = state;
  /* Only sites the layout and the class structure cannot settle ask the
   * compiler (one batched parse per translation unit): whether they
   * allocate, every reason why when they do (so that a warning's reasons do
   * not depend on whether its fix is planned), and whether the replacement
   * accepts what they store. */
  for (size_t i = 0; i < S->n; i++) {
    hl_sbo_site *cs = &S->sites[i];
    if (cs->convert) {
      cs->probe = hl_inst_ask_conversion(hl_ctx_inst(ctx), cs->convert_call, cs->expr, cs->convert_type, &cs->unprobed);
      continue;
    }
    hl_sbo_verdict v;
    hl_sbo_judge(ctx, &S->sites[i], 0, &v);
    /* A value the local fix may put into the replacement needs its move
     * judged. (API rewrites take what the class structure tells of the
     * others' and count what it cannot tell as a move that may throw: no
     * parse more per unit for them.) */
    int rewritable = S->sites[i].target >= 0 && (S->wording->replacement_requires & HL_REQ_NOTHROW_MOVE);
    if (v.allocates == HL_UNKNOWN || (v.allocates == HL_YES && v.unknown) ||
        (rewritable && v.traits.nothrow_move.value == HL_UNKNOWN)) {
      hl_traits_free(&v.traits);
      hl_sbo_judge(ctx, &S->sites[i], 1, &v);
    }
    /* A store only an instantiation can size gets a probe (all of the
     * unit's in one more parse). */
    if (v.allocates == HL_UNKNOWN && S->sites[i].dependent)
      S->sites[i].probe = hl_inst_ask_layout(hl_ctx_inst(ctx), S->sites[i].expr, &S->sites[i].unprobed);
    hl_traits_free(&v.traits);
  }
}

/* The short category of an undecided site, for the summary's count. */
static const char *undecided_reason(const hl_sbo_site *s, const char *why) {
  if (s->dependent || strstr(why, "depends on a template parameter")) return "template-dependent";
  if (strstr(why, "cannot be named")) return "unnamed type";
  return "traits not known";
}

/* Whether an instantiation stores a wrapper of the site's own kind (a
 * std::function into a std::function): a copy or a move, function-copy's,
 * not a construction. Any specialization counts: a pattern's wrapper type
 * may be dependent (std::function<Sig>), and precision comes first. */
static int stores_same_wrapper(const hl_sbo_site *s, const hl_inst_answer *h) {
  if (!h->type) return 0;
  size_t n = strlen(s->wrapper->name);
  return !strncmp(h->type, s->wrapper->name, n) && (h->type[n] == '<' || h->type[n] == '\0');
}

/* add_finding at u's place, once per place and verdict. */
static void report_once(hl_ctx *ctx, hl_sbo *S, const hl_sbo_site *u, const hl_sbo_verdict *v, const hl_sbo_plan *p,
                        const char *type, const origin *o, hl_strv *reported) {
  char *key = hl_xasprintf("%s:%u %s %ld %ld %u", u->loc.file, u->loc.offset, type, v->size, v->align, v->failed);
  if (hl_strv_add_unique(reported, key)) add_finding(ctx, S, u, v, p, type, o);
  free(key);
}

/* One instantiation's answer for a store inside a template. Returns 1 when
 * it is the answer for all (the layout does not depend on the template). */
static int judge_hit(hl_ctx *ctx, hl_sbo *S, const hl_sbo_site *s, const hl_inst_answer *h, const hl_sbo_plan *p,
                     hl_strv *reported) {
  if (stores_same_wrapper(s, h)) return 0;
  hl_sbo_verdict v;
  hl_sbo_judge_probed(s->wrapper, h, &v);
  if (v.allocates != HL_YES) return s->independent;
  const hl_loc *at = &h->chain[h->user];
  if (s->independent || (at->offset == s->loc.offset && !strcmp(at->file, s->loc.file))) {
    add_finding(ctx, S, s, &v, p, h->type, NULL);
    return 1;
  }
  hl_sbo_site u = *s;
  u.loc = *at;
  u.lambda = clang_getNullCursor();
  u.callee = clang_getNullCursor();
  u.captures = NULL;
  u.ncaptures = 0;
  u.in_loop = 0;
  if (h->user != h->outer) {
    /* Inside a template, handed over where it is written: once per place
     * and verdict, naming the first instantiation that reached it. */
    origin o = {&s->loc, &h->chain[h->outer], "in the instantiation requested at"};
    report_once(ctx, S, &u, &v, p, h->type, &o, reported);
    return 0;
  }
  origin o = {&s->loc, NULL, NULL};
  report_once(ctx, S, &u, &v, p, h->type, &o, reported);
  hl_reaching *others;
  size_t nothers = hl_ctx_reaching_calls(ctx, at, &others);
  for (size_t k = 0; k < nothers; k++) {
    u.loc = others[k].loc;
    origin r = {&s->loc, at,
                others[k].same ? "it calls the instantiation first requested at"
                               : "its instantiation calls the one first requested at"};
    report_once(ctx, S, &u, &v, p, h->type, &r, reported);
    hl_loc_free(&others[k].loc);
  }
  free(others);
  return 0;
}

/* A store inside a template, judged per instantiation from its probe's
 * answers: reported where the code made the type concrete, with a note at
 * the store, or once at the store when its layout does not depend on the
 * template. Without an answer it is not decided. */
static void judge_instantiations(hl_ctx *ctx, hl_sbo *S, const hl_sbo_site *s, const hl_sbo_plan *p) {
  size_t n = 0;
  hl_strv reported = {0};
  const hl_inst_answer *h = s->probe >= 0 ? hl_inst_answers(hl_ctx_inst(ctx), s->probe, &n) : NULL;
  if (s->convert) {
    /* Most such calls store nothing: only the answers that convert say. */
    for (size_t i = 0; i < n; i++) {
      hl_sbo_site c;
      if (!hl_sbo_conversion_site(ctx, s, &h[i], S->rule, &c)) continue;
      c.convert = 0;
      c.probe = -1;
      if (!stores_same_wrapper(&c, &h[i])) {
        hl_sbo_verdict v;
        hl_sbo_judge_probed(c.wrapper, &h[i], &v);
        converted_value(ctx, S, &c, &h[i], &v);
        hl_traits_free(&v.traits);
      }
      judge_hit(ctx, S, &c, &h[i], p, &reported);
      free(c.wrapper_spelling);
      free(c.signature);
    }
    hl_strv_free(&reported);
    return;
  }
  /* Each instantiation's value, for API rewrites; none answered: one
   * value of unknown size. */
  hl_sbo_verdict unknown = {.allocates = HL_UNKNOWN};
  if (n == 0) hl_sbo_alias_value(ctx, S->wording, s, &unknown, &s->loc, shared_member(S, s));
  for (size_t i = 0; i < n; i++) {
    if (stores_same_wrapper(s, &h[i])) continue;
    hl_sbo_verdict v;
    hl_sbo_judge_probed(s->wrapper, &h[i], &v);
    hl_sbo_site u = *s;
    u.loc = h[i].chain[h[i].user];
    u.stored = (CXType){0};
    hl_sbo_alias_value(ctx, S->wording, &u, &v, &s->loc, shared_member(S, s));
    hl_traits_free(&v.traits);
  }
  if (n == 0) {
    hl_ctx_undecided(ctx, S->rule, &s->loc, "template-dependent",
                     "the stored type depends on a template parameter (%s)",
                     s->probe < 0 ? s->unprobed : "no instantiation of it was seen");
    return;
  }
  for (size_t i = 0; i < n && !judge_hit(ctx, S, s, &h[i], p, &reported); i++) {
  }
  hl_strv_free(&reported);
}

void hl_sbo_end(hl_ctx *ctx, void *state) {
  hl_sbo *S = state;
  hl_retype_finish(S->retype);
  hl_sbo_verdict *verdicts = hl_xcalloc(S->n ? S->n : 1, sizeof *verdicts);
  int ntargets = 0;
  for (size_t i = 0; i < S->n; i++) {
    if (S->sites[i].convert)
      verdicts[i].allocates = HL_UNKNOWN;
    else
      hl_sbo_judge(ctx, &S->sites[i], 0, &verdicts[i]);
    if (S->sites[i].target >= ntargets) ntargets = S->sites[i].target + 1;
  }
  if (hl_ctx_summary(ctx)) record_members(ctx, S);
  hl_sbo_plan *plans = hl_xcalloc(ntargets ? (size_t)ntargets : 1, sizeof *plans);
  for (size_t i = 0; i < S->n; i++) {
    hl_sbo_site *s = &S->sites[i];
    hl_sbo_verdict *v = &verdicts[i];
    if (v->allocates != HL_UNKNOWN && hl_ctx_wants_layouts(ctx)) record_layout(ctx, S, s, v);
    /* A store inside a template: its instantiations' values (below). */
    if (!(v->allocates == HL_UNKNOWN && s->dependent))
      hl_sbo_alias_value(ctx, S->wording, s, v, NULL, shared_member(S, s));
    if (v->allocates == HL_YES) {
      hl_sbo_plan *p = NULL;
      if (s->target >= 0) {
        p = &plans[s->target];
        if (!p->made) hl_sbo_plan_make(ctx, S->sites, S->n, S->retype, S->wording, s->target, verdicts, p);
      }
      add_finding(ctx, S, s, v, p, NULL, NULL);
      record_api(ctx, S, s, v);
    } else if (v->allocates == HL_UNKNOWN && s->dependent) {
      hl_sbo_plan *p = NULL;
      if (s->target >= 0) {
        p = &plans[s->target];
        if (!p->made) hl_sbo_plan_make(ctx, S->sites, S->n, S->retype, S->wording, s->target, verdicts, p);
      }
      judge_instantiations(ctx, S, s, p);
    } else if (v->allocates == HL_UNKNOWN) {
      const hl_trait *t = (v->unknown & HL_REQ_TRIVIALLY_COPYABLE) ? &v->traits.trivially_copyable
                          : (v->unknown & HL_REQ_NOTHROW_COPY)     ? &v->traits.nothrow_copy
                                                                   : &v->traits.nothrow_move;
      const char *why = v->unknown && t->why ? t->why : "";
      hl_ctx_undecided(ctx, S->rule, &s->loc, undecided_reason(s, why), "%s%s%s",
                       v->unknown ? "the stored type" : "its layout is not known (a dependent type)",
                       why[0] && why[0] != ' ' ? ": " : "", why);
    }
  }
  for (size_t i = 0; i < S->n; i++) {
    hl_traits_free(&verdicts[i].traits);
    hl_sbo_site_free(&S->sites[i]);
  }
  for (int t = 0; t < ntargets; t++) hl_sbo_plan_free(&plans[t]);
  free(plans);
  free(verdicts);
  free(S->sites);
  hl_retype_free(S->retype);
  free(S);
}

const hl_sbo_wording *hl_sbo_wording_of(const hl_wrapper *w) {
  const hl_rule *r = hl_rule_find(w->rule);
  return r && r->visit == hl_sbo_visit ? r->data : NULL;
}
