#include "index/serial.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/util.h"

static char *dump(json_t *j);
static json_t *load(const char *text, size_t len, char **err);

/* ---- out ---- */

/* Text as a JSON string, or {"hex": ...} when it is not UTF-8 (a path may
 * be any bytes; jansson takes only UTF-8): read back exactly. */
static json_t *jtext(const char *s) {
  if (hl_utf8_is_valid(s)) return json_string(s);
  hl_sb b = {0};
  for (const unsigned char *p = (const unsigned char *)s; *p; p++) hl_sb_printf(&b, "%02x", *p);
  json_t *j = json_pack("{s:s}", "hex", hl_sb_str(&b));
  hl_sb_free(&b);
  return j;
}

static json_t *loc_out(const hl_loc *l) {
  return json_pack("[o,I,I,I]", jtext(l->file ? l->file : ""), (json_int_t)l->line, (json_int_t)l->col,
                   (json_int_t)l->offset);
}

static json_t *strv_out(const hl_strv *v) {
  json_t *a = json_array();
  for (size_t i = 0; i < v->n; i++) json_array_append_new(a, jtext(v->v[i]));
  return a;
}

static json_t *path_out(const hl_spath *p) {
  json_t *a = json_array();
  for (size_t i = 0; i < p->n; i++)
    json_array_append_new(a, json_pack("[o,o,o]", jtext(p->v[i].caller), jtext(p->v[i].callee), loc_out(&p->v[i].at)));
  return a;
}

static json_t *exits_out(const hl_sexits *x) {
  json_t *a = json_array();
  for (size_t i = 0; i < x->n; i++) {
    const hl_sexit *e = &x->v[i];
    json_array_append_new(a, json_pack("{s:o,s:o,s:b,s:o,s:o}", "usr", jtext(e->usr), "name", jtext(e->name), "dynamic",
                                       e->dynamic, "at", loc_out(&e->at), "path", path_out(&e->path)));
  }
  return a;
}

static json_t *fn_out(const hl_sfn *f) {
  json_t *o = json_pack("{s:o,s:o,s:o,s:o,s:o}", "usr", jtext(f->usr), "name", jtext(f->name), "loc", loc_out(&f->loc),
                        "exits", exits_out(&f->exits), "unseen", strv_out(&f->unseen));
  if (f->allocates)
    json_object_set_new(o, "allocates",
                        json_pack("{s:o,s:o,s:o}", "chain", path_out(&f->chain), "at", loc_out(&f->alloc_at), "what",
                                  jtext(f->alloc_what)));
  return o;
}

static json_t *zone_out(const hl_szone *z) {
  json_t *calls = json_array();
  for (size_t i = 0; i < z->ncalls; i++) {
    const hl_szcall *c = &z->calls[i];
    json_array_append_new(calls,
                          json_pack("{s:o,s:[I,I],s:o,s:o}", "at", loc_out(&c->at), "end", (json_int_t)c->end_line,
                                    (json_int_t)c->end_col, "callee", jtext(c->callee), "exits", exits_out(&c->exits)));
  }
  return json_pack("{s:o,s:o,s:o,s:o,s:o,s:o}", "rule", jtext(z->rule), "name", jtext(z->name), "why", jtext(z->why),
                   "at", loc_out(&z->at), "calls", calls, "unseen", strv_out(&z->unseen));
}

static json_t *api_out(const hl_sapi *a) {
  return json_pack("{s:o,s:I,s:o,s:o,s:o,s:o,s:o,s:o,s:[I,I,I]}", "usr", jtext(a->usr), "param", (json_int_t)a->param,
                   "api", jtext(a->api), "type", jtext(a->type), "wrapper", jtext(a->wrapper), "replacement",
                   jtext(a->replacement), "rule", jtext(a->rule), "at", loc_out(&a->at), "layout", (json_int_t)a->size,
                   (json_int_t)a->align, (json_int_t)a->capacity);
}

/* An edit with its text (null when it has none yet); null when no file. */
static json_t *edit_out(const hl_edit *e) {
  if (!e->file) return json_null();
  char hash[17];
  snprintf(hash, sizeof hash, "%016llx", e->file_hash);
  return json_pack("{s:o,s:[I,I,I,I],s:s,s:o}", "file", jtext(e->file), "range", (json_int_t)e->offset,
                   (json_int_t)e->length, (json_int_t)e->line, (json_int_t)e->col, "hash", hash, "text",
                   e->text ? jtext(e->text) : json_null());
}

static json_t *edits_out(const hl_edit *e, size_t n) {
  json_t *a = json_array();
  for (size_t i = 0; i < n; i++) json_array_append_new(a, edit_out(&e[i]));
  return a;
}

static json_t *alias_out(const hl_salias *a) {
  json_t *j = json_pack("{s:o,s:b,s:o,s:o,s:o,s:o,s:o,s:o,s:o,s:o,s:o,s:o}", "usr", jtext(a->usr), "member", a->member,
                        "key", jtext(a->key), "name", jtext(a->name), "wrapper", jtext(a->wrapper), "replacement",
                        jtext(a->replacement), "header", jtext(a->header), "written",
                        jtext(a->written ? a->written : ""), "at", loc_out(&a->at), "type", edit_out(&a->type),
                        "include", edit_out(&a->include), "blocked", a->blocked ? jtext(a->blocked) : json_null());
  json_object_set_new(j, "extra", edits_out(a->extra, a->nextra));
  json_object_set_new(j, "param", json_integer(a->param));
  if (a->into) json_object_set_new(j, "into", jtext(a->into));
  if (a->onto) json_object_set_new(j, "onto", jtext(a->onto));
  return j;
}

char *hl_sedits_json(const hl_edit *e, size_t n) { return dump(edits_out(e, n)); }

static json_t *value_out(const hl_svalue *v) {
  json_t *j = json_pack("{s:o,s:o,s:o,s:[b,b,b,b],s:[I,I]}", "wrapper", jtext(v->wrapper), "at", loc_out(&v->at),
                        "store", loc_out(&v->store), "judged", v->known, v->allocates, v->move_throws, v->dependent,
                        "layout", (json_int_t)v->size, (json_int_t)v->align);
  if (v->move_fixed) json_object_set_new(j, "fixes", edits_out(v->fixes, v->nfixes));
  return j;
}

static json_t *spelling_out(const hl_sspelling *p) {
  return json_pack("{s:o,s:o}", "wrapper", jtext(p->wrapper), "at", loc_out(&p->at));
}

static json_t *flow_out(const hl_sflow *f) {
  return json_pack("{s:o,s:o,s:o}", "from", f->from ? jtext(f->from) : json_null(), "to", jtext(f->to), "at",
                   loc_out(&f->at));
}

static json_t *copy_out(const hl_scopy *c) {
  return json_pack("{s:o,s:o,s:o,s:o}", "slot", jtext(c->slot), "wrapper", jtext(c->wrapper), "what", jtext(c->what),
                   "at", loc_out(&c->at));
}

static char *dump(json_t *j) {
  char *t = json_dumps(j, JSON_COMPACT | JSON_ENSURE_ASCII);
  json_decref(j);
  if (!t) { /* jansson fails only out of memory */
    fputs("heaplint: fatal: out of memory (writing a summary)\n", stderr);
    abort();
  }
  return t;
}

char *hl_sfn_json(const hl_sfn *f) { return dump(fn_out(f)); }

char *hl_szones_json(const hl_szone *z, size_t n) {
  json_t *a = json_array();
  for (size_t i = 0; i < n; i++) json_array_append_new(a, zone_out(&z[i]));
  return dump(a);
}

char *hl_salias_json(const hl_salias *a) { return dump(alias_out(a)); }

char *hl_summary_json(const hl_summary *s) {
  json_t *fns = json_array(), *zones = json_array(), *ov = json_array(), *apis = json_array();
  json_t *aliases = json_array(), *values = json_array(), *spellings = json_array();
  json_t *flows = json_array(), *copies = json_array();
  for (size_t i = 0; i < s->nflows; i++) json_array_append_new(flows, flow_out(&s->flows[i]));
  for (size_t i = 0; i < s->ncopies; i++) json_array_append_new(copies, copy_out(&s->copies[i]));
  for (size_t i = 0; i < s->naliases; i++) json_array_append_new(aliases, alias_out(&s->aliases[i]));
  for (size_t i = 0; i < s->nvalues; i++) json_array_append_new(values, value_out(&s->values[i]));
  for (size_t i = 0; i < s->nspellings; i++) json_array_append_new(spellings, spelling_out(&s->spellings[i]));
  for (size_t i = 0; i < s->napis; i++) json_array_append_new(apis, api_out(&s->apis[i]));
  for (size_t i = 0; i < s->nfns; i++) json_array_append_new(fns, fn_out(&s->fns[i]));
  for (size_t i = 0; i < s->nzones; i++) json_array_append_new(zones, zone_out(&s->zones[i]));
  for (size_t i = 0; i < s->overrides.n; i++)
    json_array_append_new(ov, json_pack("[o,o]", jtext(s->overrides.v[i]), jtext(s->overridden.v[i])));
  return dump(json_pack("{s:o,s:o,s:o,s:o,s:o,s:o,s:o,s:o,s:o}", "functions", fns, "zones", zones, "overrides", ov,
                        "apis", apis, "aliases", aliases, "values", values, "spellings", spellings, "flows", flows,
                        "copies", copies));
}

/* ---- in: each returns 0, or -1 when j is not what it should be ---- */

static int hex_digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  return -1;
}

/* What jtext wrote. */
static int text_in(const json_t *j, char **out) {
  *out = NULL;
  if (json_is_string(j)) {
    *out = hl_xstrdup(json_string_value(j));
    return 0;
  }
  const char *hex = json_string_value(json_object_get(j, "hex"));
  size_t n = hex ? strlen(hex) : 1;
  if (n % 2) return -1;
  char *t = hl_xmalloc(n / 2 + 1);
  for (size_t i = 0; i < n / 2; i++) {
    int hi = hex_digit(hex[2 * i]), lo = hex_digit(hex[2 * i + 1]);
    if (hi < 0 || lo < 0 || (hi == 0 && lo == 0)) {
      free(t);
      return -1;
    }
    t[i] = (char)(hi * 16 + lo);
  }
  t[n / 2] = '\0';
  *out = t;
  return 0;
}

static int uint_in(const json_t *j, unsigned *out) {
  if (!json_is_integer(j) || json_integer_value(j) < 0 || json_integer_value(j) > (json_int_t)0xffffffffu) return -1;
  *out = (unsigned)json_integer_value(j);
  return 0;
}

static int loc_in(const json_t *j, hl_loc *l) {
  *l = (hl_loc){0};
  if (!json_is_array(j) || json_array_size(j) != 4 || text_in(json_array_get(j, 0), &l->file)) return -1;
  return uint_in(json_array_get(j, 1), &l->line) || uint_in(json_array_get(j, 2), &l->col) ||
                 uint_in(json_array_get(j, 3), &l->offset)
             ? -1
             : 0;
}

static int strv_in(const json_t *j, hl_strv *v) {
  size_t i;
  json_t *x;
  if (!json_is_array(j)) return -1;
  json_array_foreach(j, i, x) {
    char *t;
    if (text_in(x, &t)) return -1;
    hl_strv_add(v, t);
    free(t);
  }
  return 0;
}

static int path_in(const json_t *j, hl_spath *p) {
  size_t i;
  json_t *x;
  if (!json_is_array(j)) return -1;
  json_array_foreach(j, i, x) {
    char *caller = NULL, *callee = NULL;
    hl_loc l = {0};
    int bad = !json_is_array(x) || json_array_size(x) != 3 || text_in(json_array_get(x, 0), &caller) ||
              text_in(json_array_get(x, 1), &callee) || loc_in(json_array_get(x, 2), &l);
    if (!bad) hl_spath_add(p, caller, callee, &l);
    free(caller);
    free(callee);
    hl_loc_free(&l);
    if (bad) return -1;
  }
  return 0;
}

static int exits_in(const json_t *j, hl_sexits *x) {
  size_t i;
  json_t *e;
  if (!json_is_array(j)) return -1;
  json_array_foreach(j, i, e) {
    hl_sexit v = {0};
    int ok = !text_in(json_object_get(e, "usr"), &v.usr) && !text_in(json_object_get(e, "name"), &v.name) &&
             json_is_boolean(json_object_get(e, "dynamic")) && !loc_in(json_object_get(e, "at"), &v.at) &&
             !path_in(json_object_get(e, "path"), &v.path);
    v.dynamic = json_is_true(json_object_get(e, "dynamic"));
    HL_PUSH(x->v, x->n, x->cap, v);
    if (!ok) return -1;
  }
  return 0;
}

static int fn_in(const json_t *j, hl_sfn *f) {
  *f = (hl_sfn){0};
  if (text_in(json_object_get(j, "usr"), &f->usr) || text_in(json_object_get(j, "name"), &f->name) ||
      loc_in(json_object_get(j, "loc"), &f->loc) || exits_in(json_object_get(j, "exits"), &f->exits) ||
      strv_in(json_object_get(j, "unseen"), &f->unseen))
    return -1;
  const json_t *a = json_object_get(j, "allocates");
  if (!a) return 0;
  f->allocates = 1;
  return path_in(json_object_get(a, "chain"), &f->chain) || loc_in(json_object_get(a, "at"), &f->alloc_at) ||
                 text_in(json_object_get(a, "what"), &f->alloc_what)
             ? -1
             : 0;
}

static int call_in(const json_t *j, hl_szcall *c) {
  *c = (hl_szcall){0};
  const json_t *end = json_object_get(j, "end");
  return loc_in(json_object_get(j, "at"), &c->at) || !json_is_array(end) || json_array_size(end) != 2 ||
                 uint_in(json_array_get(end, 0), &c->end_line) || uint_in(json_array_get(end, 1), &c->end_col) ||
                 text_in(json_object_get(j, "callee"), &c->callee) || exits_in(json_object_get(j, "exits"), &c->exits)
             ? -1
             : 0;
}

static int zone_in(const json_t *j, hl_szone *z) {
  *z = (hl_szone){0};
  const json_t *calls = json_object_get(j, "calls");
  if (text_in(json_object_get(j, "rule"), &z->rule) || text_in(json_object_get(j, "name"), &z->name) ||
      text_in(json_object_get(j, "why"), &z->why) || loc_in(json_object_get(j, "at"), &z->at) ||
      strv_in(json_object_get(j, "unseen"), &z->unseen) || !json_is_array(calls))
    return -1;
  size_t i;
  json_t *x;
  json_array_foreach(calls, i, x) {
    hl_szcall c;
    int bad = call_in(x, &c);
    HL_PUSH(z->calls, z->ncalls, z->capcalls, c);
    if (bad) return -1;
  }
  return 0;
}

/* A layout or index field: 0 or more, at most a few gigabytes. */
static int long_in(const json_t *j, long *out) {
  if (!json_is_integer(j) || json_integer_value(j) < 0 || json_integer_value(j) > (json_int_t)0xffffffffu) return -1;
  *out = (long)json_integer_value(j);
  return 0;
}

static int api_in(const json_t *j, hl_sapi *a) {
  *a = (hl_sapi){0};
  const json_t *layout = json_object_get(j, "layout");
  long param = 0;
  int bad = text_in(json_object_get(j, "usr"), &a->usr) || long_in(json_object_get(j, "param"), &param) ||
            text_in(json_object_get(j, "api"), &a->api) || text_in(json_object_get(j, "type"), &a->type) ||
            text_in(json_object_get(j, "wrapper"), &a->wrapper) ||
            text_in(json_object_get(j, "replacement"), &a->replacement) ||
            text_in(json_object_get(j, "rule"), &a->rule) || loc_in(json_object_get(j, "at"), &a->at) ||
            !json_is_array(layout) || json_array_size(layout) != 3 || long_in(json_array_get(layout, 0), &a->size) ||
            long_in(json_array_get(layout, 1), &a->align) || long_in(json_array_get(layout, 2), &a->capacity) ||
            param > 65535;
  a->param = (int)param;
  return bad ? -1 : 0;
}

static int edit_in(const json_t *j, hl_edit *e) {
  *e = (hl_edit){0};
  if (json_is_null(j)) return 0;
  const json_t *r = json_object_get(j, "range"), *t = json_object_get(j, "text");
  const char *hash = json_string_value(json_object_get(j, "hash"));
  char *end = NULL;
  if (text_in(json_object_get(j, "file"), &e->file) || !json_is_array(r) || json_array_size(r) != 4 ||
      uint_in(json_array_get(r, 0), &e->offset) || uint_in(json_array_get(r, 1), &e->length) ||
      uint_in(json_array_get(r, 2), &e->line) || uint_in(json_array_get(r, 3), &e->col) || !hash ||
      strlen(hash) != 16 || (!json_is_null(t) && text_in(t, &e->text)))
    return -1;
  e->file_hash = strtoull(hash, &end, 16);
  return *end ? -1 : 0;
}

static int edits_in(const json_t *j, hl_edit **v, size_t *n, size_t *cap) {
  size_t i;
  json_t *x;
  if (!json_is_array(j)) return -1;
  json_array_foreach(j, i, x) {
    hl_edit e;
    int bad = edit_in(x, &e) || !e.file || !e.text;
    HL_PUSH(*v, *n, *cap, e);
    if (bad) return -1;
  }
  return 0;
}

int hl_sedits_parse(const char *text, size_t len, hl_edit **out, size_t *n, char **err) {
  json_t *j = load(text, len, err);
  if (!j) return -1;
  size_t cap = 0;
  *out = NULL;
  *n = 0;
  int bad = edits_in(j, out, n, &cap);
  json_decref(j);
  if (bad) *err = hl_xstrdup("not a list of edits");
  return bad ? -1 : 0;
}

static int opt_text_in(const json_t *j, char **out) {
  *out = NULL;
  return json_is_null(j) ? 0 : text_in(j, out);
}

static int alias_in(const json_t *j, hl_salias *a) {
  *a = (hl_salias){0};
  a->member = json_is_true(json_object_get(j, "member"));
  json_int_t param = json_integer_value(json_object_get(j, "param"));
  if (!json_is_integer(json_object_get(j, "param")) || param < 0 || param > 2) return -1;
  a->param = (int)param;
  return text_in(json_object_get(j, "usr"), &a->usr) || !json_is_boolean(json_object_get(j, "member")) ||
                 text_in(json_object_get(j, "key"), &a->key) || text_in(json_object_get(j, "name"), &a->name) ||
                 text_in(json_object_get(j, "wrapper"), &a->wrapper) ||
                 text_in(json_object_get(j, "replacement"), &a->replacement) ||
                 text_in(json_object_get(j, "header"), &a->header) ||
                 text_in(json_object_get(j, "written"), &a->written) || loc_in(json_object_get(j, "at"), &a->at) ||
                 edit_in(json_object_get(j, "type"), &a->type) || edit_in(json_object_get(j, "include"), &a->include) ||
                 opt_text_in(json_object_get(j, "blocked"), &a->blocked) ||
                 (json_object_get(j, "into") && text_in(json_object_get(j, "into"), &a->into)) ||
                 (json_object_get(j, "onto") && text_in(json_object_get(j, "onto"), &a->onto)) ||
                 edits_in(json_object_get(j, "extra"), &a->extra, &a->nextra, &a->capextra)
             ? -1
             : 0;
}

static int value_in(const json_t *j, hl_svalue *v) {
  *v = (hl_svalue){0};
  const json_t *judged = json_object_get(j, "judged"), *layout = json_object_get(j, "layout");
  if (text_in(json_object_get(j, "wrapper"), &v->wrapper) || loc_in(json_object_get(j, "at"), &v->at) ||
      loc_in(json_object_get(j, "store"), &v->store) || !json_is_array(judged) || json_array_size(judged) != 4 ||
      !json_is_boolean(json_array_get(judged, 0)) || !json_is_boolean(json_array_get(judged, 1)) ||
      !json_is_boolean(json_array_get(judged, 2)) || !json_is_boolean(json_array_get(judged, 3)) ||
      !json_is_array(layout) || json_array_size(layout) != 2 || long_in(json_array_get(layout, 0), &v->size) ||
      long_in(json_array_get(layout, 1), &v->align))
    return -1;
  v->known = json_is_true(json_array_get(judged, 0));
  v->allocates = json_is_true(json_array_get(judged, 1));
  v->move_throws = json_is_true(json_array_get(judged, 2));
  v->dependent = json_is_true(json_array_get(judged, 3));
  const json_t *fixes = json_object_get(j, "fixes");
  if (fixes && edits_in(fixes, &v->fixes, &v->nfixes, &v->capfixes)) return -1;
  v->move_fixed = fixes != NULL;
  return 0;
}

static int spelling_in(const json_t *j, hl_sspelling *p) {
  *p = (hl_sspelling){0};
  return text_in(json_object_get(j, "wrapper"), &p->wrapper) || loc_in(json_object_get(j, "at"), &p->at) ? -1 : 0;
}

static int flow_in(const json_t *j, hl_sflow *f) {
  *f = (hl_sflow){0};
  const json_t *from = json_object_get(j, "from");
  return (!json_is_null(from) && text_in(from, &f->from)) || text_in(json_object_get(j, "to"), &f->to) ||
                 loc_in(json_object_get(j, "at"), &f->at)
             ? -1
             : 0;
}

static int copy_in(const json_t *j, hl_scopy *c) {
  *c = (hl_scopy){0};
  return text_in(json_object_get(j, "slot"), &c->slot) || text_in(json_object_get(j, "wrapper"), &c->wrapper) ||
                 text_in(json_object_get(j, "what"), &c->what) || loc_in(json_object_get(j, "at"), &c->at)
             ? -1
             : 0;
}

/* Each element of array j read by in into a new element of *v. */
#define READ_ALL(j, T, in, v, n, cap) \
  do {                                \
    size_t i_;                        \
    json_t *x_;                       \
    json_array_foreach((j), i_, x_) { \
      T e_;                           \
      int bad_ = in(x_, &e_);         \
      HL_PUSH((v), (n), (cap), e_);   \
      if (bad_) return -1;            \
    }                                 \
  } while (0)

static int summary_in(const json_t *j, hl_summary *s) {
  const json_t *aliases = json_object_get(j, "aliases"), *values = json_object_get(j, "values"),
               *spellings = json_object_get(j, "spellings");
  if (!json_is_array(aliases) || !json_is_array(values) || !json_is_array(spellings)) return -1;
  READ_ALL(aliases, hl_salias, alias_in, s->aliases, s->naliases, s->capaliases);
  READ_ALL(values, hl_svalue, value_in, s->values, s->nvalues, s->capvalues);
  READ_ALL(spellings, hl_sspelling, spelling_in, s->spellings, s->nspellings, s->capspellings);
  const json_t *flows = json_object_get(j, "flows"), *copies = json_object_get(j, "copies");
  if (!json_is_array(flows) || !json_is_array(copies)) return -1;
  READ_ALL(flows, hl_sflow, flow_in, s->flows, s->nflows, s->capflows);
  READ_ALL(copies, hl_scopy, copy_in, s->copies, s->ncopies, s->capcopies);
  const json_t *fns = json_object_get(j, "functions"), *zones = json_object_get(j, "zones"),
               *ov = json_object_get(j, "overrides"), *apis = json_object_get(j, "apis");
  if (!json_is_array(fns) || !json_is_array(zones) || !json_is_array(ov) || !json_is_array(apis)) return -1;
  size_t i;
  json_t *x;
  json_array_foreach(apis, i, x) {
    hl_sapi a;
    int bad = api_in(x, &a);
    HL_PUSH(s->apis, s->napis, s->capapis, a);
    if (bad) return -1;
  }
  json_array_foreach(fns, i, x) {
    hl_sfn f;
    int bad = fn_in(x, &f);
    HL_PUSH(s->fns, s->nfns, s->capfns, f);
    if (bad) return -1;
  }
  json_array_foreach(zones, i, x) {
    hl_szone z;
    int bad = zone_in(x, &z);
    HL_PUSH(s->zones, s->nzones, s->capzones, z);
    if (bad) return -1;
  }
  json_array_foreach(ov, i, x) {
    char *a = NULL, *b = NULL;
    int bad = !json_is_array(x) || json_array_size(x) != 2 || text_in(json_array_get(x, 0), &a) ||
              text_in(json_array_get(x, 1), &b);
    if (!bad) {
      hl_strv_add(&s->overrides, a);
      hl_strv_add(&s->overridden, b);
    }
    free(a);
    free(b);
    if (bad) return -1;
  }
  return 0;
}

static json_t *load(const char *text, size_t len, char **err) {
  json_error_t e;
  json_t *j = json_loadb(text, len, JSON_REJECT_DUPLICATES, &e);
  if (!j) *err = hl_xasprintf("not JSON (%s, at byte %d)", e.text, e.position);
  return j;
}

hl_summary *hl_summary_parse(const char *text, size_t len, char **err) {
  json_t *j = load(text, len, err);
  if (!j) return NULL;
  hl_summary *s = hl_xcalloc(1, sizeof *s);
  if (summary_in(j, s)) {
    hl_summary_free(s);
    s = NULL;
    *err = hl_xstrdup("not a unit's summary");
  }
  json_decref(j);
  return s;
}

int hl_sfn_parse(const char *text, size_t len, hl_sfn *out, char **err) {
  json_t *j = load(text, len, err);
  if (!j) return -1;
  int bad = fn_in(j, out);
  json_decref(j);
  if (bad) {
    hl_sfn_free(out);
    *out = (hl_sfn){0};
    *err = hl_xstrdup("not a function's summary");
  }
  return bad ? -1 : 0;
}

int hl_salias_parse(const char *text, size_t len, hl_salias *out, char **err) {
  json_t *j = load(text, len, err);
  if (!j) return -1;
  int bad = alias_in(j, out);
  json_decref(j);
  if (bad) {
    hl_salias_free(out);
    *out = (hl_salias){0};
    *err = hl_xstrdup("not a wrapper alias's summary");
  }
  return bad ? -1 : 0;
}

hl_summary *hl_szones_parse(const char *text, size_t len, char **err) {
  json_t *j = load(text, len, err);
  if (!j) return NULL;
  hl_summary *s = hl_xcalloc(1, sizeof *s);
  size_t i;
  json_t *x;
  int bad = !json_is_array(j);
  json_array_foreach(j, i, x) {
    hl_szone z;
    bad |= zone_in(x, &z);
    HL_PUSH(s->zones, s->nzones, s->capzones, z);
    if (bad) break;
  }
  json_decref(j);
  if (bad) {
    hl_summary_free(s);
    *err = hl_xstrdup("not a unit's zones");
    return NULL;
  }
  return s;
}
