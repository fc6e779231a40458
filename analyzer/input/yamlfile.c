#include "input/yamlfile.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/util.h"

/* A key given twice in one mapping is an error (YAML says keys are unique;
 * libyaml keeps both, and the later one would silently win or leak). */
static int duplicate_keys(hl_yaml *y, char **err) {
  for (yaml_node_t *m = y->doc.nodes.start; m < y->doc.nodes.top; m++) {
    if (m->type != YAML_MAPPING_NODE) continue;
    for (yaml_node_pair_t *p = m->data.mapping.pairs.start; p < m->data.mapping.pairs.top; p++) {
      yaml_node_t *k = yaml_document_get_node(&y->doc, p->key);
      if (!k || k->type != YAML_SCALAR_NODE) continue;
      for (yaml_node_pair_t *q = m->data.mapping.pairs.start; q < p; q++) {
        yaml_node_t *e = yaml_document_get_node(&y->doc, q->key);
        if (e && e->type == YAML_SCALAR_NODE && e->data.scalar.length == k->data.scalar.length &&
            !memcmp(e->data.scalar.value, k->data.scalar.value, k->data.scalar.length)) {
          *err = hl_yaml_error(y, k, "duplicate key '%.*s' (first given at line %zu)", (int)k->data.scalar.length,
                               (const char *)k->data.scalar.value, e->start_mark.line + 1);
          return -1;
        }
      }
    }
  }
  return 0;
}

int hl_yaml_load_text(hl_yaml *y, const char *name, const char *text, size_t len, char **err) {
  memset(y, 0, sizeof *y);
  y->path = hl_xstrdup(name);
  yaml_parser_t parser;
  if (!yaml_parser_initialize(&parser)) {
    *err = hl_xasprintf("%s: cannot initialize the YAML parser", name);
    return -1;
  }
  yaml_parser_set_input_string(&parser, (const unsigned char *)text, len);
  int ok = yaml_parser_load(&parser, &y->doc);
  if (!ok) {
    const yaml_mark_t *m = parser.context ? &parser.context_mark : &parser.problem_mark;
    if (parser.problem)
      m = &parser.problem_mark;
    *err = hl_xasprintf("%s:%zu:%zu: YAML syntax error: %s%s%s", hl_display_path(name), m->line + 1, m->column + 1,
                        parser.problem ? parser.problem : "malformed document",
                        parser.context ? " " : "", parser.context ? parser.context : "");
  }
  yaml_parser_delete(&parser);
  if (!ok) return -1;
  y->loaded = 1;
  return duplicate_keys(y, err);
}

int hl_yaml_load(hl_yaml *y, const char *path, char **err) {
  char *text = NULL;
  size_t len = 0;
  int e = hl_read_file(path, &text, &len);
  if (e) {
    memset(y, 0, sizeof *y);
    *err = hl_xasprintf("%s: cannot read: %s", hl_display_path(path), hl_read_error(e));
    return -1;
  }
  int rc = hl_yaml_load_text(y, path, text, len, err);
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
  *err = hl_yaml_error(y, node, "%s must be %s, not %s", what, type_name(type),
                       node ? type_name(node->type) : "nothing");
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
  if (mapping) yaml_mapping_end_event_initialize(&ev);
  else yaml_sequence_end_event_initialize(&ev);
  return yaml_emitter_emit(e, &ev);
}
