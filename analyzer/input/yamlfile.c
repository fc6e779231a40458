#include "input/yamlfile.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/hindex.h"
#include "util/util.h"

/* What a YAML file may make heaplint do, whatever it holds: libyaml's
 * scanner takes time that grows with the square of the nesting (25 s at a
 * depth of 100000), its parser with the square of the %TAG directives, its
 * loader with the square of the anchors; and aliases let a small file
 * stand for a huge tree. docs/config.md states these bounds. */
#define MAX_DEPTH 64
#define MAX_TAG_DIRECTIVES 64

static char *error_at(const char *name, const yaml_mark_t *m, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
static char *error_at(const char *name, const yaml_mark_t *m, const char *fmt, ...) {
  hl_sb b = {0};
  hl_sb_printf(&b, "%s:%zu:%zu: ", hl_display_path(name), m->line + 1, m->column + 1);
  va_list ap;
  va_start(ap, fmt);
  hl_sb_vprintf(&b, fmt, ap);
  va_end(ap);
  return hl_sb_take(&b);
}

static char *syntax_error(const char *name, const yaml_parser_t *parser) {
  const yaml_mark_t *m = parser->problem || !parser->context ? &parser->problem_mark : &parser->context_mark;
  return error_at(name, m, "YAML syntax error: %s%s%s", parser->problem ? parser->problem : "malformed document",
                  parser->context ? " " : "", parser->context ? parser->context : "");
}

static char *too_deep(const char *name, const yaml_mark_t *m) {
  return error_at(name, m, "more than %d nested lists and mappings, the most heaplint reads in a YAML file", MAX_DEPTH);
}

/* The nesting and the %TAG directives, counted on libyaml's tokens before
 * its parser sees them: it handles all the directives before the first
 * event. Stopping at MAX_DEPTH keeps the scanner's cost per token small. */
static int check_tokens(yaml_parser_t *parser, const char *name, char **err) {
  int depth = 0, directives = 0, rc = 1;
  while (rc > 0) {
    yaml_token_t t;
    if (!yaml_parser_scan(parser, &t)) {
      *err = syntax_error(name, parser);
      return -1;
    }
    switch (t.type) {
    case YAML_FLOW_SEQUENCE_START_TOKEN:
    case YAML_FLOW_MAPPING_START_TOKEN:
    case YAML_BLOCK_SEQUENCE_START_TOKEN:
    case YAML_BLOCK_MAPPING_START_TOKEN:
      if (++depth > MAX_DEPTH) *err = too_deep(name, &t.start_mark), rc = -1;
      break;
    case YAML_FLOW_SEQUENCE_END_TOKEN:
    case YAML_FLOW_MAPPING_END_TOKEN:
    case YAML_BLOCK_END_TOKEN: depth--; break;
    case YAML_TAG_DIRECTIVE_TOKEN:
      if (++directives > MAX_TAG_DIRECTIVES)
        *err = error_at(name, &t.start_mark, "more than %d %%TAG directives, the most heaplint reads in a YAML file",
                        MAX_TAG_DIRECTIVES),
        rc = -1;
      break;
    case YAML_STREAM_END_TOKEN: rc = 0; break;
    default: break;
    }
    yaml_token_delete(&t);
  }
  return rc;
}

/* ---- composing the document from libyaml's events ---- */

/* yaml_parser_load looks each alias up among all the anchors, and each
 * anchor among those before it; this composer uses a hash index, and
 * counts what aliases add: each stands for a copy of its node to whoever
 * reads the document. */
typedef struct open_node {
  int node;
  int key; /* a mapping's key waiting for its value, or 0 */
} open_node;

typedef struct node_info {
  size_t weight; /* its nodes and bytes of text, aliases expanded */
  int done;      /* complete, so that an alias may name it */
} node_info;

typedef struct composer {
  hl_yaml *y;
  size_t budget; /* what aliases may still add, in nodes and bytes of text */
  size_t max;
  const char *what;
  node_info *info; /* per node (index - 1) */
  size_t capinfo;
  open_node *stack;
  size_t depth, capstack;
  char **anchors; /* the anchors' names, and the node each names */
  int *anchored;
  size_t nanchors, capanchors, capanchored;
  hl_hindex anchor_ix;
  char **err;
} composer;

static void composer_free(composer *c) {
  free(c->info);
  free(c->stack);
  for (size_t i = 0; i < c->nanchors; i++) free(c->anchors[i]);
  free(c->anchors);
  free(c->anchored);
  hl_hindex_free(&c->anchor_ix);
}

/* Where the node an anchor names is kept (NULL: no such anchor, unless add). */
static int *anchor_slot(composer *c, const char *name, int add) {
  unsigned long long h = hl_hindex_hash(name, strlen(name));
  size_t cursor = 0, i;
  while (hl_hindex_next(&c->anchor_ix, h, &cursor, &i))
    if (!strcmp(c->anchors[i], name)) return &c->anchored[i];
  if (!add) return NULL;
  hl_hindex_add(&c->anchor_ix, h, c->nanchors);
  HL_PUSH(c->anchors, c->nanchors, c->capanchors, hl_xstrdup(name));
  hl_grow((void **)&c->anchored, &c->capanchored, c->nanchors, sizeof *c->anchored);
  return &c->anchored[c->nanchors - 1];
}

/* A new node (index, from yaml_document_add_*) at the event's marks. */
static int new_node(composer *c, int index, const yaml_event_t *ev, const yaml_char_t *anchor, size_t weight) {
  if (!index) {
    *c->err = hl_yaml_error(c->y, NULL, "cannot build the YAML document (out of memory)");
    return -1;
  }
  yaml_node_t *n = yaml_document_get_node(&c->y->doc, index);
  n->start_mark = ev->start_mark;
  n->end_mark = ev->end_mark;
  hl_grow((void **)&c->info, &c->capinfo, (size_t)index, sizeof *c->info);
  c->info[index - 1] = (node_info){weight, 0};
  /* A later anchor of the same name replaces an earlier one (YAML 1.2). */
  if (anchor) *anchor_slot(c, (const char *)anchor, 1) = index;
  return 0;
}

/* Puts node into the collection that is open, or leaves it the root. */
static int attach(composer *c, int node) {
  if (!c->depth) return 0;
  open_node *top = &c->stack[c->depth - 1];
  c->info[top->node - 1].weight += c->info[node - 1].weight;
  yaml_node_t *parent = yaml_document_get_node(&c->y->doc, top->node);
  int ok = 1;
  if (parent->type == YAML_SEQUENCE_NODE)
    ok = yaml_document_append_sequence_item(&c->y->doc, top->node, node);
  else if (!top->key)
    top->key = node;
  else
    ok = yaml_document_append_mapping_pair(&c->y->doc, top->node, top->key, node), top->key = 0;
  if (!ok) *c->err = hl_yaml_error(c->y, NULL, "cannot build the YAML document (out of memory)");
  return ok ? 0 : -1;
}

static int alias(composer *c, const yaml_event_t *ev) {
  const char *name = (const char *)ev->data.alias.anchor;
  int *slot = anchor_slot(c, name, 0);
  int node = slot ? *slot : 0;
  if (!node) {
    *c->err = error_at(c->y->path, &ev->start_mark, "alias '*%s' names no anchor before it", name);
    return -1;
  }
  if (!c->info[node - 1].done) {
    *c->err = error_at(c->y->path, &ev->start_mark, "alias '*%s' names a list or mapping that contains it", name);
    return -1;
  }
  if (c->info[node - 1].weight > c->budget) {
    char most[32];
    hl_size_text(most, sizeof most, c->max);
    *c->err = error_at(c->y->path, &ev->start_mark,
                       "its aliases expand this file past %s, the most heaplint reads of %s", most, c->what);
    return -1;
  }
  c->budget -= c->info[node - 1].weight;
  return attach(c, node);
}

/* Opens a list or mapping. */
static int open_collection(composer *c, const yaml_event_t *ev) {
  if (c->depth >= MAX_DEPTH) {
    *c->err = too_deep(c->y->path, &ev->start_mark);
    return -1;
  }
  int mapping = ev->type == YAML_MAPPING_START_EVENT;
  int index = mapping
                  ? yaml_document_add_mapping(&c->y->doc, ev->data.mapping_start.tag, ev->data.mapping_start.style)
                  : yaml_document_add_sequence(&c->y->doc, ev->data.sequence_start.tag, ev->data.sequence_start.style);
  if (new_node(c, index, ev, mapping ? ev->data.mapping_start.anchor : ev->data.sequence_start.anchor, 1)) return -1;
  HL_PUSH(c->stack, c->depth, c->capstack, ((open_node){index, 0}));
  return 0;
}

static int close_collection(composer *c, const yaml_event_t *ev) {
  int node = c->stack[--c->depth].node;
  yaml_document_get_node(&c->y->doc, node)->end_mark = ev->end_mark;
  c->info[node - 1].done = 1;
  return attach(c, node);
}

static int scalar(composer *c, const yaml_event_t *ev) {
  int index = yaml_document_add_scalar(&c->y->doc, ev->data.scalar.tag, ev->data.scalar.value,
                                       (int)ev->data.scalar.length, ev->data.scalar.style);
  if (new_node(c, index, ev, ev->data.scalar.anchor, 1 + ev->data.scalar.length)) return -1;
  c->info[index - 1].done = 1;
  return attach(c, index);
}

/* One event into the document. Returns 1 to go on, 0 at its end, -1. */
static int compose(composer *c, const yaml_event_t *ev) {
  switch (ev->type) {
  case YAML_DOCUMENT_START_EVENT:
    if (!yaml_document_initialize(&c->y->doc, NULL, NULL, NULL, ev->data.document_start.implicit, 1)) {
      *c->err = hl_yaml_error(c->y, NULL, "cannot build the YAML document (out of memory)");
      return -1;
    }
    c->y->loaded = 1;
    return 1;
  case YAML_SCALAR_EVENT: return scalar(c, ev) ? -1 : 1;
  case YAML_ALIAS_EVENT: return alias(c, ev) ? -1 : 1;
  case YAML_SEQUENCE_START_EVENT:
  case YAML_MAPPING_START_EVENT: return open_collection(c, ev) ? -1 : 1;
  case YAML_SEQUENCE_END_EVENT:
  case YAML_MAPPING_END_EVENT: return close_collection(c, ev) ? -1 : 1;
  case YAML_DOCUMENT_END_EVENT:
  case YAML_STREAM_END_EVENT: return 0;
  default: return 1;
  }
}

/* A key given twice in one mapping is an error (YAML says keys are unique;
 * libyaml keeps both, and the later one would silently win or leak).
 * Looked up by hash: a mapping of many keys costs as many steps. */
static int duplicate_in(hl_yaml *y, yaml_node_t *m, hl_hindex *ix, char **err) {
  for (yaml_node_pair_t *p = m->data.mapping.pairs.start; p < m->data.mapping.pairs.top; p++) {
    yaml_node_t *k = yaml_document_get_node(&y->doc, p->key);
    if (!k || k->type != YAML_SCALAR_NODE) continue;
    unsigned long long h = hl_hindex_hash(k->data.scalar.value, k->data.scalar.length);
    size_t cursor = 0, i;
    while (hl_hindex_next(ix, h, &cursor, &i)) {
      yaml_node_t *e = yaml_document_get_node(&y->doc, m->data.mapping.pairs.start[i].key);
      if (e->data.scalar.length == k->data.scalar.length &&
          !memcmp(e->data.scalar.value, k->data.scalar.value, k->data.scalar.length)) {
        *err = hl_yaml_error(y, k, "duplicate key '%.*s' (first given at line %zu)", (int)k->data.scalar.length,
                             (const char *)k->data.scalar.value, e->start_mark.line + 1);
        return -1;
      }
    }
    hl_hindex_add(ix, h, (size_t)(p - m->data.mapping.pairs.start));
  }
  return 0;
}

static int duplicate_keys(hl_yaml *y, char **err) {
  int rc = 0;
  for (yaml_node_t *m = y->doc.nodes.start; m < y->doc.nodes.top && !rc; m++) {
    if (m->type != YAML_MAPPING_NODE) continue;
    hl_hindex ix = {0};
    rc = duplicate_in(y, m, &ix, err);
    hl_hindex_free(&ix);
  }
  return rc;
}

/* Composes the first document of the stream (as yaml_parser_load does). */
static int load_events(composer *c, yaml_parser_t *parser) {
  int rc = 1;
  while (rc > 0) {
    yaml_event_t ev;
    if (!yaml_parser_parse(parser, &ev)) {
      *c->err = syntax_error(c->y->path, parser);
      return -1;
    }
    rc = compose(c, &ev);
    yaml_event_delete(&ev);
  }
  return rc;
}

int hl_yaml_load_text(hl_yaml *y, const char *name, const char *text, size_t len, size_t max, const char *what,
                      char **err) {
  memset(y, 0, sizeof *y);
  y->path = hl_xstrdup(name);
  if (len > max) {
    char *why = hl_read_failure(HL_READ_TOO_BIG, len, max, what);
    *err = hl_xasprintf("%s: %s", hl_display_path(name), why);
    free(why);
    return -1;
  }
  yaml_parser_t parser;
  int rc = -1;
  for (int pass = 0; pass < 2; pass++) {
    if (!yaml_parser_initialize(&parser)) {
      *err = hl_xasprintf("%s: cannot initialize the YAML parser", hl_display_path(name));
      return -1;
    }
    yaml_parser_set_input_string(&parser, (const unsigned char *)text, len);
    composer c = {.y = y, .budget = max, .max = max, .what = what, .err = err};
    rc = pass == 0 ? check_tokens(&parser, name, err) : load_events(&c, &parser);
    composer_free(&c);
    yaml_parser_delete(&parser);
    if (rc) return -1;
  }
  /* An empty stream, or only comments: no document, no root. */
  if (!y->loaded) y->loaded = yaml_document_initialize(&y->doc, NULL, NULL, NULL, 1, 1);
  return duplicate_keys(y, err);
}

int hl_yaml_load(hl_yaml *y, const char *path, size_t max, const char *what, char **err) {
  char *text = NULL;
  size_t len = 0;
  int e = hl_read_file_max(path, max, &text, &len);
  if (e) {
    memset(y, 0, sizeof *y);
    char *why = hl_read_failure(e, len, max, what);
    *err = hl_xasprintf("%s: cannot read: %s", hl_display_path(path), why);
    free(why);
    return -1;
  }
  int rc = hl_yaml_load_text(y, path, text, len, max, what, err);
  free(text);
  return rc;
}

void hl_yaml_free(hl_yaml *y) {
  if (y->loaded) yaml_document_delete(&y->doc);
  free(y->path);
  memset(y, 0, sizeof *y);
}

yaml_node_t *hl_yaml_root(hl_yaml *y) { return yaml_document_get_root_node(&y->doc); }

yaml_node_t *hl_yaml_node(hl_yaml *y, int index) { return yaml_document_get_node(&y->doc, index); }

char *hl_yaml_error(hl_yaml *y, yaml_node_t *node, const char *fmt, ...) {
  hl_sb b = {0};
  const char *path = hl_display_path(y->path);
  if (node)
    hl_sb_printf(&b, "%s:%zu:%zu: ", path, node->start_mark.line + 1, node->start_mark.column + 1);
  else
    hl_sb_printf(&b, "%s: ", path);
  va_list ap;
  va_start(ap, fmt);
  hl_sb_vprintf(&b, fmt, ap);
  va_end(ap);
  return hl_sb_take(&b);
}

static const char *type_name(yaml_node_type_t t) {
  switch (t) {
  case YAML_SCALAR_NODE: return "a scalar";
  case YAML_SEQUENCE_NODE: return "a list";
  case YAML_MAPPING_NODE: return "a mapping";
  default: return "nothing";
  }
}

int hl_yaml_expect(hl_yaml *y, yaml_node_t *node, yaml_node_type_t type, const char *what, char **err) {
  if (node && node->type == type) return 0;
  *err =
      hl_yaml_error(y, node, "%s must be %s, not %s", what, type_name(type), node ? type_name(node->type) : "nothing");
  return -1;
}

const char *hl_yaml_scalar(hl_yaml *y, yaml_node_t *node, const char *what, char **err) {
  if (hl_yaml_expect(y, node, YAML_SCALAR_NODE, what, err)) return NULL;
  return (const char *)node->data.scalar.value;
}

int hl_yaml_uint(hl_yaml *y, yaml_node_t *node, const char *what, long *out, char **err) {
  const char *s = hl_yaml_scalar(y, node, what, err);
  if (!s) return -1;
  char *end;
  errno = 0;
  long v = strtol(s, &end, 10);
  if (errno || end == s || *end || v < 0) {
    *err = hl_yaml_error(y, node, "%s must be a non-negative integer, not '%s'", what, s);
    return -1;
  }
  *out = v;
  return 0;
}

int hl_yaml_bool(hl_yaml *y, yaml_node_t *node, const char *what, int *out, char **err) {
  const char *s = hl_yaml_scalar(y, node, what, err);
  if (!s) return -1;
  if (!strcmp(s, "true") || !strcmp(s, "yes") || !strcmp(s, "on")) {
    *out = 1;
    return 0;
  }
  if (!strcmp(s, "false") || !strcmp(s, "no") || !strcmp(s, "off")) {
    *out = 0;
    return 0;
  }
  *err = hl_yaml_error(y, node, "%s must be true or false, not '%s'", what, s);
  return -1;
}

/* ---- writing ---- */

int hl_yaml_emit_scalar(yaml_emitter_t *e, const char *s, yaml_scalar_style_t style) {
  yaml_event_t ev;
  if (!hl_utf8_is_valid(s)) return 0; /* libyaml would loop forever on it */
  return yaml_scalar_event_initialize(&ev, NULL, NULL, (yaml_char_t *)s, (int)strlen(s), 1, 1, style) &&
         yaml_emitter_emit(e, &ev);
}

int hl_yaml_emit_number(yaml_emitter_t *e, long v) {
  char buf[32];
  snprintf(buf, sizeof buf, "%ld", v);
  return hl_yaml_emit_scalar(e, buf, YAML_PLAIN_SCALAR_STYLE);
}

int hl_yaml_emit_open(yaml_emitter_t *e, int mapping, int flow) {
  yaml_event_t ev;
  if (mapping)
    yaml_mapping_start_event_initialize(&ev, NULL, NULL, 1, flow ? YAML_FLOW_MAPPING_STYLE : YAML_BLOCK_MAPPING_STYLE);
  else
    yaml_sequence_start_event_initialize(&ev, NULL, NULL, 1,
                                         flow ? YAML_FLOW_SEQUENCE_STYLE : YAML_BLOCK_SEQUENCE_STYLE);
  return yaml_emitter_emit(e, &ev);
}

int hl_yaml_emit_close(yaml_emitter_t *e, int mapping) {
  yaml_event_t ev;
  if (mapping)
    yaml_mapping_end_event_initialize(&ev);
  else
    yaml_sequence_end_event_initialize(&ev);
  return yaml_emitter_emit(e, &ev);
}
