#include "rules/sbo/alias_plan.h"

#include <stdlib.h>
#include <string.h>

#include "rules/lib/rewrite.h"
#include "rules/lib/runtime_std.h"
#include "rules/sbo/alias.h"
#include "rules/sbo/judge.h"
#include "util/util.h"

/* ---- the plan, over the project index ---- */

/* "src/a.cc:12" */
static char *where(const hl_loc *l) { return hl_loc_where(l); }

/* Views found by a key (the member a parameter moves into, a parameter's
 * or an alias's own key): the positions sorted by key and then by
 * position, so those of one key are one binary search away and in the
 * views' order. Built once per plan: no scan of every view per view. */
typedef struct keyed {
  const char *key;
  size_t at;
} keyed;

typedef struct by_key {
  keyed *e;
  size_t n, cap;
} by_key;

static int keyed_cmp(const void *a, const void *b) {
  const keyed *x = a, *y = b;
  int c = strcmp(x->key, y->key);
  return c ? c : (x->at > y->at) - (x->at < y->at);
}

/* The entries of key: the first's position in K->e into *first; how many. */
static size_t keyed_find(const by_key *K, const char *key, size_t *first) {
  size_t lo = 0, hi = K->n;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (strcmp(K->e[mid].key, key) < 0)
      lo = mid + 1;
    else
      hi = mid;
  }
  size_t end = lo;
  while (end < K->n && !strcmp(K->e[end].key, key)) end++;
  *first = lo;
  return end - lo;
}

/* One plan: the views, and the lookups over them. */
typedef struct plan {
  hl_alias_view *v;
  size_t n;
  by_key into;    /* parameters, by the member they move into */
  by_key members; /* members, by key */
  by_key params;  /* parameters, by key */
  by_key types;   /* aliases (neither member nor parameter), by key */
} plan;

static void plan_index(plan *P) {
  for (size_t i = 0; i < P->n; i++) {
    const hl_salias *a = &P->v[i].alias;
    if (a->param && a->into) HL_PUSH(P->into.e, P->into.n, P->into.cap, ((keyed){a->into, i}));
    if (!a->key) continue;
    by_key *K = a->member ? &P->members : a->param ? &P->params : &P->types;
    HL_PUSH(K->e, K->n, K->cap, ((keyed){a->key, i}));
  }
  by_key *all[] = {&P->into, &P->members, &P->params, &P->types};
  for (size_t k = 0; k < 4; k++)
    if (all[k]->n) qsort(all[k]->e, all[k]->n, sizeof *all[k]->e, keyed_cmp);
}

static void plan_free(plan *P) {
  free(P->into.e);
  free(P->members.e);
  free(P->params.e);
  free(P->types.e);
}

/* The qualified name a public-api glob is matched against: the alias's
 * or member's, or a parameter's function ("'cb' of Loop::post(...)" gives
 * "Loop::post"). Caller frees. */
static char *api_name(const hl_salias *a) {
  if (!a->param) return hl_xstrdup(a->name);
  const char *of = strstr(a->name, " of ");
  const char *q = of ? of + 4 : a->name;
  const char *op = strstr(q, "operator()");
  const char *paren = strchr(op ? op + strlen("operator()") : q, '(');
  return paren ? hl_xstrndup(q, (size_t)(paren - q)) : hl_xstrdup(q);
}

/* The configuration's word on v's declaration: public-api leaves it alone. */
static char *policy_refusal(const hl_alias_view *v, const hl_plan_policy *policy) {
  if (!policy || !policy->public_api || !v->alias.at.file) return NULL;
  char *name = api_name(&v->alias);
  const char *glob = policy->public_api(policy->data, v->alias.at.file, name);
  char *r =
      glob ? hl_xasprintf("the configuration names %s as public API (public-api: '%s'), which rewrites leave alone",
                          name, glob)
           : NULL;
  free(name);
  return r;
}

/* Why v's alias is not retyped, or NULL (caller frees). */
static char *refusal(const hl_alias_view *v, const hl_plan_policy *policy) {
  char *at = NULL, *r = policy_refusal(v, policy);
  if (r) return r;
  if (v->alias.param && !v->defined)
    return hl_xstrdup("no unit of the compile database defines its function, so what it does with it is not known");
  if (v->blocked) return hl_xstrdup(v->blocked);
  if (v->alias.param) return NULL;
  if (v->alias.blocked) return hl_xstrdup(v->alias.blocked);
  if (!v->alias.type.file || !v->alias.written) return hl_xstrdup("heaplint cannot find where its type is written");
  if (v->unknown_at.file) {
    at = where(&v->unknown_at);
    r = hl_xasprintf("a value whose size heaplint does not know is stored into %s at %s", v->alias.wrapper, at);
  } else if (v->fixes_unreadable) {
    r = hl_xasprintf("the index holds edits for a value stored into it that it cannot read; run heaplint again");
  } else if (v->throws_at.file) {
    at = where(&v->throws_at);
    r = hl_xasprintf("%s rejects a target whose move may throw, and the value stored at %s may", v->alias.replacement,
                     at);
  } else if (v->spelled_at.file) {
    at = where(&v->spelled_at);
    r = hl_xasprintf("%s is also written out without the alias at %s, and values would pass between the two types",
                     v->alias.wrapper, at);
  }
  free(at);
  return r;
}

/* "hl::function_ref<void()>" from the wrapper as written
 * ("std::function<void()>"), or NULL. Caller frees. */
static char *function_ref_type(const char *written) {
  const char *lt = written ? strchr(written, '<') : NULL;
  return lt ? hl_xasprintf("%s%s", HL_SBO_FUNCTION_REF, lt) : NULL;
}

/* A parameter the function only calls: every declaration of it becomes a
 * function_ref, which refers to the caller's callable instead of holding
 * it, or a note says why not. */
/* v[i]'s parameter handed on (hl_salias.onto) to another's, and that one
 * on: the parameters it goes through, in order, into *chain (each once;
 * caller frees). The first reason one of them cannot become a function_ref
 * with it (caller frees), or NULL. */
static char *handed_chain(const plan *P, size_t i, const hl_plan_policy *policy, size_t **chain, size_t *nchain) {
  const hl_alias_view *v = P->v;
  size_t cap = 0, cur = i;
  *chain = NULL;
  *nchain = 0;
  while (v[cur].alias.onto) {
    size_t first, j, seen = 0;
    if (!keyed_find(&P->params, v[cur].alias.onto, &first))
      return hl_xstrdup(
          "it is passed on to a parameter that heaplint has no record of (written through an alias, or declared "
          "by no unit of the compile database)");
    j = P->params.e[first].at; /* the first such parameter */
    for (size_t k = 0; k < *nchain && !seen; k++) seen = (*chain)[k] == j;
    if (seen || j == i) break;
    HL_PUSH(*chain, *nchain, cap, j);
    char *r = refusal(&v[j], policy);
    if (!r && v[j].alias.into) r = hl_xstrdup("its value moves into a member");
    if (r) {
      char *m =
          hl_xasprintf("it is passed on to the parameter %s, which cannot be a function_ref: %s", v[j].alias.name, r);
      free(r);
      return m;
    }
    cur = j;
  }
  return NULL;
}

/* Every declaration of parameter v as a function_ref, with its #include. */
static void function_ref_edits(hl_finding *f, const hl_alias_view *v) {
  for (size_t i = 0; i < v->nextra; i++) {
    hl_edit e = v->extra[i];
    e.text = function_ref_type(v->extra[i].text);
    if (e.text) hl_finding_edit(f, &e);
    free(e.text);
  }
  for (size_t i = 0; i < v->nincs; i++) hl_finding_edit(f, &v->incs[i]);
}

/* A parameter the function only calls, or hands on to one that does: every
 * declaration of it (and of those) becomes a function_ref, which refers to
 * the caller's callable instead of holding it, or a note says why not. */
static void plan_param(const plan *P, size_t at, const hl_plan_policy *policy, const char *rule, hl_findings *out) {
  const hl_alias_view *all = P->v, *v = &all[at];
  size_t *chain, nchain;
  char *why = refusal(v, policy);
  if (!why && v->alias.into)
    why = hl_xstrdup("its value moves into a member that no unit of the compile database otherwise uses");
  if (!why)
    why = handed_chain(P, at, policy, &chain, &nchain);
  else
    chain = NULL, nchain = 0;
  char *type = why ? NULL : function_ref_type(v->alias.written);
  if (!why && !type) why = hl_xstrdup("heaplint cannot read its type as written");
  char *counts = hl_xasprintf("%zu value%s passed to it that %s on the heap today (in %zu file%s)", v->allocating,
                              v->allocating == 1 ? "" : "s", v->allocating == 1 ? "goes" : "go", v->files,
                              v->files == 1 ? "" : "s");
  hl_sb on = {0};
  for (size_t k = 0; k < nchain; k++) hl_sb_printf(&on, "%s%s", k ? ", " : "", all[chain[k]].alias.name);
  char *m = why ? hl_xasprintf(
                      "the parameter %s is not made a function_ref, which would leave on the caller's side "
                      "the %s: %s",
                      v->alias.name, counts, why)
                : hl_xasprintf(
                      "pass the parameter %s as %s: the function only calls it%s%s%s, so the %s %s where %s made "
                      "(the function refers to %s during the call); every declaration of the function "
                      "changes with it",
                      v->alias.name, type, nchain ? " or hands it on to " : "", nchain ? on.s : "",
                      nchain ? ", which becomes one too" : "", counts, v->allocating == 1 ? "stays" : "stay",
                      v->allocating == 1 ? "it is" : "they are", v->allocating == 1 ? "it" : "them");
  hl_finding *f = hl_finding_new(rule, HL_SEV_NOTE, &v->alias.at, m);
  f->whole_project = 1;
  for (size_t i = 0; i < v->nsites; i++) hl_finding_note(f, &v->sites[i], "passed to it, on the heap today");
  if (type) function_ref_edits(f, v);
  for (size_t k = 0; type && k < nchain; k++) function_ref_edits(f, &all[chain[k]]);
  hl_findings_add(out, f);
  free(on.s);
  free(chain);
  free(m);
  free(counts);
  free(type);
  free(why);
}

/* The configuration's max-inline-capacity, when capacity exceeds it:
 * the refusal (caller frees), else NULL. */
static char *over_capacity(const hl_alias_view *v, const hl_plan_policy *policy, long capacity) {
  long max =
      policy && policy->max_capacity && v->alias.at.file ? policy->max_capacity(policy->data, v->alias.at.file) : 0;
  if (!max || capacity <= max) return NULL;
  return hl_xasprintf(
      "its values need a %ld-byte buffer (the largest %ld bytes), above the configuration's max-inline-capacity "
      "of %ld",
      capacity, v->size, max);
}

/* Two aliases of one wrapper type (using A = std::function<void()>;
 * using B = std::function<void()>;) name the same type: values pass
 * between them, so they are retyped together (to the same type: the
 * capacity is the wrapper type's) or not at all. */
static int same_type(const hl_alias_view *a, const hl_alias_view *b) {
  return !a->alias.member && !a->alias.param && !b->alias.member && !b->alias.param && a->alias.key && b->alias.key &&
         !strcmp(a->alias.key, b->alias.key);
}

/* Why an alias of v[i]'s type is not retyped, which keeps v[i] as it is
 * too, or NULL (caller frees); *grouped: v[i] has such partners. */
static char *partner_refusal(const plan *P, size_t i, const hl_plan_policy *policy, int *grouped) {
  const hl_alias_view *v = P->v;
  size_t first, count = 0;
  *grouped = 0;
  if (!v[i].alias.member && !v[i].alias.param && v[i].alias.key) count = keyed_find(&P->types, v[i].alias.key, &first);
  for (size_t e = 0; e < count; e++) {
    size_t j = P->types.e[first + e].at;
    if (j == i || !same_type(&v[i], &v[j])) continue;
    *grouped = 1;
    char *r = refusal(&v[j], policy);
    if (!r) r = over_capacity(&v[j], policy, hl_sbo_capacity(v[j].size));
    if (!r) continue;
    char *m = hl_xasprintf(
        "it names the same type as the alias '%s', and values pass between the two, but that "
        "one is not retyped: %s",
        v[j].alias.name, r);
    free(r);
    return m;
  }
  return NULL;
}

/* ---- parameters moved into a member: one rewrite ---- */

static hl_edit edit_dup(const hl_edit *e, const char *text) {
  hl_edit d = *e;
  d.file = hl_xstrdup(e->file);
  d.text = text ? hl_xstrdup(text) : NULL;
  return d;
}

/* Whether key is the member's or one of the parameters' moved into it. */
static int in_flow(const plan *P, const hl_alias_view *m, const char *key) {
  if (!strcmp(key, m->alias.key)) return 1;
  size_t first, count = keyed_find(&P->into, m->alias.key, &first);
  for (size_t e = 0; e < count; e++) {
    const char *k = P->v[P->into.e[first + e].at].alias.key;
    if (k && !strcmp(k, key)) return 1;
  }
  return 0;
}

/* A wrapper from outside the flow (another wrapper object, a call's
 * result) that goes into slot key: converting it would keep its heap.
 * The refusal (caller frees), or NULL. */
static char *foreign_flow(const hl_index_lookup *ix, const plan *P, const hl_alias_view *m, const char *key,
                          const char *what) {
  hl_sflow *flows = NULL;
  size_t nflows = 0;
  char *r = NULL;
  if (ix->flows) ix->flows(ix->data, key, &flows, &nflows);
  for (size_t i = 0; i < nflows && !r; i++) {
    if (flows[i].from && in_flow(P, m, flows[i].from)) continue;
    char *at = where(&flows[i].at);
    r = hl_xasprintf("a %s whose target heaplint does not know goes into %s at %s (converted, it would keep its heap)",
                     m->alias.wrapper, what, at);
    free(at);
  }
  for (size_t i = 0; i < nflows; i++) hl_sflow_free(&flows[i]);
  free(flows);
  return r;
}

/* Parameter p's values and declarations added to member m's, which it
 * moves into: they are retyped together. */
static void merge_param(hl_alias_view *m, const hl_alias_view *p) {
  m->values += p->values;
  m->allocating += p->allocating;
  if (p->size > m->size) m->size = p->size;
  if (p->align > m->align) m->align = p->align;
  if (!m->unknown_at.file && p->unknown_at.file) m->unknown_at = hl_loc_copy(&p->unknown_at);
  if (!m->throws_at.file && p->throws_at.file) m->throws_at = hl_loc_copy(&p->throws_at);
  m->fixes_unreadable |= p->fixes_unreadable;
  m->fixed_values += p->fixed_values;
  size_t cap = m->nsites;
  for (size_t k = 0; k < p->nsites; k++) HL_PUSH(m->sites, m->nsites, cap, hl_loc_copy(&p->sites[k]));
  cap = m->nextra;
  for (size_t k = 0; k < p->nextra; k++) HL_PUSH(m->extra, m->nextra, cap, edit_dup(&p->extra[k], p->extra[k].text));
  cap = m->nfixes;
  for (size_t k = 0; k < p->nfixes; k++) HL_PUSH(m->fixes, m->nfixes, cap, edit_dup(&p->fixes[k], p->fixes[k].text));
  /* Each declaration's file includes the member's header instead. */
  char *inc = hl_xasprintf("#include <%s>\n", m->alias.header);
  cap = m->nincs;
  for (size_t k = 0; k < p->nincs; k++) HL_PUSH(m->incs, m->nincs, cap, edit_dup(&p->incs[k], inc));
  free(inc);
  /* Allocating files, counted again over the merged sites. */
  m->files = 0;
  for (size_t k = 0; k < m->nsites; k++) {
    size_t j = 0;
    while (j < k && strcmp(m->sites[j].file, m->sites[k].file)) j++;
    m->files += j == k;
  }
}

/* The parameters that move into member v[i]: their values merged into
 * v[i]'s, their names listed in *names ("the parameter 'cb' of
 * Timer::Timer(...)"); the first reason one of them, or a foreign wrapper
 * going into the flow, keeps them all as they are (caller frees), or NULL. */
static char *link_params(const hl_index_lookup *ix, const plan *P, size_t i, const hl_plan_policy *policy,
                         hl_sb *names) {
  hl_alias_view *v = P->v;
  char *why = foreign_flow(ix, P, &v[i], v[i].alias.key, "it");
  size_t first, count = keyed_find(&P->into, v[i].alias.key, &first);
  for (size_t e = 0; e < count; e++) {
    size_t j = P->into.e[first + e].at;
    merge_param(&v[i], &v[j]);
    hl_sb_printf(names, "%sthe parameter %s", names->len ? ", " : "", v[j].alias.name);
    char *what = hl_xasprintf("the parameter %s", v[j].alias.name), *r = refusal(&v[j], policy);
    if (!r && v[j].alias.onto) r = hl_xstrdup("it is also passed on to another function");
    if (r && !why) why = hl_xasprintf("its value comes from %s, which cannot be retyped: %s", what, r);
    free(r);
    if (!why) why = foreign_flow(ix, P, &v[i], v[j].alias.key, what);
    free(what);
  }
  return why;
}

/* partner: why an alias of the same type is not retyped, or NULL;
 * grouped: there are such aliases (retyped together). */
static void plan_one(const hl_alias_view *v, const hl_plan_policy *policy, const char *rule, const char *partner,
                     int grouped, const char *linked, hl_findings *out) {
  long capacity = hl_sbo_capacity(v->size);
  char *why = refusal(v, policy);
  if (!why) why = over_capacity(v, policy, capacity);
  if (!why && partner) why = hl_xstrdup(partner);
  char *type = why ? NULL : hl_inline_type(v->alias.written, v->alias.replacement, capacity, v->align);
  if (!why && !type) why = hl_xstrdup("heaplint cannot read its type as written");
  int member = v->alias.member;
  char *counts = hl_xasprintf("%zu value%s stored %s it that %s on the heap today (in %zu file%s)", v->allocating,
                              v->allocating == 1 ? "" : "s", member ? "into" : "through",
                              v->allocating == 1 ? "goes" : "go", v->files, v->files == 1 ? "" : "s");
  char *m;
  if (why)
    m = hl_xasprintf("the %s '%s' is not retyped, which would keep inline the %s: %s", member ? "member" : "alias",
                     v->alias.name, counts, why);
  else if (member)
    m = hl_xasprintf(
        "retype the member '%s'%s%s%s to hold %s: it keeps inline the %s, and all %zu value%s stored into it "
        "in the project fit (the largest %ld bytes, align %ld)",
        v->alias.name, linked ? " and " : "", linked ? linked : "", linked ? ", whose value moves into it," : "", type,
        counts, v->values, v->values == 1 ? "" : "s", v->size, v->align);
  else
    m = hl_xasprintf(
        "retype the alias '%s' as %s: it keeps inline the %s, and all %zu value%s stored into %s in the "
        "project fit (the largest %ld bytes, align %ld); every declaration written through the alias "
        "changes with it%s",
        v->alias.name, type, counts, v->values, v->values == 1 ? "" : "s", v->alias.wrapper, v->size, v->align,
        grouped ? ", and the other aliases of that type with it (values pass between them): one edit" : "");
  hl_finding *f = hl_finding_new(rule, HL_SEV_NOTE, &v->alias.at, m);
  f->whole_project = 1;
  if (grouped && type) f->together = hl_xstrdup(v->alias.key);
  for (size_t i = 0; i < v->nsites; i++)
    hl_finding_note(f, &v->sites[i],
                    member ? "stored into it, on the heap today" : "stored through it, on the heap today");
  if (type) {
    hl_edit e = v->alias.type;
    e.text = type;
    hl_finding_edit(f, &e);
    if (v->alias.include.file) hl_finding_edit(f, &v->alias.include);
    for (size_t i = 0; i < v->nfixes; i++) hl_finding_edit(f, &v->fixes[i]);
    for (size_t i = 0; i < v->nextra; i++) {
      hl_edit x = v->extra[i];
      x.text = hl_inline_type(v->extra[i].text, v->alias.replacement, capacity, v->align);
      if (x.text) hl_finding_edit(f, &x);
      free(x.text);
    }
    /* A linked parameter's declarations in other files include the header. */
    for (size_t i = 0; i < v->nincs; i++) {
      int have = v->alias.include.file && !strcmp(v->alias.include.file, v->incs[i].file);
      for (size_t k = 0; k < i && !have; k++) have = !strcmp(v->incs[k].file, v->incs[i].file);
      if (!have) hl_finding_edit(f, &v->incs[i]);
    }
    if (v->fixed_values) {
      char *note = hl_xasprintf(
          "%zu lambda%s capture%s a const copy, which a move copies and which may throw: "
          "with the rewrite, %s capture%s become%s%s init-capture%s ([n = n]: a copy that is not "
          "const)",
          v->fixed_values, v->fixed_values == 1 ? "" : "s", v->fixed_values == 1 ? "s" : "",
          v->nfixes == 1 ? "that" : "those", v->nfixes == 1 ? "" : "s", v->nfixes == 1 ? "s" : "",
          v->nfixes == 1 ? " an" : "", v->nfixes == 1 ? "" : "s");
      hl_finding_note(f, &v->alias.at, note);
      free(note);
    }
  }
  hl_findings_add(out, f);
  free(m);
  free(counts);
  free(type);
  free(why);
}

void hl_sbo_alias_plan(const hl_index_lookup *ix, const hl_plan_policy *policy, const char *rule, hl_findings *out) {
  hl_alias_view *v = NULL;
  size_t n = 0;
  char *err = NULL;
  /* An index that cannot be read plans nothing (its other readers say why). */
  if (!ix->aliases || ix->aliases(ix->data, &v, &n, &err)) {
    free(err);
    return;
  }
  plan P = {v, n, {0}, {0}, {0}, {0}};
  plan_index(&P);
  for (size_t i = 0; i < n; i++) {
    if (v[i].alias.param) {
      /* One that moves into a member is planned with it. */
      size_t first;
      int with_member = v[i].alias.into && keyed_find(&P.members, v[i].alias.into, &first);
      if (!with_member && v[i].allocating) plan_param(&P, i, policy, rule, out);
      continue;
    }
    hl_sb linked = {0};
    char *link = v[i].alias.member ? link_params(ix, &P, i, policy, &linked) : NULL;
    /* What is stored is counted per wrapper type: the aliases of one type
     * allocate alike. */
    if (v[i].allocating) {
      int grouped;
      char *partner = partner_refusal(&P, i, policy, &grouped);
      plan_one(&v[i], policy, rule, partner ? partner : link, grouped, linked.len ? linked.s : NULL, out);
      free(partner);
    }
    free(link);
    free(linked.s);
  }
  plan_free(&P);
  hl_alias_views_free(v, n);
}
