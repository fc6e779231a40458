#include "input/profile.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "engine/rule.h"
#include "util/strv.h"
#include "util/util.h"
#include "input/yamlfile.h"

#define PROFILE_FORMAT 1

typedef struct loader {
  hl_yaml y;
  char **err;
  const hl_rule *const *rules; /* whose sections a profile may state */
} loader;

static int is_pow2(long v) { return v > 0 && (v & (v - 1)) == 0; }

static int str_list(loader *L, yaml_node_t *node, const char *what, char ***out, size_t *n) {
  if (hl_yaml_expect(&L->y, node, YAML_SEQUENCE_NODE, what, L->err)) return -1;
  size_t cap = 0;
  for (yaml_node_item_t *it = node->data.sequence.items.start; it < node->data.sequence.items.top; it++) {
    const char *s = hl_yaml_scalar(&L->y, hl_yaml_node(&L->y, *it), what, L->err);
    if (!s) return -1;
    HL_PUSH(*out, *n, cap, hl_xstrdup(s));
  }
  return 0;
}

/* {size: N, align: N[, what: text]} */
static int size_align(loader *L, yaml_node_t *node, const char *what, long *size, long *align, char **desc) {
  if (hl_yaml_expect(&L->y, node, YAML_MAPPING_NODE, what, L->err)) return -1;
  int have_size = 0, have_align = 0;
  for (yaml_node_pair_t *p = node->data.mapping.pairs.start; p < node->data.mapping.pairs.top; p++) {
    yaml_node_t *k = hl_yaml_node(&L->y, p->key), *v = hl_yaml_node(&L->y, p->value);
    const char *key = hl_yaml_scalar(&L->y, k, "a key", L->err);
    if (!key) return -1;
    if (!strcmp(key, "size")) {
      if (hl_yaml_uint(&L->y, v, "size", size, L->err)) return -1;
      have_size = 1;
    } else if (!strcmp(key, "align")) {
      if (hl_yaml_uint(&L->y, v, "align", align, L->err)) return -1;
      if (!is_pow2(*align)) {
        *L->err = hl_yaml_error(&L->y, v, "align must be a power of two, not %ld", *align);
        return -1;
      }
      have_align = 1;
    } else if (desc && !strcmp(key, "what")) {
      const char *s = hl_yaml_scalar(&L->y, v, "what", L->err);
      if (!s) return -1;
      *desc = hl_xstrdup(s);
    } else {
      *L->err =
          hl_yaml_error(&L->y, k, "unknown key '%s' in %s (expected size, align%s)", key, what, desc ? ", what" : "");
      return -1;
    }
  }
  if (!have_size || !have_align) {
    *L->err = hl_yaml_error(&L->y, node, "%s needs both size and align", what);
    return -1;
  }
  return 0;
}

static int requirement(loader *L, yaml_node_t *node, unsigned *req) {
  const char *s = hl_yaml_scalar(&L->y, node, "a requirement", L->err);
  if (!s) return -1;
  if (!strcmp(s, "trivially-copyable"))
    *req |= HL_REQ_TRIVIALLY_COPYABLE;
  else if (!strcmp(s, "nothrow-copy-constructible"))
    *req |= HL_REQ_NOTHROW_COPY;
  else if (!strcmp(s, "nothrow-move-constructible"))
    *req |= HL_REQ_NOTHROW_MOVE;
  else {
    *L->err = hl_yaml_error(&L->y, node,
                            "unknown requirement '%s' (expected trivially-copyable, "
                            "nothrow-copy-constructible or nothrow-move-constructible)",
                            s);
    return -1;
  }
  return 0;
}

static void wrapper_free(hl_wrapper *w) {
  free(w->name);
  free(w->rule);
  free(w->header_what);
  free(w->source);
  free(w->replacement);
  for (size_t i = 0; i < w->nfactories; i++) free(w->factories[i]);
  free(w->factories);
  for (size_t i = 0; i < w->nemplacers; i++) free(w->emplacers[i]);
  free(w->emplacers);
}

static int wrapper(loader *L, yaml_node_t *node, hl_wrapper *w, int partial) {
  if (hl_yaml_expect(&L->y, node, YAML_MAPPING_NODE, "a wrapper", L->err)) return -1;
  for (yaml_node_pair_t *p = node->data.mapping.pairs.start; p < node->data.mapping.pairs.top; p++) {
    yaml_node_t *k = hl_yaml_node(&L->y, p->key), *v = hl_yaml_node(&L->y, p->value);
    const char *key = hl_yaml_scalar(&L->y, k, "a key", L->err);
    const char *s;
    if (!key) return -1;
    if (!strcmp(key, "name") || !strcmp(key, "rule") || !strcmp(key, "source") || !strcmp(key, "replacement")) {
      if (!(s = hl_yaml_scalar(&L->y, v, key, L->err))) return -1;
      char **dst = !strcmp(key, "name")     ? &w->name
                   : !strcmp(key, "rule")   ? &w->rule
                   : !strcmp(key, "source") ? &w->source
                                            : &w->replacement;
      free(*dst);
      *dst = hl_xstrdup(s);
      w->given |= !strcmp(key, "rule")          ? HL_W_RULE
                  : !strcmp(key, "source")      ? HL_W_SOURCE
                  : !strcmp(key, "replacement") ? HL_W_REPLACEMENT
                                                : 0;
    } else if (!strcmp(key, "buffer")) {
      if (size_align(L, v, "buffer", &w->buffer_size, &w->buffer_align, NULL)) return -1;
      w->given |= HL_W_BUFFER;
    } else if (!strcmp(key, "header")) {
      if (size_align(L, v, "header", &w->header_size, &w->header_align, &w->header_what)) return -1;
      w->given |= HL_W_HEADER;
    } else if (!strcmp(key, "max-align")) {
      w->given |= HL_W_MAX_ALIGN;
      if (hl_yaml_uint(&L->y, v, "max-align", &w->max_align, L->err)) return -1;
      if (!is_pow2(w->max_align)) {
        *L->err = hl_yaml_error(&L->y, v, "max-align must be a power of two, not %ld", w->max_align);
        return -1;
      }
    } else if (!strcmp(key, "requires")) {
      w->given |= HL_W_REQUIRES;
      if (hl_yaml_expect(&L->y, v, YAML_SEQUENCE_NODE, "requires", L->err)) return -1;
      for (yaml_node_item_t *it = v->data.sequence.items.start; it < v->data.sequence.items.top; it++)
        if (requirement(L, hl_yaml_node(&L->y, *it), &w->requires)) return -1;
    } else if (!strcmp(key, "factories")) {
      w->given |= HL_W_FACTORIES;
      if (str_list(L, v, "factories", &w->factories, &w->nfactories)) return -1;
    } else if (!strcmp(key, "emplace")) {
      w->given |= HL_W_EMPLACE;
      if (str_list(L, v, "emplace", &w->emplacers, &w->nemplacers)) return -1;
    } else {
      *L->err = hl_yaml_error(&L->y, k,
                              "unknown key '%s' in a wrapper (expected name, rule, buffer, header, "
                              "max-align, requires, factories, emplace, replacement, source)",
                              key);
      return -1;
    }
  }
  if (!w->name || (!partial && (!w->rule || !(w->given & HL_W_BUFFER)))) {
    *L->err = hl_yaml_error(&L->y, node, partial ? "a wrapper needs a name" : "a wrapper needs name, rule and buffer");
    return -1;
  }
  if ((w->given & HL_W_BUFFER) && w->buffer_size == 0) {
    *L->err = hl_yaml_error(&L->y, node, "wrapper '%s': buffer size must be positive", w->name);
    return -1;
  }
  if ((w->given & HL_W_BUFFER) && w->header_size >= w->buffer_size) {
    *L->err = hl_yaml_error(&L->y, node, "wrapper '%s': header (%ld bytes) leaves no room in a %ld-byte buffer",
                            w->name, w->header_size, w->buffer_size);
    return -1;
  }
  return 0;
}

int hl_profile_wrappers_from_yaml(hl_yaml *y, void *seq_node, int partial, hl_profile *p, char **err) {
  yaml_node_t *seq = seq_node;
  if (hl_yaml_expect(y, seq, YAML_SEQUENCE_NODE, "wrappers", err)) return -1;
  loader L = {*y, err, NULL}; /* wrappers only: no section */
  size_t cap = p->nwrappers;
  for (yaml_node_item_t *it = seq->data.sequence.items.start; it < seq->data.sequence.items.top; it++) {
    hl_wrapper w = {0};
    w.profile = p;
    if (wrapper(&L, hl_yaml_node(y, *it), &w, partial)) {
      wrapper_free(&w);
      return -1;
    }
    HL_PUSH(p->wrappers, p->nwrappers, cap, w);
  }
  return 0;
}

/* A mapping from the n names of names to counts, into out[index of the
 * name]: string.sso-capacity's character types, shared-state's makers.
 * noun is what a key is called in the error of an unknown one. */
static int name_counts(loader *L, yaml_node_t *node, const char *what, const char *noun, const char *const *names,
                       size_t n, long *out) {
  if (hl_yaml_expect(&L->y, node, YAML_MAPPING_NODE, what, L->err)) return -1;
  for (yaml_node_pair_t *p = node->data.mapping.pairs.start; p < node->data.mapping.pairs.top; p++) {
    yaml_node_t *k = hl_yaml_node(&L->y, p->key);
    const char *key = hl_yaml_scalar(&L->y, k, "a key", L->err);
    if (!key) return -1;
    size_t t = hl_str_index(key, names, n);
    if (t == n) {
      hl_sb expected = {0};
      for (size_t i = 0; i < n; i++) hl_sb_printf(&expected, "%s%s", i == 0 ? "" : i + 1 < n ? ", " : " or ", names[i]);
      *L->err = hl_yaml_error(&L->y, k, "unknown %s '%s' in %s (expected %s)", noun, key, what, hl_sb_str(&expected));
      hl_sb_free(&expected);
      return -1;
    }
    char item[64];
    snprintf(item, sizeof item, "%s.%s", what, key);
    if (hl_yaml_uint(&L->y, hl_yaml_node(&L->y, p->value), item, &out[t], L->err)) return -1;
  }
  return 0;
}

static int sub_mapping(loader *L, yaml_node_t *node, const char *what, const char *only_key, yaml_node_t **value) {
  if (hl_yaml_expect(&L->y, node, YAML_MAPPING_NODE, what, L->err)) return -1;
  for (yaml_node_pair_t *p = node->data.mapping.pairs.start; p < node->data.mapping.pairs.top; p++) {
    yaml_node_t *k = hl_yaml_node(&L->y, p->key);
    const char *key = hl_yaml_scalar(&L->y, k, "a key", L->err);
    if (!key) return -1;
    if (strcmp(key, only_key)) {
      *L->err = hl_yaml_error(&L->y, k, "unknown key '%s' in %s (expected %s)", key, what, only_key);
      return -1;
    }
    *value = hl_yaml_node(&L->y, p->value);
  }
  return 0;
}

/* The numbers of section s in *v (n of them), added with none stated the
 * first time; with from, also the profile stating each (a selection's). */
static hl_profile_numbers *numbers_of(hl_profile_numbers **v, size_t *n, const hl_profile_section *s, int from) {
  for (size_t i = 0; i < *n; i++)
    if ((*v)[i].section == s) return &(*v)[i];
  *v = hl_xrealloc(*v, (*n + 1) * sizeof **v);
  hl_profile_numbers *x = &(*v)[(*n)++];
  x->section = s;
  x->v = hl_xcalloc(s->n, sizeof *x->v);
  for (size_t t = 0; t < s->n; t++) x->v[t] = -1;
  x->from = from ? hl_xcalloc(s->n, sizeof *x->from) : NULL;
  return x;
}

static void numbers_free(hl_profile_numbers *v, size_t n) {
  for (size_t i = 0; i < n; i++) {
    free(v[i].v);
    free(v[i].from);
  }
  free(v);
}

/* A rule's section (hl_rule.profile): under its subkey when it has one, a
 * mapping from its names to counts, or a bare number for its scalar name
 * ("string: {sso-capacity: 15}": std::string's capacity, in chars). */
static int section(loader *L, yaml_node_t *node, const hl_profile_section *s, hl_profile *P) {
  if (s->subkey) {
    yaml_node_t *sub = NULL;
    if (sub_mapping(L, node, s->key, s->subkey, &sub)) return -1;
    if (!(node = sub)) return 0;
  }
  char *what = s->subkey ? hl_xasprintf("%s.%s", s->key, s->subkey) : hl_xstrdup(s->key);
  long *out = numbers_of(&P->numbers, &P->nnumbers, s, 0)->v;
  int rc = s->scalar >= 0 && node->type == YAML_SCALAR_NODE ? hl_yaml_uint(&L->y, node, what, &out[s->scalar], L->err)
                                                            : name_counts(L, node, what, s->noun, s->names, s->n, out);
  free(what);
  return rc;
}

/* The section one of rules declares under key, or NULL. */
static const hl_profile_section *section_named(const hl_rule *const *rules, const char *key) {
  for (size_t r = 0; rules[r]; r++)
    for (const hl_profile_section *s = rules[r]->profile; s && s->key; s++)
      if (!strcmp(s->key, key)) return s;
  return NULL;
}

static int unknown_key(loader *L, yaml_node_t *k, const char *key) {
  hl_sb sections = {0};
  for (size_t r = 0; L->rules[r]; r++)
    for (const hl_profile_section *s = L->rules[r]->profile; s && s->key; s++) hl_sb_printf(&sections, "%s, ", s->key);
  *L->err = hl_yaml_error(&L->y, k,
                          "unknown key '%s' (expected heaplint-profile, library, abi, description, "
                          "detect, target, %swrappers)",
                          key, hl_sb_str(&sections));
  hl_sb_free(&sections);
  return -1;
}

/* detect: {include: <file>, namespace: <name>, no-namespace: <name>}. */
static int detect(loader *L, yaml_node_t *node, hl_profile *P) {
  static const char *const keys[] = {"include", "namespace", "no-namespace"};
  char **dst[] = {&P->detect_include, &P->detect_namespace, &P->detect_no_namespace};
  if (hl_yaml_expect(&L->y, node, YAML_MAPPING_NODE, "detect", L->err)) return -1;
  for (yaml_node_pair_t *p = node->data.mapping.pairs.start; p < node->data.mapping.pairs.top; p++) {
    yaml_node_t *k = hl_yaml_node(&L->y, p->key);
    const char *key = hl_yaml_scalar(&L->y, k, "a key", L->err), *s;
    if (!key) return -1;
    size_t i = hl_str_index(key, keys, sizeof keys / sizeof *keys);
    if (i == sizeof keys / sizeof *keys) {
      *L->err = hl_yaml_error(&L->y, k, "unknown key '%s' in detect (expected include, namespace, no-namespace)", key);
      return -1;
    }
    char *what = hl_xasprintf("detect.%s", key);
    s = hl_yaml_scalar(&L->y, hl_yaml_node(&L->y, p->value), what, L->err);
    free(what);
    if (!s) return -1;
    free(*dst[i]);
    *dst[i] = hl_xstrdup(s);
  }
  return 0;
}

/* An ABI variant is told apart by a namespace and named in messages: one
 * without the other would be chosen for the wrong units, or not named. */
static int abi_named(loader *L, yaml_node_t *root, hl_profile *P) {
  int told = P->detect_namespace || P->detect_no_namespace;
  if (!P->abi != !told || (P->abi && !P->library)) {
    *L->err = hl_yaml_error(&L->y, root,
                            P->abi && !told ? "'abi' needs detect.namespace or detect.no-namespace to tell it apart"
                            : P->abi        ? "'abi' needs the library it is an ABI of ('library')"
                                            : "detect.namespace and detect.no-namespace need 'abi' to name the ABI");
    return -1;
  }
  if (P->abi) P->named = hl_xasprintf("%s's %s", P->library, P->abi);
  return 0;
}

static int profile_body(loader *L, hl_profile *P) {
  yaml_node_t *root = hl_yaml_root(&L->y);
  if (!root) {
    *L->err = hl_yaml_error(&L->y, NULL, "the file is empty (expected a profile)");
    return -1;
  }
  if (hl_yaml_expect(&L->y, root, YAML_MAPPING_NODE, "a profile", L->err)) return -1;
  long version = -1;
  size_t cap = 0;
  for (yaml_node_pair_t *p = root->data.mapping.pairs.start; p < root->data.mapping.pairs.top; p++) {
    yaml_node_t *k = hl_yaml_node(&L->y, p->key), *v = hl_yaml_node(&L->y, p->value);
    const char *key = hl_yaml_scalar(&L->y, k, "a key", L->err);
    const char *s;
    yaml_node_t *sub = NULL;
    if (!key) return -1;
    if (!strcmp(key, "heaplint-profile")) {
      if (hl_yaml_uint(&L->y, v, key, &version, L->err)) return -1;
      if (version != PROFILE_FORMAT) {
        *L->err = hl_yaml_error(&L->y, v, "profile format %ld is not supported (this heaplint reads format %d)",
                                version, PROFILE_FORMAT);
        return -1;
      }
    } else if (!strcmp(key, "library") || !strcmp(key, "description")) {
      if (!(s = hl_yaml_scalar(&L->y, v, key, L->err))) return -1;
      char **dst = key[0] == 'l' ? &P->library : &P->description;
      free(*dst);
      *dst = hl_xstrdup(s);
    } else if (!strcmp(key, "abi")) {
      if (!(s = hl_yaml_scalar(&L->y, v, key, L->err))) return -1;
      free(P->abi);
      P->abi = hl_xstrdup(s);
    } else if (!strcmp(key, "detect")) {
      if (detect(L, v, P)) return -1;
    } else if (!strcmp(key, "target")) {
      long w = 0;
      if (sub_mapping(L, v, "target", "pointer-width", &sub)) return -1;
      if (sub && hl_yaml_uint(&L->y, sub, "target.pointer-width", &w, L->err)) return -1;
      if (sub && w != 32 && w != 64) {
        *L->err = hl_yaml_error(&L->y, sub, "pointer-width must be 32 or 64, not %ld", w);
        return -1;
      }
      P->pointer_width = (int)w;
    } else if (section_named(L->rules, key)) {
      if (section(L, v, section_named(L->rules, key), P)) return -1;
    } else if (!strcmp(key, "wrappers")) {
      if (hl_yaml_expect(&L->y, v, YAML_SEQUENCE_NODE, "wrappers", L->err)) return -1;
      for (yaml_node_item_t *it = v->data.sequence.items.start; it < v->data.sequence.items.top; it++) {
        hl_wrapper w = {0};
        w.profile = P;
        int rc = wrapper(L, hl_yaml_node(&L->y, *it), &w, 0);
        if (rc) {
          wrapper_free(&w);
          return -1;
        }
        HL_PUSH(P->wrappers, P->nwrappers, cap, w);
      }
    } else {
      return unknown_key(L, k, key);
    }
  }
  if (version < 0) {
    *L->err = hl_yaml_error(&L->y, root, "not a heaplint profile: 'heaplint-profile: %d' is missing", PROFILE_FORMAT);
    return -1;
  }
  return abi_named(L, root, P);
}

int hl_profile_load(const char *path, const hl_rule *const *rules, hl_profile **out, char **err) {
  loader L = {.err = err, .rules = rules};
  hl_profile *P = hl_xcalloc(1, sizeof *P);
  P->path = hl_xstrdup(path);
  int rc = hl_yaml_load(&L.y, path, HL_PROFILE_MAX, "a profile", err);
  if (!rc) rc = profile_body(&L, P);
  hl_yaml_free(&L.y);
  if (rc) {
    hl_profile_free(P);
    return -1;
  }
  *out = P;
  return 0;
}

void hl_profile_free(hl_profile *p) {
  if (!p) return;
  for (size_t i = 0; i < p->nwrappers; i++) wrapper_free(&p->wrappers[i]);
  free(p->wrappers);
  numbers_free(p->numbers, p->nnumbers);
  free(p->path);
  free(p->library);
  free(p->description);
  free(p->detect_include);
  free(p->abi);
  free(p->named);
  free(p->detect_namespace);
  free(p->detect_no_namespace);
  free(p);
}

static int by_name(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

int hl_profiles_load_dir(hl_profile_set *set, const char *dir, char **err) {
  DIR *d = opendir(dir);
  if (!d) {
    *err = hl_xasprintf("%s: cannot open the profile directory: %s", dir, strerror(errno));
    return -1;
  }
  char **names = NULL;
  size_t n = 0, cap = 0;
  struct dirent *e;
  while ((e = readdir(d)))
    if (e->d_name[0] != '.' && hl_ends_with(e->d_name, ".yaml")) HL_PUSH(names, n, cap, hl_xstrdup(e->d_name));
  closedir(d);
  /* Directory order is arbitrary; loading in name order keeps runs reproducible. */
  if (n) qsort(names, n, sizeof *names, by_name); /* names is NULL when there are none */
  int rc = 0;
  for (size_t i = 0; i < n; i++) {
    char *path = hl_xasprintf("%s/%s", dir, names[i]);
    hl_profile *p;
    if (!rc && hl_profile_load(path, set->rules, &p, err) == 0)
      HL_PUSH(set->base, set->nbase, set->capbase, p);
    else
      rc = -1;
    free(path);
    free(names[i]);
  }
  free(names);
  if (!rc && n == 0) {
    *err = hl_xasprintf("%s: no profiles (*.yaml) in the profile directory", dir);
    rc = -1;
  }
  return rc;
}

int hl_profiles_add_extra(hl_profile_set *set, const char *path, char **err) {
  hl_profile *p;
  if (hl_profile_load(path, set->rules, &p, err)) return -1;
  HL_PUSH(set->extra, set->nextra, set->capextra, p);
  return 0;
}

void hl_profiles_free(hl_profile_set *set) {
  for (size_t i = 0; i < set->nbase; i++) hl_profile_free(set->base[i]);
  for (size_t i = 0; i < set->nextra; i++) hl_profile_free(set->extra[i]);
  free(set->base);
  free(set->extra);
  memset(set, 0, sizeof *set);
}

static int path_ends_with_component(const char *path, const char *suffix) {
  size_t a = strlen(path), b = strlen(suffix);
  return a > b && memcmp(path + a - b, suffix, b) == 0 && path[a - b - 1] == '/';
}

const hl_profile *hl_profiles_detect(const hl_profile_set *set, const char *included_path) {
  for (size_t i = 0; i < set->nextra + set->nbase; i++) {
    const hl_profile *p = i < set->nextra ? set->extra[i] : set->base[i - set->nextra];
    if (p->detect_include && p->library && path_ends_with_component(included_path, p->detect_include)) return p;
  }
  return NULL;
}

/* Whether the unit uses the ABI variant p describes (true for a profile
 * of no variant). */
static int abi_holds(const hl_profile *p, const hl_unit_namespaces *unit) {
  if (!p->abi) return 1;
  if (!unit->declares) return 0;
  if (p->detect_namespace && !unit->declares(unit->data, p->detect_namespace)) return 0;
  return !p->detect_no_namespace || !unit->declares(unit->data, p->detect_no_namespace);
}

static int applies(const hl_profile *p, const char *library, int pointer_width, const hl_unit_namespaces *unit) {
  if (p->library && (!library || strcmp(p->library, library))) return 0;
  return (p->pointer_width == 0 || p->pointer_width == pointer_width) && abi_holds(p, unit);
}

/* The index in sel->v of the wrapper called name, or sel->n. */
static size_t selected(const hl_selection *sel, const char *name) {
  size_t cursor = 0, k;
  unsigned long long h = hl_hindex_hash(name, strlen(name));
  while (hl_hindex_next(&sel->names, h, &cursor, &k))
    if (!strcmp(sel->v[k]->name, name)) return k;
  return sel->n;
}

static void select_new(hl_selection *sel, const hl_wrapper *w) {
  hl_hindex_add(&sel->names, hl_hindex_hash(w->name, strlen(w->name)), sel->n);
  HL_PUSH(sel->v, sel->n, sel->cap, w);
}

static void used(hl_selection *sel, const hl_profile *p) {
  for (size_t i = 0; i < sel->nused; i++)
    if (sel->used[i] == p) return;
  HL_PUSH(sel->used, sel->nused, sel->capused, p);
}

void hl_selection_init(hl_selection *sel, const hl_profile_set *set, const char *library, int pointer_width,
                       const hl_unit_namespaces *unit) {
  memset(sel, 0, sizeof *sel);
  if (unit) sel->unit = *unit;
  /* The profile of the unit's ABI variant first, the library's default after. */
  for (int variant = 1; variant >= 0 && !sel->base; variant--)
    for (size_t i = 0; i < set->nbase && !sel->base; i++)
      if (set->base[i]->library && !set->base[i]->abi == !variant &&
          applies(set->base[i], library, pointer_width, &sel->unit))
        sel->base = set->base[i];
  if (sel->base) hl_selection_layer(sel, sel->base, library, pointer_width);
  for (size_t i = 0; i < set->nextra; i++) hl_selection_layer(sel, set->extra[i], library, pointer_width);
}

void hl_profile_set_number(hl_profile *p, const hl_profile_section *s, size_t name, long v) {
  numbers_of(&p->numbers, &p->nnumbers, s, 0)->v[name] = v;
}

const hl_profile_section *hl_profile_section_of(const hl_rule *const *rules, const char *key) {
  return section_named(rules, key);
}

long hl_profile_number(const hl_profile *p, const hl_profile_section *s, size_t name) {
  for (size_t i = 0; i < p->nnumbers; i++)
    if (p->numbers[i].section == s) return p->numbers[i].v[name];
  return -1;
}

/* Lays the numbers p states over sel's. Returns whether it states any. */
static int layer_numbers(hl_selection *sel, const hl_profile *p) {
  int data = 0;
  for (size_t i = 0; i < p->nnumbers; i++) {
    const hl_profile_numbers *x = &p->numbers[i];
    for (size_t t = 0; t < x->section->n; t++)
      if (x->v[t] >= 0) {
        hl_profile_numbers *y = numbers_of(&sel->numbers, &sel->nnumbers, x->section, 1);
        y->v[t] = x->v[t];
        y->from[t] = p;
        data = 1;
      }
  }
  return data;
}

void hl_selection_layer(hl_selection *sel, const hl_profile *p, const char *library, int pointer_width) {
  if (!applies(p, library, pointer_width, &sel->unit)) return;
  int data = layer_numbers(sel, p); /* a rule's numbers (string capacities, ...) */
  if (p->nwrappers == 0 && !data) return;
  used(sel, p);
  for (size_t j = 0; j < p->nwrappers; j++) {
    size_t k = selected(sel, p->wrappers[j].name);
    if (k < sel->n)
      sel->v[k] = &p->wrappers[j];
    else
      select_new(sel, &p->wrappers[j]);
  }
}

static char **dup_list(char *const *v, size_t n) {
  char **r = hl_xcalloc(n ? n : 1, sizeof *r);
  for (size_t i = 0; i < n; i++) r[i] = hl_xstrdup(v[i]);
  return r;
}

static char *dup_opt(const char *s) { return s ? hl_xstrdup(s) : NULL; }

void hl_selection_overlay(hl_selection *sel, const hl_profile *p) {
  for (size_t j = 0; j < p->nwrappers; j++) {
    const hl_wrapper *o = &p->wrappers[j];
    size_t k = selected(sel, o->name);
    if (k == sel->n) {
      /* Naming no selected wrapper, only a complete entry can stand. */
      if ((o->given & (HL_W_RULE | HL_W_BUFFER)) == (HL_W_RULE | HL_W_BUFFER)) select_new(sel, o);
      continue;
    }
    const hl_wrapper *b = sel->v[k];
    hl_wrapper *m = hl_xcalloc(1, sizeof *m);
    m->given = b->given | o->given;
    m->name = hl_xstrdup(b->name);
    m->rule = hl_xstrdup((o->given & HL_W_RULE) ? o->rule : b->rule);
    const hl_wrapper *buf = (o->given & HL_W_BUFFER) ? o : b, *hdr = (o->given & HL_W_HEADER) ? o : b;
    m->buffer_size = buf->buffer_size;
    m->buffer_align = buf->buffer_align;
    m->header_size = hdr->header_size;
    m->header_align = hdr->header_align;
    m->header_what = dup_opt(hdr->header_what);
    m->max_align = ((o->given & HL_W_MAX_ALIGN) ? o : b)->max_align;
    m->
      requires
    = ((o->given & HL_W_REQUIRES) ? o : b)
          ->
        requires;
    const hl_wrapper *fa = (o->given & HL_W_FACTORIES) ? o : b, *em = (o->given & HL_W_EMPLACE) ? o : b;
    m->factories = dup_list(fa->factories, fa->nfactories);
    m->nfactories = fa->nfactories;
    m->emplacers = dup_list(em->emplacers, em->nemplacers);
    m->nemplacers = em->nemplacers;
    m->source = dup_opt(((o->given & HL_W_SOURCE) ? o : b)->source);
    m->replacement = dup_opt(((o->given & HL_W_REPLACEMENT) ? o : b)->replacement);
    /* Its numbers now come from the override's file. */
    m->profile = p;
    HL_PUSH(sel->owned, sel->nowned, sel->capowned, m);
    sel->v[k] = m;
  }
  if (p->nwrappers) used(sel, p);
}

void hl_selection_free(hl_selection *sel) {
  for (size_t i = 0; i < sel->nowned; i++) {
    wrapper_free(sel->owned[i]);
    free(sel->owned[i]);
  }
  free(sel->owned);
  free(sel->v);
  free(sel->used);
  numbers_free(sel->numbers, sel->nnumbers);
  hl_hindex_free(&sel->names);
  memset(sel, 0, sizeof *sel);
}

char *hl_profiles_default_dir(void) {
  const char *env = getenv("HEAPLINT_PROFILE_DIR");
  if (env && *env) return hl_xstrdup(env);
  return hl_exe_relative("../share/heaplint/profiles", HEAPLINT_INSTALL_PROFILE_DIR);
}

int hl_profiles_load(hl_profile_set *set, const char *dir, char *const *extra, size_t nextra,
                     const hl_rule *const *rules, char **err) {
  set->rules = rules;
  char *d = dir ? hl_xstrdup(dir) : hl_profiles_default_dir();
  int rc = hl_profiles_load_dir(set, d, err);
  for (size_t i = 0; !rc && i < nextra; i++) rc = hl_profiles_add_extra(set, extra[i], err);
  /* A profile naming a rule heaplint does not have is a typo, not a wish. */
  for (size_t i = 0; !rc && i < set->nbase + set->nextra; i++) {
    const hl_profile *p = i < set->nbase ? set->base[i] : set->extra[i - set->nbase];
    for (size_t k = 0; !rc && k < p->nwrappers; k++)
      if (!hl_rule_in(rules, p->wrappers[k].rule)) {
        *err = hl_xasprintf("%s: wrapper '%s' names an unknown rule '%s' (see heaplint --list-rules)", p->path,
                            p->wrappers[k].name, p->wrappers[k].rule);
        rc = -1;
      }
  }
  free(d);
  return rc;
}
