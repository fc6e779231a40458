#include "calibrate/profile_write.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

typedef struct writer {
  yaml_emitter_t e;
  hl_sb out;
  int failed;
} writer;

static int collect(void *data, unsigned char *buffer, size_t size) {
  hl_sb_putn(data, (const char *)buffer, size);
  return 1;
}

/* Emits event (the emitter owns it, emitted or not); after the first
 * failure only frees. */
static void emit(writer *w, yaml_event_t *event, int made) {
  if (!made) w->failed = 1;
  if (w->failed) {
    if (made) yaml_event_delete(event);
    return;
  }
  if (!yaml_emitter_emit(&w->e, event)) w->failed = 1;
}

static void scalar(writer *w, const char *s) {
  yaml_event_t e;
  emit(w, &e,
       yaml_scalar_event_initialize(&e, NULL, NULL, (yaml_char_t *)s, (int)strlen(s), 1, 1, YAML_ANY_SCALAR_STYLE));
}

static void number(writer *w, long v) {
  char s[32];
  snprintf(s, sizeof s, "%ld", v);
  scalar(w, s);
}

static void mapping(writer *w, int flow) {
  yaml_event_t e;
  emit(w, &e,
       yaml_mapping_start_event_initialize(&e, NULL, NULL, 1,
                                           flow ? YAML_FLOW_MAPPING_STYLE : YAML_BLOCK_MAPPING_STYLE));
}

static void sequence(writer *w, int flow) {
  yaml_event_t e;
  emit(w, &e,
       yaml_sequence_start_event_initialize(&e, NULL, NULL, 1,
                                            flow ? YAML_FLOW_SEQUENCE_STYLE : YAML_BLOCK_SEQUENCE_STYLE));
}

static void mapping_end(writer *w) {
  yaml_event_t e;
  emit(w, &e, yaml_mapping_end_event_initialize(&e));
}

static void sequence_end(writer *w) {
  yaml_event_t e;
  emit(w, &e, yaml_sequence_end_event_initialize(&e));
}

static void key_text(writer *w, const char *key, const char *value) {
  if (!value) return;
  scalar(w, key);
  scalar(w, value);
}

static void key_number(writer *w, const char *key, long value) {
  scalar(w, key);
  number(w, value);
}

static void string_list(writer *w, const char *key, char *const *v, size_t n) {
  if (n == 0) return;
  scalar(w, key);
  sequence(w, 1);
  for (size_t i = 0; i < n; i++) scalar(w, v[i]);
  sequence_end(w);
}

static const struct {
  unsigned bit;
  const char *name;
} requirements[] = {
    {HL_REQ_TRIVIALLY_COPYABLE, "trivially-copyable"},
    {HL_REQ_NOTHROW_COPY, "nothrow-copy-constructible"},
    {HL_REQ_NOTHROW_MOVE, "nothrow-move-constructible"},
};
#define NREQUIREMENTS (sizeof requirements / sizeof *requirements)

static void wrapper(writer *w, const hl_wrapper *x) {
  mapping(w, 0);
  key_text(w, "name", x->name);
  key_text(w, "rule", x->rule);
  scalar(w, "buffer");
  mapping(w, 1);
  key_number(w, "size", x->buffer_size);
  key_number(w, "align", x->buffer_align);
  mapping_end(w);
  if (x->header_size > 0) {
    scalar(w, "header");
    mapping(w, 1);
    key_number(w, "size", x->header_size);
    key_number(w, "align", x->header_align);
    key_text(w, "what", x->header_what);
    mapping_end(w);
  }
  if (x->max_align > 0) key_number(w, "max-align", x->max_align);
  /* Always stated, even empty: "nothing required" was measured too. */
  scalar(w, "requires");
  sequence(w, 1);
  for (size_t i = 0; i < NREQUIREMENTS; i++)
    if (x->requires & requirements[i].bit) scalar(w, requirements[i].name);
  sequence_end(w);
  string_list(w, "factories", x->factories, x->nfactories);
  string_list(w, "emplace", x->emplacers, x->nemplacers);
  key_text(w, "replacement", x->replacement);
  key_text(w, "source", x->source);
  mapping_end(w);
}

/* A rule's section, the names stated: "string: sso-capacity: {char: 15,
 * ...}", "shared-state: {std::promise: 2, ...}". */
static void section(writer *w, const hl_profile_numbers *x) {
  const hl_profile_section *s = x->section;
  size_t n = 0;
  for (size_t t = 0; t < s->n; t++) n += x->v[t] >= 0;
  if (!n) return;
  scalar(w, s->key);
  if (s->subkey) {
    mapping(w, 0);
    scalar(w, s->subkey);
  }
  mapping(w, 1);
  for (size_t t = 0; t < s->n; t++)
    if (x->v[t] >= 0) key_number(w, s->names[t], x->v[t]);
  mapping_end(w);
  if (s->subkey) mapping_end(w);
}

static void body(writer *w, const hl_profile *p) {
  mapping(w, 0);
  key_number(w, "heaplint-profile", 1);
  key_text(w, "library", p->library);
  key_text(w, "abi", p->abi);
  key_text(w, "description", p->description);
  if (p->detect_include) {
    scalar(w, "detect");
    mapping(w, 0);
    key_text(w, "include", p->detect_include);
    key_text(w, "namespace", p->detect_namespace);
    key_text(w, "no-namespace", p->detect_no_namespace);
    mapping_end(w);
  }
  if (p->pointer_width) {
    scalar(w, "target");
    mapping(w, 0);
    key_number(w, "pointer-width", p->pointer_width);
    mapping_end(w);
  }
  for (size_t i = 0; i < p->nnumbers; i++) section(w, &p->numbers[i]);
  scalar(w, "wrappers");
  sequence(w, 0);
  for (size_t i = 0; i < p->nwrappers; i++) wrapper(w, &p->wrappers[i]);
  sequence_end(w);
  mapping_end(w);
}

int hl_profile_write(const hl_profile *p, char **text, char **err) {
  writer w;
  memset(&w, 0, sizeof w);
  if (!yaml_emitter_initialize(&w.e)) {
    *err = hl_xstrdup("cannot initialize the YAML emitter");
    return -1;
  }
  yaml_emitter_set_output(&w.e, collect, &w.out);
  yaml_emitter_set_unicode(&w.e, 1);
  yaml_emitter_set_width(&w.e, -1);
  yaml_event_t e;
  emit(&w, &e, yaml_stream_start_event_initialize(&e, YAML_UTF8_ENCODING));
  emit(&w, &e, yaml_document_start_event_initialize(&e, NULL, NULL, NULL, 1));
  body(&w, p);
  emit(&w, &e, yaml_document_end_event_initialize(&e, 1));
  emit(&w, &e, yaml_stream_end_event_initialize(&e));
  int rc = 0;
  if (w.failed || !yaml_emitter_flush(&w.e)) {
    *err = hl_xasprintf("cannot write the profile as YAML: %s", w.e.problem ? w.e.problem : "out of memory");
    hl_sb_free(&w.out);
    rc = -1;
  } else {
    *text = hl_sb_take(&w.out);
  }
  yaml_emitter_delete(&w.e);
  return rc;
}

/* ---- differences ---- */

static void text_field(hl_strv *out, const char *where, const char *what, const char *got, const char *want) {
  if (got == want || (got && want && !strcmp(got, want))) return;
  hl_strv_addf(out, "%s%s: measured %s, the profile says %s", where, what, got ? got : "none", want ? want : "none");
}

static void number_field(hl_strv *out, const char *where, const char *what, long got, long want, long none) {
  if (got == want) return;
  char g[32] = "none", w[32] = "none";
  if (got != none) snprintf(g, sizeof g, "%ld", got);
  if (want != none) snprintf(w, sizeof w, "%ld", want);
  hl_strv_addf(out, "%s%s: measured %s, the profile says %s", where, what, g, w);
}

static char *requirements_text(unsigned r) {
  hl_sb b = {0};
  hl_sb_putc(&b, '[');
  for (size_t i = 0; i < NREQUIREMENTS; i++)
    if (r & requirements[i].bit) hl_sb_printf(&b, "%s%s", b.len > 1 ? ", " : "", requirements[i].name);
  hl_sb_putc(&b, ']');
  return hl_sb_take(&b);
}

static char *list_text(char *const *v, size_t n) {
  hl_sb b = {0};
  hl_sb_putc(&b, '[');
  for (size_t i = 0; i < n; i++) hl_sb_printf(&b, "%s%s", i ? ", " : "", v[i]);
  hl_sb_putc(&b, ']');
  return hl_sb_take(&b);
}

/* Compares two renderings of a list, and frees them. */
static void list_field(hl_strv *out, const char *where, const char *what, char *got, char *want) {
  text_field(out, where, what, got, want);
  free(got);
  free(want);
}

static void wrapper_diff(const hl_wrapper *g, const hl_wrapper *w, hl_strv *out) {
  char *where = hl_xasprintf("%s: ", g->name);
  text_field(out, where, "rule", g->rule, w->rule);
  number_field(out, where, "buffer.size", g->buffer_size, w->buffer_size, 0);
  number_field(out, where, "buffer.align", g->buffer_align, w->buffer_align, 0);
  number_field(out, where, "header.size", g->header_size, w->header_size, 0);
  number_field(out, where, "header.align", g->header_align, w->header_align, 0);
  number_field(out, where, "max-align", g->max_align, w->max_align, 0);
  list_field(out, where, "requires", requirements_text(g->requires), requirements_text(w->requires));
  list_field(out, where, "factories", list_text(g->factories, g->nfactories), list_text(w->factories, w->nfactories));
  list_field(out, where, "emplace", list_text(g->emplacers, g->nemplacers), list_text(w->emplacers, w->nemplacers));
  text_field(out, where, "replacement", g->replacement, w->replacement);
  free(where);
}

static const hl_wrapper *named(const hl_profile *p, const char *name) {
  for (size_t i = 0; i < p->nwrappers; i++)
    if (!strcmp(p->wrappers[i].name, name)) return &p->wrappers[i];
  return NULL;
}

size_t hl_profile_diff(const hl_profile *got, const hl_profile *want, hl_strv *out) {
  size_t before = out->n;
  text_field(out, "", "library", got->library, want->library);
  text_field(out, "", "abi", got->abi, want->abi);
  text_field(out, "", "detect.include", got->detect_include, want->detect_include);
  text_field(out, "", "detect.namespace", got->detect_namespace, want->detect_namespace);
  text_field(out, "", "detect.no-namespace", got->detect_no_namespace, want->detect_no_namespace);
  number_field(out, "", "target.pointer-width", got->pointer_width, want->pointer_width, 0);
  /* A number the program could not measure (char8_t's capacity below
   * C++20) is no difference. */
  for (size_t i = 0; i < got->nnumbers; i++) {
    const hl_profile_numbers *x = &got->numbers[i];
    const hl_profile_section *s = x->section;
    for (size_t t = 0; t < s->n; t++) {
      char what[64];
      snprintf(what, sizeof what, "%s%s%s.%s", s->key, s->subkey ? "." : "", s->subkey ? s->subkey : "", s->names[t]);
      if (x->v[t] >= 0) number_field(out, "", what, x->v[t], hl_profile_number(want, s, t), -1);
    }
  }
  for (size_t i = 0; i < got->nwrappers; i++) {
    const hl_wrapper *w = named(want, got->wrappers[i].name);
    if (w)
      wrapper_diff(&got->wrappers[i], w, out);
    else
      hl_strv_addf(out, "%s: measured, but the profile has no such wrapper", got->wrappers[i].name);
  }
  for (size_t i = 0; i < want->nwrappers; i++)
    if (!named(got, want->wrappers[i].name))
      hl_strv_addf(out, "%s: in the profile, but not measured (the library does not have it)", want->wrappers[i].name);
  return out->n - before;
}
