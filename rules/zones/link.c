#include "rules/zones/link.h"

#include <stdlib.h>
#include <string.h>

#include "util/util.h"

/* The calls heaplint names in a zone's "not verified" remark, at most (as
 * zones.c). */
#define MAX_UNSEEN_SHOWN 8
/* Functions one call's search looks at, at most: a bound, not a limit real
 * code reaches. */
#define MAX_VISITED 100000

/* A function to look at, and how the search got there. */
typedef struct item {
  char *usr, *name;
  int dynamic;
  hl_loc at;      /* the call of it */
  hl_note *notes; /* the calls down to it */
  size_t nnotes;
  hl_strv names; /* the chain's names after the zone's */
} item;

typedef struct search {
  const hl_index_lookup *ix;
  item *q;
  size_t qh, qn, cap;
  hl_strv visited;
  hl_strv *unseen;
} search;

static void item_free(item *it) {
  free(it->usr);
  free(it->name);
  hl_loc_free(&it->at);
  for (size_t i = 0; i < it->nnotes; i++) {
    hl_loc_free(&it->notes[i].loc);
    free(it->notes[i].message);
  }
  free(it->notes);
  hl_strv_free(&it->names);
}

static void add_note(item *it, const hl_loc *at, char *message /* taken */) {
  it->notes = hl_xrealloc(it->notes, (it->nnotes + 1) * sizeof *it->notes);
  it->notes[it->nnotes++] = (hl_note){hl_loc_copy(at), message};
}

/* it's notes and names followed by path's hops. */
static void follow(item *it, const hl_spath *path) {
  for (size_t i = 0; i < path->n; i++) {
    add_note(it, &path->v[i].at, hl_xasprintf("%s calls %s here", path->v[i].caller, path->v[i].callee));
    hl_strv_add(&it->names, path->v[i].callee);
  }
}

static item copy_of(const item *from) {
  item it = {hl_xstrdup(from->usr), hl_xstrdup(from->name), from->dynamic, hl_loc_copy(&from->at), NULL, 0, {0}};
  for (size_t i = 0; i < from->nnotes; i++) add_note(&it, &from->notes[i].loc, hl_xstrdup(from->notes[i].message));
  for (size_t i = 0; i < from->names.n; i++) hl_strv_add(&it.names, from->names.v[i]);
  return it;
}

/* Queues exit e, reached as base says (NULL: from the zone's call). */
static void enqueue(search *S, const item *base, const char *head, const hl_sexit *e) {
  item it = {0};
  if (base) {
    it = copy_of(base);
    free(it.usr);
    free(it.name);
    hl_loc_free(&it.at);
  } else {
    hl_strv_add(&it.names, head);
  }
  it.usr = hl_xstrdup(e->usr);
  it.name = hl_xstrdup(e->name);
  it.dynamic = e->dynamic;
  it.at = hl_loc_copy(&e->at);
  follow(&it, &e->path);
  HL_PUSH(S->q, S->qn, S->cap, it);
}

static void add_unseen(hl_strv *unseen, const char *text) {
  for (size_t i = 0; i < unseen->n; i++)
    if (!strcmp(unseen->v[i], text)) return;
  hl_strv_add(unseen, text);
}

static int visited(search *S, const char *usr) {
  for (size_t i = 0; i < S->visited.n; i++)
    if (!strcmp(S->visited.v[i], usr)) return 1;
  if (S->visited.n < MAX_VISITED) hl_strv_add(&S->visited, usr);
  return 0;
}

/* The candidates of a call: the callee, and for a virtual call every
 * method that overrides it, directly or not. */
static void candidates(search *S, const item *it, hl_strv *out) {
  hl_strv_add(out, it->usr);
  for (size_t i = 0; it->dynamic && i < out->n && out->n < MAX_VISITED; i++) {
    hl_strv more = {0};
    S->ix->overriders(S->ix->data, out->v[i], &more);
    for (size_t k = 0; k < more.n; k++) add_unseen(out, more.v[k]);
    hl_strv_free(&more);
  }
}

typedef struct found {
  item it;
  hl_loc at;
  char *what;
} found;

/* Function fn, reached by it: 1 when it allocates (*f filled), else its
 * exits queued and what it could not follow listed. */
static int look_at(search *S, const item *it, const hl_sfn *fn, found *f) {
  item next = copy_of(it);
  if (strcmp(fn->usr, it->usr)) {
    add_note(&next, &fn->loc, hl_xasprintf("%s overrides %s", fn->name, it->name));
    hl_strv_add(&next.names, fn->name);
  }
  if (fn->allocates) {
    follow(&next, &fn->chain);
    f->it = next;
    f->at = hl_loc_copy(&fn->alloc_at);
    f->what = hl_xstrdup(fn->alloc_what);
    return 1;
  }
  for (size_t i = 0; i < fn->exits.n; i++) enqueue(S, &next, NULL, &fn->exits.v[i]);
  for (size_t i = 0; i < fn->unseen.n; i++) add_unseen(S->unseen, fn->unseen.v[i]);
  item_free(&next);
  return 0;
}

/* Breadth first from the call's exits: 1 with the nearest allocation. */
static int run(search *S, const hl_szcall *c, found *f) {
  for (size_t i = 0; i < c->exits.n; i++) enqueue(S, NULL, c->callee, &c->exits.v[i]);
  int hit = 0;
  for (; S->qh < S->qn && !hit; S->qh++) {
    /* Taken out: queuing may move the queue. */
    item taken = S->q[S->qh], *it = &taken;
    S->q[S->qh] = (item){0};
    hl_strv cands = {0};
    candidates(S, it, &cands);
    int known = 0;
    for (size_t k = 0; k < cands.n && !hit; k++) {
      hl_sfn fn;
      if (visited(S, cands.v[k])) {
        known = 1;
        continue;
      }
      if (!S->ix->function(S->ix->data, cands.v[k], &fn)) continue;
      known = 1;
      hit = look_at(S, it, &fn, f);
      hl_sfn_free(&fn);
    }
    hl_strv_free(&cands);
    if (!known) {
      char *w = hl_loc_where(&it->at);
      char *t = it->dynamic
                    ? hl_xasprintf("%s, a virtual function with no body in any unit of the index (%s)", it->name, w)
                    : hl_xasprintf("%s, whose body is in no unit of the index (%s)", it->name, w);
      add_unseen(S->unseen, t);
      free(t);
      free(w);
    }
    item_free(&taken);
  }
  return hit;
}

static void search_free(search *S) {
  for (size_t i = 0; i < S->qn; i++) item_free(&S->q[i]);
  free(S->q);
  hl_strv_free(&S->visited);
}

static void zone_note(const hl_szone *z, hl_finding *f) {
  char *m = hl_xasprintf("%s is a no-allocation zone: %s", z->name, z->why);
  hl_finding_note(f, &z->at, m);
  free(m);
}

static void report(const hl_szone *z, const hl_szcall *c, const char *rule, found *f, hl_findings *out) {
  char *m = hl_xasprintf("in no-allocation zone '%s': this call of %s allocates", z->name, c->callee);
  hl_finding *e = hl_finding_new(rule, HL_SEV_ERROR, &c->at, m);
  free(m);
  e->end_line = c->end_line;
  e->end_col = c->end_col;
  for (size_t i = 0; i < f->it.nnotes; i++) hl_finding_note(e, &f->it.notes[i].loc, f->it.notes[i].message);
  hl_sb chain = {0};
  hl_sb_puts(&chain, z->name);
  for (size_t i = 0; i < f->it.names.n; i++) hl_sb_printf(&chain, " -> %s", f->it.names.v[i]);
  m = hl_xasprintf("%s: %s", hl_sb_str(&chain), f->what);
  hl_finding_note(e, &f->at, m);
  free(m);
  hl_sb_free(&chain);
  zone_note(z, e);
  hl_findings_add(out, e);
}

static void unseen_remark(const hl_szone *z, const hl_strv *unseen, const char *rule, hl_findings *out) {
  if (!unseen->n) return;
  hl_sb b = {0};
  hl_sb_printf(&b, "not decided: no-allocation zone '%s' calls what heaplint cannot see into: ", z->name);
  for (size_t i = 0; i < unseen->n && i < MAX_UNSEEN_SHOWN; i++) hl_sb_printf(&b, "%s%s", i ? "; " : "", unseen->v[i]);
  if (unseen->n > MAX_UNSEEN_SHOWN) hl_sb_printf(&b, "; and %zu more", unseen->n - MAX_UNSEEN_SHOWN);
  hl_finding *f = hl_finding_new(rule, HL_SEV_NOTE, &z->at, hl_sb_str(&b));
  f->undecided = "not verified";
  hl_sb_free(&b);
  hl_findings_add(out, f);
}

void hl_zones_link(const hl_index_lookup *ix, const hl_summary *unit, const char *rule, hl_findings *out) {
  for (size_t i = 0; i < unit->nzones; i++) {
    const hl_szone *z = &unit->zones[i];
    if (strcmp(z->rule, rule)) continue;
    hl_strv unseen = {0};
    for (size_t k = 0; k < z->unseen.n; k++) hl_strv_add(&unseen, z->unseen.v[k]);
    for (size_t k = 0; k < z->ncalls; k++) {
      search S = {ix, NULL, 0, 0, 0, {0}, &unseen};
      found f = {0};
      if (run(&S, &z->calls[k], &f)) {
        report(z, &z->calls[k], rule, &f, out);
        item_free(&f.it);
        hl_loc_free(&f.at);
        free(f.what);
      }
      search_free(&S);
    }
    unseen_remark(z, &unseen, rule, out);
    hl_strv_free(&unseen);
  }
}
