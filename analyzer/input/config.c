#include "input/config.h"

#include <errno.h>
#include <fnmatch.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <yaml.h>

#include "engine/rule.h"
#include "input/yamlfile.h"
#include "util/globs.h"
#include "util/hindex.h"
#include "util/util.h"

#define CONFIG_NAME ".heaplint.yaml"

typedef struct entry {
  char *dir;         /* the source directory asked about */
  hl_config *config; /* shared with other directories under the same file */
} entry;

struct hl_configs {
  char *explicit_path;
  hl_config *inline_config; /* -config= */
  hl_config_layer layer;
  entry *v;
  size_t n, cap;
  hl_hindex dirs;     /* v by directory: a job list of many directories costs as many lookups */
  hl_config **loaded; /* each file once */
  size_t nloaded, caploaded;
  hl_hindex paths; /* loaded by path */
  hl_config defaults;
  const hl_rule *const *rules; /* the rules heaplint has */
};

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
  free(c->checks);
  free(c->werror_globs);
  free(c->exclude_header_filter);
  hl_ere_free(c->exclude_re);
  hl_strv_free(&c->fallback_flags);
  hl_strv_free(&c->public_api);
  for (size_t i = 0; i < c->noptions; i++) hl_strv_free(&c->options[i].items);
  free(c->options);
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
  hl_hindex_free(&C->dirs);
  hl_hindex_free(&C->paths);
  free(C->explicit_path);
  hl_ere_free(C->layer.header_re);
  hl_ere_free(C->layer.exclude_re);
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

static int known_rule(const hl_config *c, hl_yaml *y, yaml_node_t *n, const char *id, char **err) {
  if (hl_rule_in(c->registry, id)) return 0;
  *err = hl_yaml_error(y, n, "unknown rule '%s' (see heaplint --list-rules)", id);
  return -1;
}

static int parse_rules(hl_yaml *y, yaml_node_t *node, hl_config *c, char **err) {
  if (hl_yaml_expect(y, node, YAML_MAPPING_NODE, "rules", err)) return -1;
  for (yaml_node_pair_t *p = node->data.mapping.pairs.start; p < node->data.mapping.pairs.top; p++) {
    yaml_node_t *k = hl_yaml_node(y, p->key), *v = hl_yaml_node(y, p->value);
    const char *id = hl_yaml_scalar(y, k, "a rule", err), *val;
    if (!id || known_rule(c, y, k, id, err)) return -1;
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

/* A glob list of a configuration: a string ("-*,function-sbo") or a list
 * of globs. A glob without '*' must name a rule: in a file, an unknown rule
 * is a typo, not a wish. */
typedef struct glob_check {
  const hl_config *c;
  hl_yaml *y;
  yaml_node_t *node;
  char **err;
} glob_check;

static int known_glob(const char *glob, int negative, void *data) {
  (void)negative;
  glob_check *g = data;
  if (strchr(glob, '*') || hl_rule_in(g->c->registry, glob) || hl_starts_with(glob, "clang-diagnostic-")) return 0;
  return known_rule(g->c, g->y, g->node, glob, g->err);
}

static int parse_globs(const hl_config *c, hl_yaml *y, yaml_node_t *node, const char *what, char **out, char **err) {
  hl_sb b = {0};
  if (node->type == YAML_SEQUENCE_NODE) {
    for (yaml_node_item_t *it = node->data.sequence.items.start; it < node->data.sequence.items.top; it++) {
      const char *g = hl_yaml_scalar(y, hl_yaml_node(y, *it), what, err);
      if (!g) return hl_sb_free(&b), -1;
      hl_sb_printf(&b, "%s%s", b.len ? "," : "", g);
    }
  } else {
    const char *g = hl_yaml_scalar(y, node, what, err);
    if (!g) return -1;
    hl_sb_puts(&b, g);
  }
  *out = hl_sb_take(&b);
  glob_check g = {c, y, node, err};
  return hl_globs_each(*out, known_glob, &g) ? -1 : 0;
}

/* true, false, a list of rules, or globs (clang-tidy's WarningsAsErrors). */
static int parse_werror(hl_yaml *y, yaml_node_t *node, hl_config *c, char **err) {
  if (node->type == YAML_SCALAR_NODE) {
    const char *v = (const char *)node->data.scalar.value;
    int is_bool = !strcmp(v, "true") || !strcmp(v, "false") || !strcmp(v, "yes") || !strcmp(v, "no");
    if (is_bool) return hl_yaml_bool(y, node, "warnings-as-errors", &c->werror_all, err);
    return parse_globs(c, y, node, "warnings-as-errors", &c->werror_globs, err);
  }
  if (node->type != YAML_SEQUENCE_NODE) {
    *err = hl_yaml_error(y, node, "warnings-as-errors must be true, false, a list of rules or a glob list");
    return -1;
  }
  for (yaml_node_item_t *it = node->data.sequence.items.start; it < node->data.sequence.items.top; it++) {
    yaml_node_t *n = hl_yaml_node(y, *it);
    const char *id = hl_yaml_scalar(y, n, "a rule", err);
    if (!id || known_rule(c, y, n, id, err)) return -1;
    /* Listed once each, however often the list names it: each finding's
     * severity looks through the list. */
    if (!hl_str_in(id, (const char *const *)c->werror, c->nwerror))
      HL_PUSH(c->werror, c->nwerror, c->capwerror, hl_xstrdup(id));
  }
  return 0;
}

static int parse_regex(hl_yaml *y, yaml_node_t *v, const char *key, char **text, hl_ere **re, char **err) {
  const char *pattern = hl_yaml_scalar(y, v, key, err);
  char *why = NULL;
  if (!pattern) return -1;
  if (!(*re = hl_ere_compile(pattern, &why))) {
    *err = hl_yaml_error(y, v, "%s: not a valid extended regular expression: %s", key, why);
    free(why);
    return -1;
  }
  *text = hl_xstrdup(pattern);
  return 0;
}

static char *dir_of(const char *path) {
  const char *slash = strrchr(path, '/');
  return slash ? hl_xstrndup(path, (size_t)(slash - path) + (slash == path)) : hl_xstrdup(".");
}

static int load_profile(hl_yaml *y, yaml_node_t *n, const char *rel, const char *path, hl_config *c, char **err) {
  hl_profile *p;
  char *perr = NULL;
  if (hl_profile_load(path, c->registry, &p, &perr)) {
    *err = hl_yaml_error(y, n, "profile '%s': %s", rel, perr);
    free(perr);
    return -1;
  }
  HL_PUSH(c->profiles, c->nprofiles, c->capprofiles, p);
  /* As for --profile: a rule heaplint does not have is a typo. */
  for (size_t k = 0; k < p->nwrappers; k++)
    if (!hl_rule_in(c->registry, p->wrappers[k].rule)) {
      *err = hl_yaml_error(y, n, "profile '%s': wrapper '%s' names an unknown rule '%s' (see heaplint --list-rules)",
                           rel, p->wrappers[k].name, p->wrappers[k].rule);
      return -1;
    }
  return 0;
}

/* A file listed more than once is loaded once, where it is listed last:
 * the wrappers it states win over those before, as they would if it were
 * laid over them again. A list naming one large profile many times costs
 * one load, not as many. */
static int parse_profiles(hl_yaml *y, yaml_node_t *node, hl_config *c, char **err) {
  if (hl_yaml_expect(y, node, YAML_SEQUENCE_NODE, "profiles", err)) return -1;
  size_t n = (size_t)(node->data.sequence.items.top - node->data.sequence.items.start), ndistinct = 0;
  /* Each as listed, and canonical: the same file, however named, once. */
  char *dir = dir_of(c->path);
  char **paths = hl_xcalloc(n ? n : 1, sizeof *paths), **keys = hl_xcalloc(n ? n : 1, sizeof *keys);
  size_t *group = hl_xcalloc(n ? n : 1, sizeof *group), *last = hl_xcalloc(n ? n : 1, sizeof *last);
  hl_hindex ix = {0};
  int rc = 0;
  for (size_t i = 0; i < n && !rc; i++) {
    const char *rel = hl_yaml_scalar(y, hl_yaml_node(y, node->data.sequence.items.start[i]), "a profile path", err);
    if (!rel) {
      rc = -1;
      break;
    }
    paths[i] = rel[0] == '/' ? hl_xstrdup(rel) : hl_xasprintf("%s/%s", dir, rel);
    keys[i] = hl_abspath(paths[i]);
    unsigned long long h = hl_hindex_hash(keys[i], strlen(keys[i]));
    size_t cursor = 0, k;
    group[i] = ndistinct;
    while (hl_hindex_next(&ix, h, &cursor, &k))
      if (!strcmp(keys[last[k]], keys[i])) group[i] = k;
    if (group[i] == ndistinct) hl_hindex_add(&ix, h, ndistinct++);
    last[group[i]] = i;
  }
  for (size_t i = 0; i < n && !rc; i++) {
    if (last[group[i]] != i) continue;
    yaml_node_t *item = hl_yaml_node(y, node->data.sequence.items.start[i]);
    rc = load_profile(y, item, (const char *)item->data.scalar.value, paths[i], c, err);
  }
  for (size_t i = 0; i < n; i++) free(paths[i]), free(keys[i]);
  free(paths);
  free(keys);
  free(group);
  free(last);
  hl_hindex_free(&ix);
  free(dir);
  return rc;
}

static int parse_wrappers(hl_yaml *y, yaml_node_t *node, hl_config *c, char **err) {
  hl_profile *p = hl_xcalloc(1, sizeof *p);
  p->path = hl_xstrdup(c->path);
  c->overrides = p;
  if (hl_profile_wrappers_from_yaml(y, node, 1, p, err)) return -1;
  for (size_t i = 0; i < p->nwrappers; i++)
    if ((p->wrappers[i].given & HL_W_RULE) && !hl_rule_in(c->registry, p->wrappers[i].rule)) {
      *err =
          hl_yaml_error(y, node, "wrapper '%s' names an unknown rule '%s'", p->wrappers[i].name, p->wrappers[i].rule);
      return -1;
    }
  return 0;
}

/* A list of strings (fallback-flags, a rule's option) into out. */
static int parse_list(hl_yaml *y, yaml_node_t *node, const char *key, const char *what, hl_strv *out, char **err) {
  if (hl_yaml_expect(y, node, YAML_SEQUENCE_NODE, key, err)) return -1;
  for (yaml_node_item_t *it = node->data.sequence.items.start; it < node->data.sequence.items.top; it++) {
    const char *item = hl_yaml_scalar(y, hl_yaml_node(y, *it), what, err);
    if (!item) return -1;
    hl_strv_add(out, item);
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

/* max-inline-capacity: bytes, at least 8 (the smallest buffer a fix
 * chooses); 0 or absent: no limit. */
static int parse_capacity(hl_yaml *y, yaml_node_t *node, hl_config *c, char **err) {
  long v;
  if (hl_yaml_uint(y, node, "max-inline-capacity", &v, err)) return -1;
  if (v > 0 && v < 8) {
    *err = hl_yaml_error(y, node, "max-inline-capacity must be at least 8 bytes (or 0: no limit), not %ld", v);
    return -1;
  }
  c->max_inline_capacity = v;
  return 0;
}

/* A key no rule of heaplint's own declares: a rule's option (hl_rule.options),
 * its items kept for the rule, or an error listing every key. */
static int parse_rule_option(hl_yaml *y, yaml_node_t *k, yaml_node_t *v, const char *key, hl_config *c, char **err) {
  hl_sb keys = {0};
  for (size_t r = 0; c->registry[r]; r++)
    for (const hl_rule_option *o = c->registry[r]->options; o && o->key; o++) {
      if (strcmp(o->key, key)) {
        hl_sb_printf(&keys, "%s, ", o->key);
        continue;
      }
      hl_sb_free(&keys);
      size_t i = 0;
      while (i < c->noptions && c->options[i].option != o) i++;
      if (i == c->noptions) HL_PUSH(c->options, c->noptions, c->capoptions, ((hl_rule_option_value){o, {0}}));
      return parse_list(y, v, key, o->what, &c->options[i].items, err);
    }
  *err = hl_yaml_error(y, k,
                       "unknown key '%s' (expected rules, checks, warnings-as-errors, header-filter, "
                       "exclude-header-filter, system-headers, profiles, wrappers, fallback-flags, %spublic-api, "
                       "max-inline-capacity, cache-dir, "
                       "or clang-tidy's spellings)",
                       key, hl_sb_str(&keys));
  hl_sb_free(&keys);
  return -1;
}

/* A key, in heaplint's spelling or clang-tidy's. */
typedef enum key_id {
  K_RULES,
  K_WERROR,
  K_PROFILES,
  K_WRAPPERS,
  K_HEADER_FILTER,
  K_EXCLUDE_HEADER_FILTER,
  K_CHECKS,
  K_SYSTEM_HEADERS,
  K_USE_COLOR,
  K_CHECK_OPTIONS,
  K_FALLBACK,
  K_PUBLIC_API,
  K_MAX_CAPACITY,
  K_CACHE_DIR,
  K_IGNORED,
  K_INHERIT,
  K_REFUSED,
  K_UNKNOWN,
} key_id;

static key_id key_of(const char *k) {
  static const struct {
    const char *name;
    key_id id;
  } keys[] = {
      {"rules", K_RULES},
      {"warnings-as-errors", K_WERROR},
      {"WarningsAsErrors", K_WERROR},
      {"profiles", K_PROFILES},
      {"wrappers", K_WRAPPERS},
      {"header-filter", K_HEADER_FILTER},
      {"HeaderFilterRegex", K_HEADER_FILTER},
      {"exclude-header-filter", K_EXCLUDE_HEADER_FILTER},
      {"ExcludeHeaderFilterRegex", K_EXCLUDE_HEADER_FILTER},
      {"checks", K_CHECKS},
      {"Checks", K_CHECKS},
      {"system-headers", K_SYSTEM_HEADERS},
      {"SystemHeaders", K_SYSTEM_HEADERS},
      {"UseColor", K_USE_COLOR},
      {"CheckOptions", K_CHECK_OPTIONS},
      {"fallback-flags", K_FALLBACK},
      {"public-api", K_PUBLIC_API},
      {"max-inline-capacity", K_MAX_CAPACITY},
      {"cache-dir", K_CACHE_DIR},
      /* What clang-tidy's formatting and file-kind options say does not
       * change what heaplint reports. */
      {"FormatStyle", K_IGNORED},
      {"User", K_IGNORED},
      {"HeaderFileExtensions", K_IGNORED},
      {"ImplementationFileExtensions", K_IGNORED},
      {"InheritParentConfig", K_INHERIT},
      {"ExtraArgs", K_REFUSED},
      {"ExtraArgsBefore", K_REFUSED},
  };
  for (size_t i = 0; i < sizeof keys / sizeof *keys; i++)
    if (!strcmp(keys[i].name, k)) return keys[i].id;
  return K_UNKNOWN;
}

static int parse_key(hl_yaml *y, yaml_node_t *k, yaml_node_t *v, const char *key, hl_config *c, char **err) {
  int inherit = 0;
  switch (key_of(key)) {
  case K_RULES: return parse_rules(y, v, c, err);
  case K_WERROR: return parse_werror(y, v, c, err);
  case K_PROFILES: return parse_profiles(y, v, c, err);
  case K_WRAPPERS: return parse_wrappers(y, v, c, err);
  case K_HEADER_FILTER: return parse_regex(y, v, key, &c->header_filter, &c->header_re, err);
  case K_EXCLUDE_HEADER_FILTER: return parse_regex(y, v, key, &c->exclude_header_filter, &c->exclude_re, err);
  case K_CHECKS: return parse_globs(c, y, v, key, &c->checks, err);
  case K_SYSTEM_HEADERS: return hl_yaml_bool(y, v, key, &c->system_headers, err);
  case K_USE_COLOR: return hl_yaml_bool(y, v, key, &c->use_color, err);
  case K_CHECK_OPTIONS: c->check_options = 1; return 0;
  case K_FALLBACK: c->has_fallback = 1; return parse_list(y, v, key, "a compiler flag", &c->fallback_flags, err);
  case K_PUBLIC_API: return parse_list(y, v, key, "a glob over qualified names", &c->public_api, err);
  case K_MAX_CAPACITY: return parse_capacity(y, v, c, err);
  case K_CACHE_DIR: return parse_cache_dir(y, v, c, err);
  case K_IGNORED: return 0;
  case K_INHERIT:
    if (hl_yaml_bool(y, v, key, &inherit, err)) return -1;
    if (!inherit) return 0;
    *err = hl_yaml_error(y, k, "InheritParentConfig: true is not supported: the nearest configuration applies alone");
    return -1;
  case K_REFUSED:
    *err = hl_yaml_error(y, k, "'%s' is not supported in a configuration: give --extra-arg or --extra-arg-before", key);
    return -1;
  default: return parse_rule_option(y, k, v, key, c, err);
  }
}

/* Parses c->path, or text when it is not NULL (-config=). */
static int parse(hl_config *c, const char *text, char **err) {
  hl_yaml y;
  int rc = text ? hl_yaml_load_text(&y, c->path, text, strlen(text), HL_CONFIG_MAX, "a configuration", err)
                : hl_yaml_load(&y, c->path, HL_CONFIG_MAX, "a configuration", err);
  if (rc) {
    hl_yaml_free(&y);
    return -1;
  }
  yaml_node_t *root = hl_yaml_root(&y);
  if (root && hl_yaml_expect(&y, root, YAML_MAPPING_NODE, "the configuration", err)) rc = -1;
  /* An empty document, or only comments: the defaults. */
  for (yaml_node_pair_t *p = root && !rc ? root->data.mapping.pairs.start : NULL;
       p && p < root->data.mapping.pairs.top && !rc; p++) {
    yaml_node_t *k = hl_yaml_node(&y, p->key), *v = hl_yaml_node(&y, p->value);
    const char *key = hl_yaml_scalar(&y, k, "a key", err);
    rc = key ? parse_key(&y, k, v, key, c, err) : -1;
  }
  hl_yaml_free(&y);
  return rc;
}

static void config_init(hl_config *c, const char *path, const hl_configs *C) {
  memset(c, 0, sizeof *c);
  c->path = path ? hl_xstrdup(path) : NULL;
  c->system_headers = c->use_color = -1;
  c->layer = &C->layer;
  c->registry = C->rules;
}

static hl_ere *cli_regex(const char *pattern, const char *option, char **err) {
  char *why = NULL;
  hl_ere *re = hl_ere_compile(pattern, &why);
  if (!re) {
    *err = hl_xasprintf("%s='%s': not a valid extended regular expression: %s", option, pattern, why);
    free(why);
  }
  return re;
}

hl_configs *hl_configs_new(const hl_config_cli *cli, const hl_rule *const *rules, char **err) {
  hl_configs *C = hl_xcalloc(1, sizeof *C);
  C->layer.cli = *cli;
  C->rules = rules;
  config_init(&C->defaults, NULL, C);
  if (cli->file) C->explicit_path = hl_abspath(cli->file);
  int bad = (cli->header_filter && *cli->header_filter &&
             !(C->layer.header_re = cli_regex(cli->header_filter, "-header-filter", err))) ||
            (cli->exclude_header_filter && *cli->exclude_header_filter &&
             !(C->layer.exclude_re = cli_regex(cli->exclude_header_filter, "-exclude-header-filter", err)));
  if (!bad && cli->text) {
    /* Its name in messages and in -explain-config; profiles it names are
     * relative to the current directory. */
    hl_config *c = hl_xcalloc(1, sizeof *c);
    config_init(c, "-config", C);
    HL_PUSH(C->loaded, C->nloaded, C->caploaded, c);
    C->inline_config = c;
    bad = parse(c, cli->text, err) != 0;
  }
  if (bad) {
    hl_configs_free(C);
    return NULL;
  }
  return C;
}

/* ---- discovery ---- */

static hl_config *load(hl_configs *C, const char *path, char **err) {
  unsigned long long h = hl_hindex_hash(path, strlen(path));
  size_t cursor = 0, i;
  while (hl_hindex_next(&C->paths, h, &cursor, &i))
    if (!strcmp(C->loaded[i]->path, path)) return C->loaded[i];
  hl_config *c = hl_xcalloc(1, sizeof *c);
  config_init(c, path, C);
  if (parse(c, NULL, err)) {
    config_free(c);
    free(c);
    return NULL;
  }
  hl_hindex_add(&C->paths, h, C->nloaded);
  HL_PUSH(C->loaded, C->nloaded, C->caploaded, c);
  return c;
}

int hl_config_for(hl_configs *C, const char *path, const hl_config **out, char **err) {
  if (C->inline_config) {
    *out = C->inline_config;
    return 0;
  }
  if (C->explicit_path) {
    hl_config *c = load(C, C->explicit_path, err);
    *out = c;
    return c ? 0 : -1;
  }
  char *dir = dir_of(path);
  unsigned long long h = hl_hindex_hash(dir, strlen(dir));
  size_t cursor = 0, i;
  while (hl_hindex_next(&C->dirs, h, &cursor, &i))
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
  hl_hindex_add(&C->dirs, h, C->n);
  HL_PUSH(C->v, C->n, C->cap, e);
  *out = found ? found : &C->defaults;
  return 0;
}

void hl_configs_files(const hl_configs *C, hl_strv *configs, hl_strv *profiles) {
  for (size_t i = 0; i < C->nloaded; i++) {
    if (C->loaded[i] != C->inline_config) hl_strv_addf(configs, "%s", C->loaded[i]->path);
    for (size_t k = 0; k < C->loaded[i]->nprofiles; k++) hl_strv_addf(profiles, "%s", C->loaded[i]->profiles[k]->path);
  }
}

static const hl_rule_setting *setting(const hl_config *c, const char *rule) {
  for (size_t i = 0; i < c->nrules; i++)
    if (!strcmp(c->rules[i].rule, rule)) return &c->rules[i];
  return NULL;
}

static const char *origin(const hl_config *c) {
  return c->path && !strcmp(c->path, "-config") ? "command-line option '-config'" : c->path;
}

int hl_config_enabled_by(const hl_config *c, const char *rule, const char **where) {
  const hl_rule_setting *s = setting(c, rule);
  int on = !s || s->enabled, v;
  const char *by = s ? origin(c) : "heaplint binary";
  if ((v = hl_globs_verdict(c->checks, rule))) on = v > 0, by = origin(c);
  if ((v = hl_globs_verdict(c->layer->cli.checks, rule))) on = v > 0, by = "command-line option '-checks'";
  if (where) *where = by;
  return on;
}

int hl_config_enabled(const hl_config *c, const char *rule) { return hl_config_enabled_by(c, rule, NULL); }

hl_severity hl_config_severity(const hl_config *c, const char *rule) {
  const hl_rule_setting *s = setting(c, rule);
  const hl_rule *r = hl_rule_in(c->registry, rule);
  hl_severity sev = s && s->has_severity               ? s->severity
                    : r && (r->flags & HL_RULE_ERRORS) ? HL_SEV_ERROR
                                                       : HL_SEV_WARNING;
  if (sev == HL_SEV_WARNING) {
    int as_error = c->werror_all, v;
    for (size_t i = 0; i < c->nwerror && !as_error; i++) as_error = !strcmp(c->werror[i], rule);
    if ((v = hl_globs_verdict(c->werror_globs, rule))) as_error = v > 0;
    if ((v = hl_globs_verdict(c->layer->cli.warnings_as_errors, rule))) as_error = v > 0;
    if (as_error) sev = HL_SEV_ERROR;
  }
  return sev;
}

int hl_config_shows_header(const hl_config *c, const char *path) {
  const hl_config_cli *cli = &c->layer->cli;
  /* -header-filter= (empty) shows no header, as in clang-tidy. */
  if (cli->header_filter ? !*cli->header_filter || !hl_ere_match(c->layer->header_re, path)
                         : c->header_re && !hl_ere_match(c->header_re, path))
    return 0;
  const hl_ere *exclude = cli->exclude_header_filter ? c->layer->exclude_re : c->exclude_re;
  return !exclude || !hl_ere_match(exclude, path);
}

const char *hl_config_public_api(const hl_config *c, const char *name) {
  for (size_t i = 0; name && i < c->public_api.n; i++)
    if (!fnmatch(c->public_api.v[i], name, 0)) return c->public_api.v[i];
  return NULL;
}

const hl_config *hl_config_policy_at(hl_config_policy *p, const char *file) {
  const hl_config *cfg = NULL;
  char *err = NULL;
  if (hl_config_for(p->configs, file, &cfg, &err)) cfg = p->fallback;
  free(err);
  return cfg;
}

static const char *policy_public_api(void *data, const char *file, const char *name) {
  return hl_config_public_api(hl_config_policy_at(data, file), name);
}

static long policy_max_capacity(void *data, const char *file) {
  return hl_config_policy_at(data, file)->max_inline_capacity;
}

hl_plan_policy hl_config_plan_policy(hl_config_policy *p) {
  return (hl_plan_policy){p, policy_public_api, policy_max_capacity};
}

int hl_config_system_headers(const hl_config *c) {
  return c->layer->cli.system_headers >= 0 ? c->layer->cli.system_headers : c->system_headers > 0;
}

/* ---- --verify-config ---- */

/* Levenshtein's distance, for "did you mean". */
static size_t distance(const char *a, const char *b) {
  size_t n = strlen(b), *row = hl_xcalloc(n + 1, sizeof *row);
  for (size_t j = 0; j <= n; j++) row[j] = j;
  for (size_t i = 1; a[i - 1]; i++) {
    size_t diag = row[0];
    row[0] = i;
    for (size_t j = 1; j <= n; j++) {
      size_t up = row[j], best = diag + (a[i - 1] != b[j - 1]);
      if (up + 1 < best) best = up + 1;
      if (row[j - 1] + 1 < best) best = row[j - 1] + 1;
      diag = up;
      row[j] = best;
    }
  }
  size_t d = row[n];
  free(row);
  return d;
}

typedef struct verify {
  const char *source;
  const char *const *ids;
  int warnings;
} verify;

static int verify_glob(const char *glob, int negative, void *data) {
  (void)negative;
  verify *v = data;
  int any = hl_starts_with(glob, "clang-diagnostic-");
  const char *closest = NULL;
  size_t best = 5;
  for (size_t i = 0; v->ids[i] && !any; i++) {
    any = hl_glob_match(glob, v->ids[i]);
    size_t d = distance(glob, v->ids[i]);
    if (d < best) best = d, closest = v->ids[i];
  }
  if (any) return 0;
  v->warnings++;
  if (strchr(glob, '*'))
    fprintf(stderr, "%s: warning: check glob '%s' doesn't match any known check\n", v->source, glob);
  else if (closest)
    fprintf(stderr, "%s: warning: unknown check '%s'; did you mean '%s'\n", v->source, glob, closest);
  else
    fprintf(stderr, "%s: warning: unknown check '%s'\n", v->source, glob);
  return 0;
}

int hl_config_verify(const hl_config *c, const char *const *rule_ids) {
  verify v = {c->path ? hl_display_path(c->path) : "", rule_ids, 0};
  if (c->path && !strcmp(c->path, "-config")) v.source = "command-line option '-config'";
  if (c->path) hl_globs_each(c->checks, verify_glob, &v);
  if (c->check_options) {
    fprintf(stderr, "%s: warning: CheckOptions has no effect: no heaplint rule has options\n", v.source);
    v.warnings++;
  }
  v.source = "command-line option '-checks'";
  hl_globs_each(c->layer->cli.checks, verify_glob, &v);
  return v.warnings;
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

static int write_out(void *data, unsigned char *buf, size_t size) { return fwrite(buf, 1, size, data) == size; }

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
    ok = scalar(&e, c->werror_globs ? c->werror_globs : c->werror_all ? "true" : "false");
  }
  const hl_config_cli *cli = &c->layer->cli;
  const char *hf = cli->header_filter ? cli->header_filter : c->header_filter;
  const char *xf = cli->exclude_header_filter ? cli->exclude_header_filter : c->exclude_header_filter;
  ok = ok && scalar(&e, "header-filter") && scalar(&e, hf ? hf : "");
  ok = ok && scalar(&e, "exclude-header-filter") && scalar(&e, xf ? xf : "");
  ok = ok && scalar(&e, "system-headers") && scalar(&e, hl_config_system_headers(c) ? "true" : "false");
  if (ok && c->cache_dir) ok = scalar(&e, "cache-dir") && scalar(&e, c->cache_dir);
  ok = ok && scalar(&e, "profiles") && hl_yaml_emit_open(&e, 0, 0);
  for (size_t i = 0; ok && i < c->nprofiles; i++) ok = scalar(&e, c->profiles[i]->path);
  ok = ok && hl_yaml_emit_close(&e, 0);
  ok = ok && scalar(&e, "wrappers") && hl_yaml_emit_open(&e, 0, 0);
  for (size_t i = 0; ok && c->overrides && i < c->overrides->nwrappers; i++) {
    const hl_wrapper *w = &c->overrides->wrappers[i];
    ok = hl_yaml_emit_open(&e, 1, 0) && scalar(&e, "name") && scalar(&e, w->name);
    if (ok && (w->given & HL_W_RULE)) ok = scalar(&e, "rule") && scalar(&e, w->rule);
    if (ok && (w->given & HL_W_BUFFER))
      ok = scalar(&e, "buffer") && hl_yaml_emit_open(&e, 1, 1) && scalar(&e, "size") &&
           hl_yaml_emit_number(&e, w->buffer_size) && scalar(&e, "align") && hl_yaml_emit_number(&e, w->buffer_align) &&
           hl_yaml_emit_close(&e, 1);
    if (ok && (w->given & HL_W_HEADER))
      ok = scalar(&e, "header") && hl_yaml_emit_open(&e, 1, 1) && scalar(&e, "size") &&
           hl_yaml_emit_number(&e, w->header_size) && scalar(&e, "align") && hl_yaml_emit_number(&e, w->header_align) &&
           hl_yaml_emit_close(&e, 1);
    if (ok && (w->given & HL_W_MAX_ALIGN)) ok = scalar(&e, "max-align") && hl_yaml_emit_number(&e, w->max_align);
    ok = ok && hl_yaml_emit_close(&e, 1);
  }
  ok = ok && hl_yaml_emit_close(&e, 0);
  if (ok && c->has_fallback) {
    ok = scalar(&e, "fallback-flags") && hl_yaml_emit_open(&e, 0, 1);
    for (size_t i = 0; ok && i < c->fallback_flags.n; i++) ok = scalar(&e, c->fallback_flags.v[i]);
    ok = ok && hl_yaml_emit_close(&e, 0);
  }
  for (size_t o = 0; ok && o < c->noptions; o++) {
    const hl_strv *items = &c->options[o].items;
    if (!items->n) continue;
    ok = scalar(&e, c->options[o].option->key) && hl_yaml_emit_open(&e, 0, 1);
    for (size_t i = 0; ok && i < items->n; i++) ok = scalar(&e, items->v[i]);
    ok = ok && hl_yaml_emit_close(&e, 0);
  }
  if (ok && c->public_api.n) {
    ok = scalar(&e, "public-api") && hl_yaml_emit_open(&e, 0, 1);
    for (size_t i = 0; ok && i < c->public_api.n; i++) ok = scalar(&e, c->public_api.v[i]);
    ok = ok && hl_yaml_emit_close(&e, 0);
  }
  if (ok && c->max_inline_capacity)
    ok = scalar(&e, "max-inline-capacity") && hl_yaml_emit_number(&e, c->max_inline_capacity);
  ok = ok && hl_yaml_emit_close(&e, 1);
  ok = ok && yaml_document_end_event_initialize(&ev, 1) && yaml_emitter_emit(&e, &ev) &&
       yaml_stream_end_event_initialize(&ev) && yaml_emitter_emit(&e, &ev);
  yaml_emitter_delete(&e);
  return ok ? 0 : -1;
}
