#include "input/config.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <yaml.h>

#include "engine/rule.h"
#include "util/util.h"
#include "input/yamlfile.h"

#define CONFIG_NAME ".heaplint.yaml"

typedef struct entry {
  char *dir;             /* the source directory asked about */
  hl_config *config;     /* shared with other directories under the same file */
} entry;

struct hl_configs {
  char *explicit_path;
  entry *v;
  size_t n, cap;
  hl_config **loaded;    /* each file once */
  size_t nloaded, caploaded;
  hl_config defaults;
};

hl_configs *hl_configs_new(const char *explicit_path) {
  hl_configs *C = hl_xcalloc(1, sizeof *C);
  if (explicit_path) C->explicit_path = hl_abspath(explicit_path);
  return C;
}

static void config_free(hl_config *c) {
  free(c->path);
  for (size_t i = 0; i < c->nrules; i++) free(c->rules[i].rule);
  free(c->rules);
  for (size_t i = 0; i < c->nwerror; i++) free(c->werror[i]);
  free(c->werror);
  free(c->header_filter);
  hl_ere_free(c->header_re);
  for (size_t i = 0; i < c->nprofiles; i++) hl_profile_free(c->profiles[i]);
  free(c->profiles);
  hl_profile_free(c->overrides);
  free(c->cache_dir);
}

void hl_configs_free(hl_configs *C) {
  if (!C) return;
  for (size_t i = 0; i < C->n; i++) free(C->v[i].dir);
  free(C->v);
  for (size_t i = 0; i < C->nloaded; i++) {
    config_free(C->loaded[i]);
    free(C->loaded[i]);
  }
  free(C->loaded);
  free(C->explicit_path);
  free(C);
}

/* ---- parsing ---- */

static int parse_severity(const char *s, int *enabled, hl_severity *sev, int *has) {
  *has = 0;
  if (!strcmp(s, "on") || !strcmp(s, "true") || !strcmp(s, "yes")) return *enabled = 1, 0;
  if (!strcmp(s, "off") || !strcmp(s, "false") || !strcmp(s, "no")) return *enabled = 0, 0;
  *enabled = *has = 1;
  if (!strcmp(s, "warning")) return *sev = HL_SEV_WARNING, 0;
  if (!strcmp(s, "error")) return *sev = HL_SEV_ERROR, 0;
  if (!strcmp(s, "note")) return *sev = HL_SEV_NOTE, 0;
  return -1;
}

static int known_rule(hl_yaml *y, yaml_node_t *n, const char *id, char **err) {
  if (hl_rule_find(id)) return 0;
  *err = hl_yaml_error(y, n, "unknown rule '%s' (see heaplint --list-rules)", id);
  return -1;
}

static int parse_rules(hl_yaml *y, yaml_node_t *node, hl_config *c, char **err) {
  if (hl_yaml_expect(y, node, YAML_MAPPING_NODE, "rules", err)) return -1;
  for (yaml_node_pair_t *p = node->data.mapping.pairs.start; p < node->data.mapping.pairs.top; p++) {
    yaml_node_t *k = hl_yaml_node(y, p->key), *v = hl_yaml_node(y, p->value);
    const char *id = hl_yaml_scalar(y, k, "a rule", err), *val;
    if (!id || known_rule(y, k, id, err)) return -1;
    if (!(val = hl_yaml_scalar(y, v, "a rule's setting", err))) return -1;
    hl_rule_setting r = {hl_xstrdup(id), 1, HL_SEV_WARNING, 0};
    if (parse_severity(val, &r.enabled, &r.severity, &r.has_severity)) {
      *err = hl_yaml_error(y, v, "rule '%s': '%s' is not on, off, warning, error or note", id, val);
      free(r.rule);
      return -1;
    }
    HL_PUSH(c->rules, c->nrules, c->caprules, r);
  }
  return 0;
}

static int parse_werror(hl_yaml *y, yaml_node_t *node, hl_config *c, char **err) {
  if (node->type == YAML_SCALAR_NODE) return hl_yaml_bool(y, node, "warnings-as-errors", &c->werror_all, err);
  if (node->type != YAML_SEQUENCE_NODE) {
    *err = hl_yaml_error(y, node, "warnings-as-errors must be true, false or a list of rules");
    return -1;
  }
  for (yaml_node_item_t *it = node->data.sequence.items.start; it < node->data.sequence.items.top; it++) {
    yaml_node_t *n = hl_yaml_node(y, *it);
    const char *id = hl_yaml_scalar(y, n, "a rule", err);
    if (!id || known_rule(y, n, id, err)) return -1;
    HL_PUSH(c->werror, c->nwerror, c->capwerror, hl_xstrdup(id));
  }
  return 0;
}

static char *dir_of(const char *path) {
  const char *slash = strrchr(path, '/');
  return slash ? hl_xstrndup(path, (size_t)(slash - path) + (slash == path)) : hl_xstrdup(".");
}

static int parse_profiles(hl_yaml *y, yaml_node_t *node, hl_config *c, char **err) {
  if (hl_yaml_expect(y, node, YAML_SEQUENCE_NODE, "profiles", err)) return -1;
  char *dir = dir_of(c->path);
  int rc = 0;
  for (yaml_node_item_t *it = node->data.sequence.items.start; it < node->data.sequence.items.top && !rc; it++) {
    yaml_node_t *n = hl_yaml_node(y, *it);
    const char *rel = hl_yaml_scalar(y, n, "a profile path", err);
    if (!rel) {
      rc = -1;
      break;
    }
    char *path = rel[0] == '/' ? hl_xstrdup(rel) : hl_xasprintf("%s/%s", dir, rel);
    hl_profile *p;
    char *perr = NULL;
    if (hl_profile_load(path, &p, &perr) == 0) {
      HL_PUSH(c->profiles, c->nprofiles, c->capprofiles, p);
      /* As for --profile: a rule heaplint does not have is a typo. */
      for (size_t k = 0; k < p->nwrappers && !rc; k++)
        if (!hl_rule_find(p->wrappers[k].rule)) {
          *err = hl_yaml_error(y, n, "profile '%s': wrapper '%s' names an unknown rule '%s' (see heaplint --list-rules)",
                               rel, p->wrappers[k].name, p->wrappers[k].rule);
          rc = -1;
        }
    } else {
      *err = hl_yaml_error(y, n, "profile '%s': %s", rel, perr);
      free(perr);
      rc = -1;
    }
    free(path);
  }
  free(dir);
  return rc;
}

static int parse_wrappers(hl_yaml *y, yaml_node_t *node, hl_config *c, char **err) {
  hl_profile *p = hl_xcalloc(1, sizeof *p);
  p->path = hl_xstrdup(c->path);
  p->string_sso = -1;
  c->overrides = p;
  if (hl_profile_wrappers_from_yaml(y, node, 1, p, err)) return -1;
  for (size_t i = 0; i < p->nwrappers; i++)
    if ((p->wrappers[i].given & HL_W_RULE) && !hl_rule_find(p->wrappers[i].rule)) {
      *err = hl_yaml_error(y, node, "wrapper '%s' names an unknown rule '%s'", p->wrappers[i].name,
                           p->wrappers[i].rule);
      return -1;
    }
  return 0;
}

static int parse_cache_dir(hl_yaml *y, yaml_node_t *node, hl_config *c, char **err) {
  const char *d = hl_yaml_scalar(y, node, "cache-dir", err);
  if (!d) return -1;
  if (!*d) {
    *err = hl_yaml_error(y, node, "cache-dir: an empty path");
    return -1;
  }
  char *base = dir_of(c->path);
  char *joined = d[0] == '/' ? hl_xstrdup(d) : hl_xasprintf("%s/%s", base, d);
  c->cache_dir = hl_abspath(joined);
  free(joined);
  free(base);
  return 0;
}

static int parse(hl_config *c, char **err) {
  hl_yaml y;
  if (hl_yaml_load(&y, c->path, err)) {
    hl_yaml_free(&y);
    return -1;
  }
  int rc = 0;
  yaml_node_t *root = hl_yaml_root(&y);
  if (!root) goto out; /* empty, or only comments: the defaults */
  if (hl_yaml_expect(&y, root, YAML_MAPPING_NODE, "the configuration", err)) {
    rc = -1;
    goto out;
  }
  for (yaml_node_pair_t *p = root->data.mapping.pairs.start; p < root->data.mapping.pairs.top && !rc; p++) {
    yaml_node_t *k = hl_yaml_node(&y, p->key), *v = hl_yaml_node(&y, p->value);
    const char *key = hl_yaml_scalar(&y, k, "a key", err);
    if (!key) rc = -1;
    else if (!strcmp(key, "rules")) rc = parse_rules(&y, v, c, err);
    else if (!strcmp(key, "warnings-as-errors")) rc = parse_werror(&y, v, c, err);
    else if (!strcmp(key, "profiles")) rc = parse_profiles(&y, v, c, err);
    else if (!strcmp(key, "wrappers")) rc = parse_wrappers(&y, v, c, err);
    else if (!strcmp(key, "cache-dir")) rc = parse_cache_dir(&y, v, c, err);
    else if (!strcmp(key, "header-filter")) {
      const char *re = hl_yaml_scalar(&y, v, "header-filter", err);
      char *why = NULL;
      if (!re) rc = -1;
      else if (!(c->header_re = hl_ere_compile(re, &why))) {
        *err = hl_yaml_error(&y, v, "header-filter: not a valid extended regular expression: %s", why);
        free(why);
        rc = -1;
      } else {
        c->header_filter = hl_xstrdup(re);
      }
    } else {
      *err = hl_yaml_error(&y, k,
                           "unknown key '%s' (expected rules, warnings-as-errors, header-filter, profiles, wrappers, "
                           "cache-dir)",
                           key);
      rc = -1;
    }
  }
out:
  hl_yaml_free(&y);
  return rc;
}

/* ---- discovery ---- */

static hl_config *load(hl_configs *C, const char *path, char **err) {
  for (size_t i = 0; i < C->nloaded; i++)
    if (!strcmp(C->loaded[i]->path, path)) return C->loaded[i];
  hl_config *c = hl_xcalloc(1, sizeof *c);
  c->path = hl_xstrdup(path);
  if (parse(c, err)) {
    config_free(c);
    free(c);
    return NULL;
  }
  HL_PUSH(C->loaded, C->nloaded, C->caploaded, c);
  return c;
}

int hl_config_for(hl_configs *C, const char *path, const hl_config **out, char **err) {
  if (C->explicit_path) {
    hl_config *c = load(C, C->explicit_path, err);
    *out = c;
    return c ? 0 : -1;
  }
  char *dir = dir_of(path);
  for (size_t i = 0; i < C->n; i++)
    if (!strcmp(C->v[i].dir, dir)) {
      *out = C->v[i].config ? C->v[i].config : &C->defaults;
      free(dir);
      return 0;
    }
  hl_config *found = NULL;
  int rc = 0;
  char *d = hl_xstrdup(dir);
  for (;;) {
    char *candidate = hl_xasprintf("%s/%s", strcmp(d, "/") ? d : "", CONFIG_NAME);
    struct stat st;
    int exists = stat(candidate, &st) == 0 && S_ISREG(st.st_mode);
    if (exists) {
      found = load(C, candidate, err);
      rc = found ? 0 : -1;
    }
    free(candidate);
    if (exists || !strcmp(d, "/") || !strchr(d, '/')) break;
    char *up = dir_of(d);
    free(d);
    d = up;
  }
  free(d);
  if (rc) {
    free(dir);
    return -1;
  }
  entry e = {dir, found};
  HL_PUSH(C->v, C->n, C->cap, e);
  *out = found ? found : &C->defaults;
  return 0;
}

void hl_configs_files(const hl_configs *C, hl_strv *configs, hl_strv *profiles) {
  for (size_t i = 0; i < C->nloaded; i++) {
    hl_strv_addf(configs, "%s", C->loaded[i]->path);
    for (size_t k = 0; k < C->loaded[i]->nprofiles; k++) hl_strv_addf(profiles, "%s", C->loaded[i]->profiles[k]->path);
  }
}

static const hl_rule_setting *setting(const hl_config *c, const char *rule) {
  for (size_t i = 0; i < c->nrules; i++)
    if (!strcmp(c->rules[i].rule, rule)) return &c->rules[i];
  return NULL;
}

int hl_config_enabled(const hl_config *c, const char *rule) {
  const hl_rule_setting *s = setting(c, rule);
  return !s || s->enabled;
}

hl_severity hl_config_severity(const hl_config *c, const char *rule) {
  const hl_rule_setting *s = setting(c, rule);
  hl_severity sev = s && s->has_severity ? s->severity : HL_SEV_WARNING;
  if (sev == HL_SEV_WARNING) {
    int as_error = c->werror_all;
    for (size_t i = 0; i < c->nwerror && !as_error; i++) as_error = !strcmp(c->werror[i], rule);
    if (as_error) sev = HL_SEV_ERROR;
  }
  return sev;
}

/* ---- --dump-config ---- */

/* libyaml can only write UTF-8 (and loops forever on other bytes): a path
 * in another encoding is shown with U+FFFD in their place. */
static int scalar(yaml_emitter_t *e, const char *s) {
  char *v = hl_utf8_sanitize(s);
  int ok = hl_yaml_emit_scalar(e, v, YAML_ANY_SCALAR_STYLE);
  free(v);
  return ok;
}

static int write_out(void *data, unsigned char *buf, size_t size) {
  return fwrite(buf, 1, size, data) == size;
}

static const char *sev_name(hl_severity s) {
  return s == HL_SEV_ERROR ? "error" : s == HL_SEV_NOTE ? "note" : "warning";
}

int hl_config_dump(FILE *out, const hl_config *c, const char *for_file, const char *const *rule_ids) {
  fprintf(out, "# heaplint configuration for %s\n# from %s\n", hl_display_path(for_file),
          c->path ? hl_display_path(c->path) : "the defaults (no " CONFIG_NAME " found)");
  yaml_emitter_t e;
  yaml_event_t ev;
  if (!yaml_emitter_initialize(&e)) return -1;
  yaml_emitter_set_output(&e, write_out, out);
  yaml_emitter_set_unicode(&e, 1);
  int ok = yaml_stream_start_event_initialize(&ev, YAML_UTF8_ENCODING) && yaml_emitter_emit(&e, &ev) &&
           yaml_document_start_event_initialize(&ev, NULL, NULL, NULL, 1) && yaml_emitter_emit(&e, &ev) &&
           hl_yaml_emit_open(&e, 1, 0);
  ok = ok && scalar(&e, "rules") && hl_yaml_emit_open(&e, 1, 0);
  for (size_t i = 0; ok && rule_ids[i]; i++)
    ok = scalar(&e, rule_ids[i]) &&
         scalar(&e, hl_config_enabled(c, rule_ids[i]) ? sev_name(hl_config_severity(c, rule_ids[i])) : "off");
  ok = ok && hl_yaml_emit_close(&e, 1);
  ok = ok && scalar(&e, "warnings-as-errors");
  if (ok && c->nwerror) {
    ok = hl_yaml_emit_open(&e, 0, 1);
    for (size_t i = 0; ok && i < c->nwerror; i++) ok = scalar(&e, c->werror[i]);
    ok = ok && hl_yaml_emit_close(&e, 0);
  } else if (ok) {
    ok = scalar(&e, c->werror_all ? "true" : "false");
  }
  ok = ok && scalar(&e, "header-filter") && scalar(&e, c->header_filter ? c->header_filter : "");
  ok = ok && scalar(&e, "cache-dir") && scalar(&e, c->cache_dir ? c->cache_dir : "");
  ok = ok && scalar(&e, "profiles") && hl_yaml_emit_open(&e, 0, 0);
  for (size_t i = 0; ok && i < c->nprofiles; i++) ok = scalar(&e, c->profiles[i]->path);
  ok = ok && hl_yaml_emit_close(&e, 0);
  ok = ok && scalar(&e, "wrappers") && hl_yaml_emit_open(&e, 0, 0);
  for (size_t i = 0; ok && c->overrides && i < c->overrides->nwrappers; i++) {
    const hl_wrapper *w = &c->overrides->wrappers[i];
    ok = hl_yaml_emit_open(&e, 1, 0) && scalar(&e, "name") && scalar(&e, w->name);
    if (ok && (w->given & HL_W_RULE)) ok = scalar(&e, "rule") && scalar(&e, w->rule);
    if (ok && (w->given & HL_W_BUFFER))
      ok = scalar(&e, "buffer") && hl_yaml_emit_open(&e, 1, 1) && scalar(&e, "size") && hl_yaml_emit_number(&e, w->buffer_size) &&
           scalar(&e, "align") && hl_yaml_emit_number(&e, w->buffer_align) && hl_yaml_emit_close(&e, 1);
    if (ok && (w->given & HL_W_HEADER))
      ok = scalar(&e, "header") && hl_yaml_emit_open(&e, 1, 1) && scalar(&e, "size") && hl_yaml_emit_number(&e, w->header_size) &&
           scalar(&e, "align") && hl_yaml_emit_number(&e, w->header_align) && hl_yaml_emit_close(&e, 1);
    if (ok && (w->given & HL_W_MAX_ALIGN)) ok = scalar(&e, "max-align") && hl_yaml_emit_number(&e, w->max_align);
    ok = ok && hl_yaml_emit_close(&e, 1);
  }
  ok = ok && hl_yaml_emit_close(&e, 0) && hl_yaml_emit_close(&e, 1);
  ok = ok && yaml_document_end_event_initialize(&ev, 1) && yaml_emitter_emit(&e, &ev) &&
       yaml_stream_end_event_initialize(&ev) && yaml_emitter_emit(&e, &ev);
  yaml_emitter_delete(&e);
  return ok ? 0 : -1;
}
