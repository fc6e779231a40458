#include "engine/summary.h"

#include <stdlib.h>

#include "util/util.h"

void hl_spath_add(hl_spath *p, const char *caller, const char *callee, const hl_loc *at) {
  hl_shop h = {hl_xstrdup(caller), hl_xstrdup(callee), hl_loc_copy(at)};
  HL_PUSH(p->v, p->n, p->cap, h);
}

void hl_spath_append(hl_spath *p, const hl_spath *tail) {
  for (size_t i = 0; i < tail->n; i++) hl_spath_add(p, tail->v[i].caller, tail->v[i].callee, &tail->v[i].at);
}

void hl_spath_free(hl_spath *p) {
  for (size_t i = 0; i < p->n; i++) {
    free(p->v[i].caller);
    free(p->v[i].callee);
    hl_loc_free(&p->v[i].at);
  }
  free(p->v);
  *p = (hl_spath){0};
}

void hl_sexit_free(hl_sexit *e) {
  free(e->usr);
  free(e->name);
  hl_spath_free(&e->path);
  hl_loc_free(&e->at);
}

void hl_sexits_free(hl_sexits *x) {
  for (size_t i = 0; i < x->n; i++) hl_sexit_free(&x->v[i]);
  free(x->v);
  *x = (hl_sexits){0};
}

void hl_sfn_free(hl_sfn *f) {
  free(f->usr);
  free(f->name);
  hl_loc_free(&f->loc);
  hl_spath_free(&f->chain);
  hl_loc_free(&f->alloc_at);
  free(f->alloc_what);
  hl_sexits_free(&f->exits);
  hl_strv_free(&f->unseen);
}

void hl_szone_free(hl_szone *z) {
  free(z->rule);
  free(z->name);
  free(z->why);
  hl_loc_free(&z->at);
  for (size_t i = 0; i < z->ncalls; i++) {
    hl_loc_free(&z->calls[i].at);
    free(z->calls[i].callee);
    hl_sexits_free(&z->calls[i].exits);
  }
  free(z->calls);
  hl_strv_free(&z->unseen);
}

void hl_sapi_free(hl_sapi *a) {
  free(a->usr);
  free(a->api);
  free(a->type);
  free(a->wrapper);
  free(a->replacement);
  free(a->rule);
  hl_loc_free(&a->at);
}

void hl_salias_free(hl_salias *a) {
  free(a->usr);
  free(a->key);
  free(a->into);
  free(a->onto);
  free(a->name);
  free(a->wrapper);
  free(a->replacement);
  free(a->header);
  free(a->written);
  hl_loc_free(&a->at);
  hl_edit_free(&a->type);
  hl_edit_free(&a->include);
  for (size_t i = 0; i < a->nextra; i++) hl_edit_free(&a->extra[i]);
  free(a->extra);
  free(a->blocked);
}

void hl_svalue_free(hl_svalue *v) {
  free(v->wrapper);
  hl_loc_free(&v->at);
  hl_loc_free(&v->store);
  for (size_t i = 0; i < v->nfixes; i++) hl_edit_free(&v->fixes[i]);
  free(v->fixes);
}

void hl_sspelling_free(hl_sspelling *p) {
  free(p->wrapper);
  hl_loc_free(&p->at);
}

void hl_sflow_free(hl_sflow *f) {
  free(f->from);
  free(f->to);
  hl_loc_free(&f->at);
}

void hl_scopy_free(hl_scopy *c) {
  free(c->slot);
  free(c->wrapper);
  free(c->what);
  hl_loc_free(&c->at);
}

void hl_alias_views_free(hl_alias_view *v, size_t n) {
  for (size_t i = 0; i < n; i++) {
    hl_salias_free(&v[i].alias);
    hl_loc_free(&v[i].unknown_at);
    hl_loc_free(&v[i].throws_at);
    hl_loc_free(&v[i].spelled_at);
    free(v[i].blocked);
    for (size_t k = 0; k < v[i].nsites; k++) hl_loc_free(&v[i].sites[k]);
    for (size_t k = 0; k < v[i].nfixes; k++) hl_edit_free(&v[i].fixes[k]);
    for (size_t k = 0; k < v[i].nextra; k++) hl_edit_free(&v[i].extra[k]);
    free(v[i].extra);
    for (size_t k = 0; k < v[i].nincs; k++) hl_edit_free(&v[i].incs[k]);
    free(v[i].incs);
    free(v[i].fixes);
    free(v[i].sites);
  }
  free(v);
}

void hl_summary_free(hl_summary *s) {
  if (!s) return;
  for (size_t i = 0; i < s->naliases; i++) hl_salias_free(&s->aliases[i]);
  free(s->aliases);
  for (size_t i = 0; i < s->nvalues; i++) hl_svalue_free(&s->values[i]);
  free(s->values);
  for (size_t i = 0; i < s->nspellings; i++) hl_sspelling_free(&s->spellings[i]);
  free(s->spellings);
  for (size_t i = 0; i < s->nflows; i++) hl_sflow_free(&s->flows[i]);
  free(s->flows);
  for (size_t i = 0; i < s->ncopies; i++) hl_scopy_free(&s->copies[i]);
  free(s->copies);
  for (size_t i = 0; i < s->napis; i++) hl_sapi_free(&s->apis[i]);
  free(s->apis);
  for (size_t i = 0; i < s->nfns; i++) hl_sfn_free(&s->fns[i]);
  for (size_t i = 0; i < s->nzones; i++) hl_szone_free(&s->zones[i]);
  free(s->fns);
  free(s->zones);
  hl_strv_free(&s->overrides);
  hl_strv_free(&s->overridden);
  free(s);
}

char *hl_slot_member(const char *member_usr) { return hl_xasprintf("member %s", member_usr); }

char *hl_slot_param_usr(const char *fn_usr, int index) { return hl_xasprintf("%s#%d", fn_usr, index); }

char *hl_slot_param(const char *fn_usr, int index) { return hl_xasprintf("param %s#%d", fn_usr, index); }

char *hl_slot_return(const char *fn_usr) { return hl_xasprintf("return %s", fn_usr); }
