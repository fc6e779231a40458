#include "rules/zones/zones.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "util/util.h"
#include "util/strv.h"
#include "rules/zones/sites.h"

/* The calls heaplint names in a zone's "not verified" remark, at most. */
#define MAX_UNSEEN_SHOWN 8

typedef struct zfile {
  CXFile f;
  char *path; /* absolute, when first needed */
} zfile;

typedef struct zfn {
  CXCursor decl; /* canonical */
  CXCursor def;
  int file;
  unsigned start, end; /* the extent's offsets */
  char *why;           /* the zone's marker, or NULL */
  size_t from, to;     /* its expressions: exprs[from, to), once sorted */
} zfn;

typedef struct zexpr {
  CXCursor c;
  int file;
  unsigned off;
  int classified;
  hl_zcall kind;
  int callee; /* FUNCTION: the callee's index in fns, or -1 (no definition) */
  char *what; /* ALLOCATES, UNSEEN: in words */
  /* With an index: a call of a function the unit has no body of (UNSEEN),
   * or a virtual call (VIRTUAL): the callee's USR and name, for the index
   * to follow. NULL otherwise. */
  char *usr, *name;
} zexpr;

/* A site another rule judged, placed in the zones' files: the index of
 * its verdict (hl_ctx_allocations grows as findings are reported). */
typedef struct zother {
  int file;
  unsigned off;
  size_t a;
} zother;

struct hl_zones {
  zfile *files;
  size_t nfiles, capfiles;
  zfn *fns;
  size_t nfns, capfns;
  zexpr *exprs;
  size_t nexprs, capexprs;
  size_t nzones;
  /* After the walk. */
  zother *others;
  size_t nothers, capothers;
  int *slot; /* fns by their declaration's hash (open addressing), nslots */
  size_t nslots;
  unsigned *mark, stamp; /* per fn: visited by the search of this stamp */
  int *pred_fn;          /* per fn: whom the search came from, and by which expression */
  size_t *pred_expr;
  int *queue;          /* the search's */
  hl_summary *summary; /* the unit's, when the front end keeps an index: NULL otherwise */
};

hl_zones *hl_zones_new(void) { return hl_xcalloc(1, sizeof(hl_zones)); }

void hl_zones_free(hl_zones *Z) {
  for (size_t i = 0; i < Z->nfiles; i++) free(Z->files[i].path);
  for (size_t i = 0; i < Z->nfns; i++) free(Z->fns[i].why);
  for (size_t i = 0; i < Z->nexprs; i++) {
    free(Z->exprs[i].what);
    free(Z->exprs[i].usr);
    free(Z->exprs[i].name);
  }
  free(Z->files);
  free(Z->fns);
  free(Z->exprs);
  free(Z->others);
  free(Z->slot);
  free(Z->mark);
  free(Z->pred_fn);
  free(Z->pred_expr);
  free(Z->queue);
  free(Z);
}

/* ---- the walk ---- */

static int file_index(hl_zones *Z, CXFile f) {
  if (!f) return -1;
  for (size_t i = Z->nfiles; i-- > 0;)
    if (clang_File_isEqual(Z->files[i].f, f)) return (int)i;
  zfile z = {f, NULL};
  HL_PUSH(Z->files, Z->nfiles, Z->capfiles, z);
  return (int)Z->nfiles - 1;
}

static int position(hl_zones *Z, CXSourceLocation loc, unsigned *off) {
  CXFile f;
  clang_getFileLocation(loc, &f, NULL, NULL, off);
  return file_index(Z, f);
}

void hl_zones_function(hl_zones *Z, CXCursor fn, const char *why) {
  CXSourceRange r = clang_getCursorExtent(fn);
  unsigned end;
  zfn z = {clang_getCanonicalCursor(fn), fn, 0, 0, 0, why ? hl_xstrdup(why) : NULL, 0, 0};
  z.file = position(Z, clang_getRangeStart(r), &z.start);
  if (z.file < 0 || position(Z, clang_getRangeEnd(r), &end) != z.file) {
    free(z.why);
    return;
  }
  z.end = end;
  Z->nzones += why != NULL;
  HL_PUSH(Z->fns, Z->nfns, Z->capfns, z);
}

void hl_zones_expr(hl_zones *Z, CXCursor e) {
  zexpr x = {e, 0, 0, 0, HL_ZCALL_NONE, -1, NULL, NULL, NULL};
  x.file = position(Z, clang_getCursorLocation(e), &x.off);
  if (x.file >= 0) HL_PUSH(Z->exprs, Z->nexprs, Z->capexprs, x);
}

/* ---- after the walk: where everything is ---- */

static int by_position(const void *a, const void *b) {
  const zexpr *x = a, *y = b;
  if (x->file != y->file) return x->file < y->file ? -1 : 1;
  return (x->off > y->off) - (x->off < y->off);
}

static int others_by_position(const void *a, const void *b) {
  const zother *x = a, *y = b;
  if (x->file != y->file) return x->file < y->file ? -1 : 1;
  return (x->off > y->off) - (x->off < y->off);
}

/* The first expression at or after (file, off). */
static size_t lower_bound_expr(const hl_zones *Z, int file, unsigned off) {
  size_t lo = 0, hi = Z->nexprs;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    const zexpr *x = &Z->exprs[mid];
    if (x->file < file || (x->file == file && x->off < off))
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}

/* The first of the other rules' sites at or after (file, off). */
static size_t lower_bound_other(const hl_zones *Z, int file, unsigned off) {
  size_t lo = 0, hi = Z->nothers;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    const zother *x = &Z->others[mid];
    if (x->file < file || (x->file == file && x->off < off))
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}

static const char *file_path(hl_ctx *ctx, hl_zones *Z, int file) {
  if (!Z->files[file].path) Z->files[file].path = hl_file_abspath(Z->files[file].f, hl_ctx_job(ctx)->directory);
  return Z->files[file].path;
}

/* The other rules' sites, in the zones' files. */
static void place_others(hl_ctx *ctx, hl_zones *Z, const char *rule) {
  size_t n;
  const hl_allocation *a = hl_ctx_allocations(ctx, &n);
  for (size_t i = 0; i < n; i++) {
    if (!strcmp(a[i].rule, rule)) continue;
    int file = -1;
    for (size_t f = 0; f < Z->nfiles && file < 0; f++)
      if (!strcmp(file_path(ctx, Z, (int)f), a[i].loc.file)) file = (int)f;
    zother o = {file, a[i].loc.offset, i};
    if (file >= 0) HL_PUSH(Z->others, Z->nothers, Z->capothers, o);
  }
  if (Z->nothers) qsort(Z->others, Z->nothers, sizeof *Z->others, others_by_position); /* others is NULL when none */
}

static const hl_allocation *verdict(hl_ctx *ctx, const zother *o) {
  size_t n;
  return &hl_ctx_allocations(ctx, &n)[o->a];
}

static size_t hash_slot(const hl_zones *Z, CXCursor decl) { return clang_hashCursor(decl) % Z->nslots; }

/* Sorts the expressions, gives each function its range, and indexes the
 * functions by declaration. */
static void index_all(hl_ctx *ctx, hl_zones *Z, const char *rule) {
  if (Z->nexprs) qsort(Z->exprs, Z->nexprs, sizeof *Z->exprs, by_position); /* exprs is NULL when none */
  for (size_t i = 0; i < Z->nfns; i++) {
    Z->fns[i].from = lower_bound_expr(Z, Z->fns[i].file, Z->fns[i].start);
    Z->fns[i].to = lower_bound_expr(Z, Z->fns[i].file, Z->fns[i].end);
  }
  Z->nslots = Z->nfns * 2 + 1;
  Z->slot = hl_xcalloc(Z->nslots, sizeof *Z->slot);
  for (size_t i = 0; i < Z->nslots; i++) Z->slot[i] = -1;
  for (size_t i = 0; i < Z->nfns; i++) {
    size_t s = hash_slot(Z, Z->fns[i].decl);
    while (Z->slot[s] >= 0) s = (s + 1) % Z->nslots;
    Z->slot[s] = (int)i;
  }
  Z->mark = hl_xcalloc(Z->nfns ? Z->nfns : 1, sizeof *Z->mark);
  Z->pred_fn = hl_xcalloc(Z->nfns ? Z->nfns : 1, sizeof *Z->pred_fn);
  Z->pred_expr = hl_xcalloc(Z->nfns ? Z->nfns : 1, sizeof *Z->pred_expr);
  Z->queue = hl_xcalloc(Z->nfns ? Z->nfns : 1, sizeof *Z->queue);
  place_others(ctx, Z, rule);
}

static int find_fn(const hl_zones *Z, CXCursor decl) {
  for (size_t s = hash_slot(Z, decl); Z->slot[s] >= 0; s = (s + 1) % Z->nslots)
    if (clang_equalCursors(Z->fns[Z->slot[s]].decl, decl)) return Z->slot[s];
  return -1;
}

/* The callee of a call the index follows: its USR and name. */
static void named(zexpr *x, CXCursor callee) {
  char *usr = hl_cxstring_take(clang_getCursorUSR(callee)), *n = hl_decl_name(callee);
  if (*usr) {
    x->usr = usr;
    x->name = hl_xasprintf("%s()", n);
  } else {
    free(usr);
  }
  free(n);
}

/* What expression i is, judged once. */
static zexpr *classify(hl_ctx *ctx, hl_zones *Z, size_t i) {
  zexpr *x = &Z->exprs[i];
  if (x->classified) return x;
  x->classified = 1;
  CXCursor callee = clang_getNullCursor();
  switch (clang_getCursorKind(x->c)) {
  case CXCursor_CXXNewExpr: x->kind = hl_zone_new(ctx, x->c, &callee, &x->what); break;
  case CXCursor_CXXThrowExpr:
    x->what = hl_zone_throw(x->c);
    x->kind = x->what ? HL_ZCALL_ALLOCATES : HL_ZCALL_NONE;
    break;
  default: x->kind = hl_zone_call(x->c, &callee, &x->what); break;
  }
  /* Without an index a virtual call is one heaplint cannot follow. */
  if (x->kind == HL_ZCALL_VIRTUAL && Z->summary) named(x, callee);
  if (x->kind == HL_ZCALL_VIRTUAL && !x->usr) x->kind = HL_ZCALL_UNSEEN;
  if (x->kind == HL_ZCALL_FUNCTION) x->callee = find_fn(Z, callee);
  if (x->kind == HL_ZCALL_FUNCTION && x->callee < 0) {
    char *n = hl_decl_name(callee);
    x->what = hl_xasprintf("%s(), whose body is not in this translation unit", n);
    free(n);
    x->kind = HL_ZCALL_UNSEEN;
    if (Z->summary) named(x, callee);
  }
  return x;
}

/* ---- names and words ---- */

static char *fn_name(hl_ctx *ctx, const zfn *f) {
  if (clang_getCursorKind(f->def) == CXCursor_LambdaExpr) {
    hl_loc l;
    if (hl_ctx_loc(ctx, clang_getCursorLocation(f->def), &l)) return hl_xstrdup("the lambda");
    char *w = hl_loc_where(&l), *r = hl_xasprintf("the lambda at %s", w);
    free(w);
    hl_loc_free(&l);
    return r;
  }
  char *n = hl_decl_name(f->def), *r = hl_xasprintf("%s()", n);
  free(n);
  return r;
}

typedef struct zone_ctx {
  hl_ctx *ctx;
  hl_zones *Z;
  const char *rule;
  const zfn *zone;
  char *name;       /* the zone's, for messages */
  hl_strv unseen;   /* "what (where)", each once */
  hl_sexits *exits; /* with an index: the calls the search leaves the unit by (NULL: unseen) */
  hl_szone *open;   /* with an index: the zone's calls whose search left the unit */
} zone_ctx;

static void add_unseen(zone_ctx *zc, const zexpr *x) {
  hl_loc l;
  if (hl_ctx_loc(zc->ctx, clang_getCursorLocation(x->c), &l)) return;
  char *w = hl_loc_where(&l);
  int seen = 0;
  for (size_t i = 0; i < zc->unseen.n && !seen; i++) seen = hl_starts_with(zc->unseen.v[i], x->what);
  if (!seen) hl_strv_addf(&zc->unseen, "%s (%s)", x->what, w);
  free(w);
  hl_loc_free(&l);
}

/* The note that says why the function is a zone. */
static void zone_note(zone_ctx *zc, hl_finding *f) {
  hl_loc l;
  if (hl_ctx_loc(zc->ctx, clang_getCursorLocation(zc->zone->def), &l)) return;
  char *m = hl_xasprintf("%s is a no-allocation zone: %s", zc->name, zc->zone->why);
  hl_finding_note(f, &l, m);
  free(m);
  hl_loc_free(&l);
}

static void error_at(zone_ctx *zc, const hl_loc *at, const char *what) {
  char *m = hl_xasprintf("in no-allocation zone '%s': %s", zc->name, what);
  hl_finding *f = hl_finding_new(zc->rule, HL_SEV_ERROR, at, m);
  free(m);
  zone_note(zc, f);
  hl_ctx_report(zc->ctx, f);
}

/* ---- the search ---- */

typedef struct reach {
  int fn;              /* the function the allocation is in, or -1: none reached */
  const zother *other; /* the allocation: another rule's site, */
  size_t expr;         /* or one of the zones' expressions */
} reach;

/* The calls the search made from its start down to function u, as hops. */
static void path_to(zone_ctx *zc, int u, hl_spath *out) {
  hl_zones *Z = zc->Z;
  int path[64];
  size_t np = 0;
  for (int v = u; v >= 0 && np < sizeof path / sizeof *path; v = Z->pred_fn[v]) path[np++] = v;
  for (size_t k = np; k-- > 1;) {
    hl_loc at;
    if (hl_ctx_loc(zc->ctx, clang_getCursorLocation(Z->exprs[Z->pred_expr[path[k - 1]]].c), &at)) continue;
    char *caller = fn_name(zc->ctx, &Z->fns[path[k]]), *callee = fn_name(zc->ctx, &Z->fns[path[k - 1]]);
    hl_spath_add(out, caller, callee, &at);
    free(caller);
    free(callee);
    hl_loc_free(&at);
  }
}

/* A call the search cannot follow in the unit, made by function u: with an
 * index, an exit (once per callee) that the index follows; else unseen. */
static void leave(zone_ctx *zc, int u, const zexpr *x) {
  if (!zc->exits || !x->usr) {
    add_unseen(zc, x);
    return;
  }
  for (size_t i = 0; i < zc->exits->n; i++)
    if (!strcmp(zc->exits->v[i].usr, x->usr)) return;
  hl_sexit e = {hl_xstrdup(x->usr), hl_xstrdup(x->name), x->kind == HL_ZCALL_VIRTUAL, {0}, {0}};
  if (hl_ctx_loc(zc->ctx, clang_getCursorLocation(x->c), &e.at)) {
    hl_sexit_free(&e);
    return;
  }
  if (u >= 0) {
    path_to(zc, u, &e.path);
    char *caller = fn_name(zc->ctx, &zc->Z->fns[u]);
    hl_spath_add(&e.path, caller, x->name, &e.at);
    free(caller);
  }
  HL_PUSH(zc->exits->v, zc->exits->n, zc->exits->cap, e);
}

/* Function u's own allocation: the first of the other rules' sites in it,
 * else the first of its expressions that allocates. Its calls are queued. */
static int own_allocation(zone_ctx *zc, int u, reach *r, int *queue, size_t *qn) {
  hl_zones *Z = zc->Z;
  const zfn *f = &Z->fns[u];
  size_t o = lower_bound_other(Z, f->file, f->start);
  if (o < Z->nothers && Z->others[o].file == f->file && Z->others[o].off < f->end) {
    *r = (reach){u, &Z->others[o], 0};
    return 1;
  }
  for (size_t i = f->from; i < f->to; i++) {
    zexpr *x = classify(zc->ctx, Z, i);
    if (x->kind == HL_ZCALL_ALLOCATES) {
      *r = (reach){u, NULL, i};
      return 1;
    }
    if (x->kind == HL_ZCALL_UNSEEN || x->kind == HL_ZCALL_VIRTUAL) leave(zc, u, x);
    if (x->kind == HL_ZCALL_FUNCTION && Z->mark[x->callee] != Z->stamp) {
      Z->mark[x->callee] = Z->stamp;
      Z->pred_fn[x->callee] = u;
      Z->pred_expr[x->callee] = i;
      queue[(*qn)++] = x->callee;
    }
  }
  return 0;
}

/* Breadth first from function start: the nearest allocation. */
static reach search(zone_ctx *zc, int start) {
  hl_zones *Z = zc->Z;
  reach r = {-1, NULL, 0};
  int *queue = Z->queue; /* each function is queued once per search */
  size_t qh = 0, qn = 0;
  Z->stamp++;
  Z->mark[start] = Z->stamp;
  Z->pred_fn[start] = -1;
  queue[qn++] = start;
  while (qh < qn && !own_allocation(zc, queue[qh], &r, queue, &qn)) qh++;
  return r;
}

/* The error at a call in the zone that reaches an allocation: the chain of
 * calls in notes, down to the allocation. */
static void chain_error(zone_ctx *zc, const zexpr *call, int callee, const reach *r) {
  hl_zones *Z = zc->Z;
  hl_loc at, site;
  if (hl_ctx_loc(zc->ctx, clang_getCursorLocation(call->c), &at)) return;
  char *cn = fn_name(zc->ctx, &Z->fns[callee]);
  char *m = hl_xasprintf("in no-allocation zone '%s': this call of %s allocates", zc->name, cn);
  hl_finding *f = hl_finding_new(zc->rule, HL_SEV_ERROR, &at, m);
  free(m);
  hl_ctx_range(zc->ctx, f, call->c);
  /* The path, from the allocating function back up to the callee. */
  int path[64];
  size_t np = 0;
  for (int u = r->fn; u >= 0 && np < sizeof path / sizeof *path; u = Z->pred_fn[u]) path[np++] = u;
  hl_sb chain = {0};
  hl_sb_printf(&chain, "%s", zc->name);
  for (size_t k = np; k-- > 0;) {
    char *n = fn_name(zc->ctx, &Z->fns[path[k]]);
    hl_sb_printf(&chain, " -> %s", n);
    hl_loc hop;
    if (k + 1 < np && !hl_ctx_loc(zc->ctx, clang_getCursorLocation(Z->exprs[Z->pred_expr[path[k]]].c), &hop)) {
      char *pn = fn_name(zc->ctx, &Z->fns[path[k + 1]]), *hm = hl_xasprintf("%s calls %s here", pn, n);
      hl_finding_note(f, &hop, hm);
      free(hm);
      free(pn);
      hl_loc_free(&hop);
    }
    free(n);
  }
  const hl_allocation *other = r->other ? verdict(zc->ctx, r->other) : NULL;
  int have_site = other ? (site = hl_loc_copy(&other->loc), 1)
                        : !hl_ctx_loc(zc->ctx, clang_getCursorLocation(Z->exprs[r->expr].c), &site);
  if (have_site) {
    m = hl_xasprintf("%s: %s", hl_sb_str(&chain), other ? other->what : Z->exprs[r->expr].what);
    hl_finding_note(f, &site, m);
    free(m);
    hl_loc_free(&site);
  }
  hl_sb_free(&chain);
  zone_note(zc, f);
  hl_ctx_report(zc->ctx, f);
  free(cn);
  hl_loc_free(&at);
}

/* A call of the zone whose search left the unit by the exits ex (taken):
 * kept for the index. */
static void open_call(zone_ctx *zc, const zexpr *x, const char *callee, hl_sexits *ex) {
  hl_szcall c = {{0}, 0, 0, hl_xstrdup(callee), *ex};
  *ex = (hl_sexits){0};
  if (hl_ctx_loc(zc->ctx, clang_getCursorLocation(x->c), &c.at)) {
    free(c.callee);
    hl_sexits_free(&c.exits);
    return;
  }
  hl_ctx_range_end(zc->ctx, &c.at, x->c, &c.end_line, &c.end_col);
  HL_PUSH(zc->open->calls, zc->open->ncalls, zc->open->capcalls, c);
}

/* A call in the zone itself that the unit cannot follow: with an index,
 * an open call with one exit; else unseen. */
static void direct_exit(zone_ctx *zc, const zexpr *x) {
  if (!zc->open || !x->usr) {
    add_unseen(zc, x);
    return;
  }
  hl_sexits ex = {0};
  zc->exits = &ex;
  leave(zc, -1, x);
  zc->exits = NULL;
  if (ex.n) open_call(zc, x, x->name, &ex);
  hl_sexits_free(&ex);
}

/* The zone's own sites: the other rules' first, then its expressions
 * (one that coincides with another rule's site is said once). */
static void zone_sites(zone_ctx *zc) {
  hl_zones *Z = zc->Z;
  const zfn *z = zc->zone;
  size_t o0 = lower_bound_other(Z, z->file, z->start), o1 = lower_bound_other(Z, z->file, z->end);
  for (size_t o = o0; o < o1; o++) {
    if (o > o0 && Z->others[o].off == Z->others[o - 1].off) continue;
    /* Copied: the report adds a verdict, and the table may move. */
    const hl_allocation *a = verdict(zc->ctx, &Z->others[o]);
    hl_loc at = hl_loc_copy(&a->loc);
    char *what = hl_xstrdup(a->what);
    error_at(zc, &at, what);
    free(what);
    hl_loc_free(&at);
  }
  for (size_t i = z->from; i < z->to; i++) {
    zexpr *x = classify(zc->ctx, Z, i);
    int said = 0;
    for (size_t o = o0; o < o1 && !said; o++) said = Z->others[o].off == x->off;
    if (x->kind == HL_ZCALL_UNSEEN || x->kind == HL_ZCALL_VIRTUAL) direct_exit(zc, x);
    if (x->kind == HL_ZCALL_ALLOCATES && !said) {
      hl_loc l;
      if (hl_ctx_loc(zc->ctx, clang_getCursorLocation(x->c), &l)) continue;
      error_at(zc, &l, x->what);
      hl_loc_free(&l);
    } else if (x->kind == HL_ZCALL_FUNCTION) {
      hl_sexits ex = {0};
      zc->exits = zc->open ? &ex : NULL;
      reach r = search(zc, x->callee);
      zc->exits = NULL;
      if (r.fn >= 0) {
        chain_error(zc, x, x->callee, &r);
      } else if (ex.n) {
        char *cn = fn_name(zc->ctx, &Z->fns[x->callee]);
        open_call(zc, x, cn, &ex);
        free(cn);
      }
      hl_sexits_free(&ex);
    }
  }
}

static void unseen_remark(zone_ctx *zc) {
  if (!zc->unseen.n) return;
  hl_loc l;
  if (hl_ctx_loc(zc->ctx, clang_getCursorLocation(zc->zone->def), &l)) return;
  hl_sb b = {0};
  for (size_t i = 0; i < zc->unseen.n && i < MAX_UNSEEN_SHOWN; i++)
    hl_sb_printf(&b, "%s%s", i ? "; " : "", zc->unseen.v[i]);
  if (zc->unseen.n > MAX_UNSEEN_SHOWN) hl_sb_printf(&b, "; and %zu more", zc->unseen.n - MAX_UNSEEN_SHOWN);
  hl_ctx_undecided(zc->ctx, zc->rule, &l, "not verified",
                   "no-allocation zone '%s' calls what heaplint cannot see into: %s", zc->name, hl_sb_str(&b));
  hl_sb_free(&b);
  hl_loc_free(&l);
}

/* With an index: the zone's open calls and what it could not follow, for
 * the index to decide (its remark is the index's to make). */
static void keep_zone(zone_ctx *zc, hl_szone *open) {
  if ((!open->ncalls && !zc->unseen.n) || hl_ctx_loc(zc->ctx, clang_getCursorLocation(zc->zone->def), &open->at)) {
    hl_szone_free(open);
    return;
  }
  open->rule = hl_xstrdup(zc->rule);
  open->name = hl_xstrdup(zc->name);
  open->why = hl_xstrdup(zc->zone->why);
  open->unseen = zc->unseen;
  zc->unseen = (hl_strv){0};
  hl_summary *S = zc->Z->summary;
  HL_PUSH(S->zones, S->nzones, S->capzones, *open);
}

/* Whether other units may call f by name: an external function that is
 * not inline (an inline one is seen where it is called), or any virtual
 * method (its callers may see only the base class). */
static int exported(const zfn *f) {
  enum CXCursorKind k = clang_getCursorKind(f->def);
  if (k != CXCursor_FunctionDecl && k != CXCursor_CXXMethod && k != CXCursor_Constructor && k != CXCursor_Destructor &&
      k != CXCursor_ConversionFunction)
    return 0;
  if (clang_getCursorLinkage(f->def) != CXLinkage_External) return 0;
  return !clang_Cursor_isFunctionInlined(f->def) || (k == CXCursor_CXXMethod && clang_CXXMethod_isVirtual(f->def));
}

static void overrides(hl_summary *S, const zfn *f, const char *usr) {
  if (clang_getCursorKind(f->def) != CXCursor_CXXMethod) return;
  CXCursor *ov = NULL;
  unsigned n = 0;
  clang_getOverriddenCursors(f->def, &ov, &n);
  for (unsigned k = 0; k < n; k++) {
    char *o = hl_cxstring_take(clang_getCursorUSR(clang_getCanonicalCursor(ov[k])));
    if (*o) {
      hl_strv_add(&S->overrides, usr);
      hl_strv_add(&S->overridden, o);
    }
    free(o);
  }
  if (ov) clang_disposeOverriddenCursors(ov);
}

/* Function i's reach in the unit, for the index: its first allocation with
 * the chain of calls, else where it leaves the unit. */
static void summarize(hl_ctx *ctx, hl_zones *Z, const char *rule, size_t i) {
  const zfn *f = &Z->fns[i];
  hl_sfn s = {0};
  s.usr = hl_cxstring_take(clang_getCursorUSR(f->decl));
  if (!*s.usr || hl_ctx_loc(ctx, clang_getCursorLocation(f->def), &s.loc)) {
    free(s.usr);
    return;
  }
  s.name = fn_name(ctx, f);
  zone_ctx zc = {ctx, Z, rule, NULL, NULL, {0}, &s.exits, NULL};
  reach r = search(&zc, (int)i);
  if (r.fn >= 0) {
    const hl_allocation *other = r.other ? verdict(ctx, r.other) : NULL;
    int placed = other ? (s.alloc_at = hl_loc_copy(&other->loc), 1)
                       : !hl_ctx_loc(ctx, clang_getCursorLocation(Z->exprs[r.expr].c), &s.alloc_at);
    if (placed) {
      s.allocates = 1;
      s.alloc_what = hl_xstrdup(other ? other->what : Z->exprs[r.expr].what);
      hl_sexits_free(&s.exits);
      path_to(&zc, r.fn, &s.chain);
    }
  }
  s.unseen = zc.unseen;
  overrides(Z->summary, f, s.usr);
  HL_PUSH(Z->summary->fns, Z->summary->nfns, Z->summary->capfns, s);
}

void hl_zones_report(hl_zones *Z, hl_ctx *ctx, const char *rule) {
  Z->summary = hl_ctx_summary(ctx);
  if (!Z->nzones && !Z->summary) return;
  index_all(ctx, Z, rule);
  for (size_t i = 0; i < Z->nfns; i++) {
    if (!Z->fns[i].why) continue;
    hl_szone open = {0};
    zone_ctx zc = {ctx, Z, rule, &Z->fns[i], fn_name(ctx, &Z->fns[i]), {0}, NULL, Z->summary ? &open : NULL};
    zone_sites(&zc);
    if (Z->summary)
      keep_zone(&zc, &open);
    else
      unseen_remark(&zc);
    free(zc.name);
    hl_strv_free(&zc.unseen);
  }
  for (size_t i = 0; Z->summary && i < Z->nfns; i++)
    if (exported(&Z->fns[i])) summarize(ctx, Z, rule, i);
}
