/* yamlfile: loads a YAML file into a libyaml document and reads it with
 * errors that name the file, line and column (profiles, and the config file).
 *
 * Errors are strings the caller owns, already formatted as
 * "path:line:col: message", so they are reported once, at the edge. */
#ifndef HEAPLINT_YAMLFILE_H
#define HEAPLINT_YAMLFILE_H

#include <yaml.h>

typedef struct hl_yaml {
  char *path;
  yaml_document_t doc;
  int loaded;
} hl_yaml;

/* Loads path, a file of at most max bytes (else an error naming its size
 * and max, with what it is: "a configuration"). Returns 0, or -1 with *err
 * set (unreadable, too large, a syntax error, a key given twice in one
 * mapping, nesting deeper than 64, more than 64 %TAG directives, aliases
 * that stand for more than max bytes: each named with its line). Only the
 * first document of the stream is read. An empty file, or one with only
 * comments, loads with no root node (hl_yaml_root is NULL). Takes time
 * linear in the file's size, whatever it holds. */
int hl_yaml_load(hl_yaml *y, const char *path, size_t max, const char *what, char **err);
/* Loads text (len bytes) as if it were a file called name, for messages
 * ("-config:1:3: ..."). */
int hl_yaml_load_text(hl_yaml *y, const char *name, const char *text, size_t len, size_t max, const char *what,
                      char **err);
void hl_yaml_free(hl_yaml *y);

yaml_node_t *hl_yaml_root(hl_yaml *y);
yaml_node_t *hl_yaml_node(hl_yaml *y, int index);

/* "path:line:col: fmt..." at node's position. */
char *hl_yaml_error(hl_yaml *y, yaml_node_t *node, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/* The scalar's text, or NULL (with *err) when node is not a scalar. */
const char *hl_yaml_scalar(hl_yaml *y, yaml_node_t *node, const char *what, char **err);
/* A non-negative integer scalar. Returns 0 or -1 with *err. */
int hl_yaml_uint(hl_yaml *y, yaml_node_t *node, const char *what, long *out, char **err);
/* A true/false scalar. Returns 0 or -1 with *err. */
int hl_yaml_bool(hl_yaml *y, yaml_node_t *node, const char *what, int *out, char **err);
/* Checks that node is a mapping (or sequence). Returns 0 or -1 with *err. */
int hl_yaml_expect(hl_yaml *y, yaml_node_t *node, yaml_node_type_t type, const char *what, char **err);

/* Writing, through a libyaml emitter; each returns 1, or 0 on failure. A
 * scalar that is not valid UTF-8 fails (libyaml would loop forever on it). */
int hl_yaml_emit_scalar(yaml_emitter_t *e, const char *s, yaml_scalar_style_t style);
int hl_yaml_emit_number(yaml_emitter_t *e, long v);
/* Starts a mapping (mapping != 0) or a sequence, in flow style or block. */
int hl_yaml_emit_open(yaml_emitter_t *e, int mapping, int flow);
int hl_yaml_emit_close(yaml_emitter_t *e, int mapping);

#endif
