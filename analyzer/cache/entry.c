#include "cache/entry.h"

#include <stdlib.h>
#include <string.h>

#include "engine/rule.h"
#include "index/serial.h"
#include "util/util.h"

#define MAGIC "heaplint-cache "

json_t *hl_entry_text(const char *s) {
  if (hl_utf8_is_valid(s)) return json_string(s);
  hl_sb b = {0};
  for (const unsigned char *p = (const unsigned char *)s; *p; p++) hl_sb_printf(&b, "%02x", *p);
  json_t *j = json_pack("{s:s}", "hex", hl_sb_str(&b));
  hl_sb_free(&b);
  return j;
}

static int hex_digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  return -1;
}

char *hl_entry_text_value(const json_t *j) {
  if (json_is_string(j)) return hl_xstrdup(json_string_value(j));
  const char *hex = json_string_value(json_object_get(j, "hex"));
  size_t n = hex ? strlen(hex) : 1;
  if (n % 2) return NULL;
  char *s = hl_xmalloc(n / 2 + 1);
  for (size_t i = 0; i < n / 2; i++) {
    int hi = hex_digit(hex[2 * i]), lo = hex_digit(hex[2 * i + 1]);
    if (hi < 0 || lo < 0 || (hi == 0 && lo == 0)) {
      free(s);
      return NULL;
    }
    s[i] = (char)(hi * 16 + lo);
  }
  s[n / 2] = '\0';
  return s;
}

/* 16 hex digits at s, as entries write a hash, into *h. */
static int hex16(const char *s, unsigned long long *h) {
  *h = 0;
  for (int i = 0; i < 16; i++) {
    int d = hex_digit(s[i]);
    if (d < 0) return -1;
    *h = *h << 4 | (unsigned long long)d;
  }
  return 0;
}

static int hash_value(const json_t *j, unsigned long long *h) {
  const char *s = json_string_value(j);
  return s && strlen(s) == 16 ? hex16(s, h) : -1;
}

/* ---- packing ---- */

static json_t *pack_loc(const hl_loc *l) {
  return json_pack("[o, I, I, I]", hl_entry_text(l->file), (json_int_t)l->line, (json_int_t)l->col,
                   (json_int_t)l->offset);
}

static json_t *pack_finding(const hl_finding *f) {
  json_t *notes = json_array(), *edits = json_array();
  for (size_t i = 0; i < f->nnotes; i++)
    json_array_append_new(notes, json_pack("[o, o]", pack_loc(&f->notes[i].loc), hl_entry_text(f->notes[i].message)));
  for (size_t i = 0; i < f->nedits; i++) {
    const hl_edit *e = &f->edits[i];
    char hash[17];
    snprintf(hash, sizeof hash, "%016llx", e->file_hash);
    json_array_append_new(
        edits, json_pack("[o, I, I, I, I, o, s]", hl_entry_text(e->file), (json_int_t)e->offset, (json_int_t)e->length,
                         (json_int_t)e->line, (json_int_t)e->col, hl_entry_text(e->text), hash));
  }
  json_t *o = json_pack("{s:s, s:i, s:o, s:[I, I], s:o, s:o, s:o}", "rule", f->rule, "severity", (int)f->severity, "at",
                        pack_loc(&f->loc), "end", (json_int_t)f->end_line, (json_int_t)f->end_col, "message",
                        hl_entry_text(f->message), "notes", notes, "edits", edits);
  if (f->undecided) json_object_set_new(o, "undecided", json_string(f->undecided));
  return o;
}

json_t *hl_entry_pack(const hl_tu_result *res, const char *log, size_t len) {
  json_t *findings = json_array(), *profiles = json_array();
  for (size_t i = 0; i < res->findings.n; i++) json_array_append_new(findings, pack_finding(res->findings.v[i]));
  for (size_t i = 0; i < res->nprofiles; i++) json_array_append_new(profiles, hl_entry_text(res->profiles[i]));
  char *text = hl_xstrndup(log ? log : "", len);
  json_t *o = json_pack("{s:o, s:o, s:i, s:i, s:I, s:o, s:o, s:o}", "library",
                        res->library ? hl_entry_text(res->library) : json_null(), "arch", hl_entry_text(res->arch),
                        "pointer_width", res->pointer_width, "unprofiled", (int)res->unprofiled, "compile_errors",
                        (json_int_t)res->compile_errors, "profiles", profiles, "log", hl_entry_text(text), "findings",
                        findings);
  free(text);
  if (res->summary) {
    char *s = hl_summary_json(res->summary);
    json_object_set_new(o, "summary", json_string(s));
    free(s);
  }
  return o;
}

char *hl_entry_frame(const json_t *doc, size_t *len) {
  char *body = json_dumps(doc, JSON_COMPACT);
  if (!body) return NULL;
  size_t n = strlen(body);
  char *text = hl_xasprintf(MAGIC "%d %016llx %zu\n%s", HL_ENTRY_FORMAT, hl_fnv1a(body, n), n, body);
  *len = strlen(text);
  free(body);
  return text;
}

/* ---- parsing ---- */

/* The decimal number at p (digits, no leading zero, at most 12 of them)
 * into *v: the end of it, or NULL. */
static const char *decimal(const char *p, const char *end, unsigned long long *v) {
  const char *start = p;
  *v = 0;
  while (p < end && *p >= '0' && *p <= '9' && p - start < 12) *v = *v * 10 + (unsigned long long)(*p++ - '0');
  return p == start || (*start == '0' && p - start > 1) ? NULL : p;
}

/* The first line's format, checksum and body length: the start of the
 * body, or NULL when the line is not an entry's. */
static const char *first_line(const char *text, size_t len, unsigned long long *format, unsigned long long *sum,
                              unsigned long long *body_len) {
  const char *p = text, *end = text + len;
  if (len < strlen(MAGIC) || memcmp(text, MAGIC, strlen(MAGIC))) return NULL;
  p += strlen(MAGIC);
  if (!(p = decimal(p, end, format)) || end - p < 18 || *p++ != ' ' || p[16] != ' ') return NULL;
  if (hex16(p, sum) || !(p = decimal(p + 17, end, body_len)) || p == end || *p != '\n') return NULL;
  return p + 1;
}

static int nonnegative(const json_t *j) { return json_is_integer(j) && json_integer_value(j) >= 0; }

/* Whether inputs is what an entry lists: at least the main file; each
 * record whole; the others ordered by path, each once. */
static int valid_inputs(const json_t *inputs) {
  size_t n = json_array_size(inputs);
  char *first = NULL, *prev = NULL;
  int ok = json_is_array(inputs) && n > 0;
  for (size_t i = 0; i < n && ok; i++) {
    const json_t *x = json_array_get(inputs, i);
    unsigned long long h;
    char *path = json_array_size(x) == HL_INPUT_FIELDS ? hl_entry_text_value(json_array_get(x, HL_INPUT_PATH)) : NULL;
    ok = path && *path && nonnegative(json_array_get(x, HL_INPUT_SIZE)) &&
         nonnegative(json_array_get(x, HL_INPUT_MTIME)) && nonnegative(json_array_get(x, HL_INPUT_CTIME)) &&
         json_is_integer(json_array_get(x, HL_INPUT_INO)) && hash_value(json_array_get(x, HL_INPUT_HASH), &h) == 0 &&
         (!first || strcmp(first, path)) && (!prev || strcmp(prev, path) < 0);
    if (first) {
      free(prev);
      prev = path;
    } else {
      first = path;
    }
  }
  free(first);
  free(prev);
  return ok;
}

int hl_entry_parse(const char *text, size_t len, json_t **doc, char **why) {
  unsigned long long format, sum, body_len;
  const char *body = first_line(text, len, &format, &sum, &body_len);
  *doc = NULL;
  if (body && format != HL_ENTRY_FORMAT) return 1;
  size_t have = body ? len - (size_t)(body - text) : 0;
  json_error_t e;
  if (!body)
    *why = hl_xstrdup("its first line is not a cache entry's");
  else if (body_len != have)
    *why = hl_xstrdup(body_len > have ? "truncated" : "longer than its first line says");
  else if (hl_fnv1a(body, have) != sum)
    *why = hl_xstrdup("its checksum does not match");
  else if (!(*doc = json_loadb(body, have, JSON_REJECT_DUPLICATES, &e)))
    *why = hl_xasprintf("not JSON: %s", e.text);
  else if (!json_object_get(*doc, "key") || !json_is_object(json_object_get(*doc, "result")) ||
           !valid_inputs(json_object_get(*doc, "inputs")))
    *why = hl_xstrdup("not a cache entry");
  else
    return 0;
  json_decref(*doc);
  *doc = NULL;
  return -1;
}

/* ---- unpacking ---- */

static int get_uint(const json_t *j, unsigned *out) {
  if (!json_is_integer(j) || json_integer_value(j) < 0 || json_integer_value(j) > (json_int_t)0xffffffffu) return -1;
  *out = (unsigned)json_integer_value(j);
  return 0;
}

static int unpack_loc(const json_t *j, hl_loc *l) {
  memset(l, 0, sizeof *l);
  if (json_array_size(j) != 4 || get_uint(json_array_get(j, 1), &l->line) || get_uint(json_array_get(j, 2), &l->col) ||
      get_uint(json_array_get(j, 3), &l->offset))
    return -1;
  return (l->file = hl_entry_text_value(json_array_get(j, 0))) ? 0 : -1;
}

static int unpack_note(const json_t *j, hl_finding *f) {
  hl_loc l;
  char *m = json_array_size(j) == 2 ? hl_entry_text_value(json_array_get(j, 1)) : NULL;
  int ok = m && unpack_loc(json_array_get(j, 0), &l) == 0;
  if (ok) {
    hl_note n = {l, m};
    HL_PUSH(f->notes, f->nnotes, f->capnotes, n);
  } else {
    if (m) hl_loc_free(&l);
    free(m);
  }
  return ok ? 0 : -1;
}

static int unpack_edit(const json_t *j, hl_finding *f) {
  hl_edit e;
  memset(&e, 0, sizeof e);
  int ok = json_array_size(j) == 7 && hash_value(json_array_get(j, 6), &e.file_hash) == 0 &&
           get_uint(json_array_get(j, 1), &e.offset) == 0 && get_uint(json_array_get(j, 2), &e.length) == 0 &&
           get_uint(json_array_get(j, 3), &e.line) == 0 && get_uint(json_array_get(j, 4), &e.col) == 0 &&
           (e.file = hl_entry_text_value(json_array_get(j, 0))) && (e.text = hl_entry_text_value(json_array_get(j, 5)));
  if (ok)
    HL_PUSH(f->edits, f->nedits, f->capedits, e);
  else
    hl_edit_free(&e);
  return ok ? 0 : -1;
}

/* The finding j describes, or NULL. */
static hl_finding *unpack_finding(const json_t *j, const hl_rule *const *rules, hl_entry_intern intern, void *data) {
  const char *id = json_string_value(json_object_get(j, "rule"));
  /* A unit's compile errors are findings of no rule: clang-tidy's name. */
  const char *rule = id && !strcmp(id, HL_COMPILE_ERROR_RULE) ? HL_COMPILE_ERROR_RULE : NULL;
  if (id && !rule && hl_rule_in(rules, id)) rule = hl_rule_in(rules, id)->id;
  json_t *sev = json_object_get(j, "severity"), *end = json_object_get(j, "end");
  const char *undecided = json_string_value(json_object_get(j, "undecided"));
  char *message = hl_entry_text_value(json_object_get(j, "message"));
  hl_loc at;
  if (!rule || !json_is_integer(sev) || json_integer_value(sev) < HL_SEV_NOTE ||
      json_integer_value(sev) > HL_SEV_ERROR || json_array_size(end) != 2 || !message ||
      unpack_loc(json_object_get(j, "at"), &at)) {
    free(message);
    return NULL;
  }
  hl_finding *f = hl_finding_new(rule, (hl_severity)json_integer_value(sev), &at, message);
  hl_loc_free(&at);
  free(message);
  int ok = get_uint(json_array_get(end, 0), &f->end_line) == 0 && get_uint(json_array_get(end, 1), &f->end_col) == 0 &&
           json_is_array(json_object_get(j, "notes")) && json_is_array(json_object_get(j, "edits"));
  size_t i;
  json_t *x;
  json_array_foreach(json_object_get(j, "notes"), i, x) ok = ok && unpack_note(x, f) == 0;
  json_array_foreach(json_object_get(j, "edits"), i, x) ok = ok && unpack_edit(x, f) == 0;
  if (undecided) f->undecided = intern(data, undecided);
  if (!ok) {
    hl_finding_free(f);
    return NULL;
  }
  return f;
}

static int unpack_strings(const json_t *a, hl_tu_result *res) {
  if (!json_is_array(a)) return -1;
  res->profiles = hl_xcalloc(json_array_size(a) + 1, sizeof *res->profiles);
  size_t i;
  json_t *x;
  json_array_foreach(a, i, x) {
    if (!(res->profiles[res->nprofiles] = hl_entry_text_value(x))) return -1;
    res->nprofiles++;
  }
  return 0;
}

/* The inputs into res (hl_entry_parse checked them). */
static void unpack_inputs(const json_t *inputs, hl_tu_result *res) {
  size_t i, cap = 0;
  json_t *x;
  json_array_foreach(inputs, i, x) {
    hl_tu_input in = {hl_entry_text_value(json_array_get(x, HL_INPUT_PATH)),
                      (unsigned long long)json_integer_value(json_array_get(x, HL_INPUT_SIZE)), 0};
    hash_value(json_array_get(x, HL_INPUT_HASH), &in.hash);
    HL_PUSH(res->inputs, res->ninputs, cap, in);
  }
}

static int input_order(const void *path, const void *in) { return strcmp(path, ((const hl_tu_input *)in)->path); }

/* The input named path, or NULL: the main file, or one of the others,
 * which are ordered by path. */
static const hl_tu_input *input_of(const hl_tu_result *res, const char *path) {
  if (!strcmp(res->inputs[0].path, path)) return &res->inputs[0];
  return bsearch(path, res->inputs + 1, res->ninputs - 1, sizeof *res->inputs, input_order);
}

/* Whether line:col can be a place in a file of size bytes (both from 1,
 * col counting bytes). */
static int position_in(unsigned line, unsigned col, unsigned long long size) {
  return line >= 1 && col >= 1 && line <= size + 1 && col <= size + 1;
}

static int loc_in(const hl_tu_result *res, const hl_loc *l) {
  const hl_tu_input *in = input_of(res, l->file);
  return in && l->offset <= in->size && position_in(l->line, l->col, in->size);
}

/* Whether every place f names lies within a file the unit read, and each
 * edit within the text of the hash it was made for: what an analysis
 * gives, and what --fix and the emitters may rely on. */
static int finding_in(const hl_tu_result *res, const hl_finding *f) {
  const hl_tu_input *in = input_of(res, f->loc.file);
  int ok = in && loc_in(res, &f->loc) &&
           ((f->end_line == 0 && f->end_col == 0) || position_in(f->end_line, f->end_col, in->size));
  for (size_t i = 0; i < f->nnotes && ok; i++) ok = loc_in(res, &f->notes[i].loc);
  for (size_t i = 0; i < f->nedits && ok; i++) {
    const hl_edit *e = &f->edits[i];
    in = input_of(res, e->file);
    ok = in && in->hash == e->file_hash && (unsigned long long)e->offset + e->length <= in->size &&
         position_in(e->line, e->col, in->size);
  }
  return ok;
}

/* The result's own fields (not its findings) into res and *log. */
static int unpack_unit(const json_t *j, hl_tu_result *res, char **log) {
  json_t *library = json_object_get(j, "library"), *width = json_object_get(j, "pointer_width");
  json_t *unprofiled = json_object_get(j, "unprofiled"), *errors = json_object_get(j, "compile_errors");
  int ok = json_is_integer(width) && json_integer_value(width) >= -1 && json_integer_value(width) <= 256 &&
           json_is_integer(unprofiled) && json_integer_value(unprofiled) >= HL_PROFILED &&
           json_integer_value(unprofiled) <= HL_PROFILE_WITHOUT_WRAPPERS && json_is_integer(errors) &&
           json_integer_value(errors) >= 0 && json_integer_value(errors) <= (json_int_t)0xffffffffu &&
           (json_is_null(library) || (res->library = hl_entry_text_value(library))) &&
           (res->arch = hl_entry_text_value(json_object_get(j, "arch"))) &&
           unpack_strings(json_object_get(j, "profiles"), res) == 0 &&
           (*log = hl_entry_text_value(json_object_get(j, "log")));
  if (ok) {
    res->pointer_width = (int)json_integer_value(width);
    res->unprofiled = (int)json_integer_value(unprofiled);
    res->compile_errors = (unsigned)json_integer_value(errors);
  }
  return ok;
}

int hl_entry_unpack(const json_t *doc, const hl_rule *const *rules, hl_entry_intern intern, void *data,
                    hl_tu_result *res, char **log, char **why) {
  memset(res, 0, sizeof *res);
  *log = NULL;
  const json_t *j = json_object_get(doc, "result"), *findings = json_object_get(j, "findings");
  unpack_inputs(json_object_get(doc, "inputs"), res);
  int ok = json_is_array(findings) && unpack_unit(j, res, log), inside = 1;
  size_t i;
  json_t *x;
  json_array_foreach(findings, i, x) {
    if (!ok || !inside) break;
    hl_finding *f = unpack_finding(x, rules, intern, data);
    if (!f) {
      ok = 0;
      break;
    }
    f->unit_has_errors = res->compile_errors > 0;
    hl_findings_add(&res->findings, f);
    inside = finding_in(res, f);
  }
  const json_t *summary = json_object_get(j, "summary");
  if (ok && inside && summary) {
    char *ignored = NULL;
    res->summary = json_is_string(summary)
                       ? hl_summary_parse(json_string_value(summary), json_string_length(summary), &ignored)
                       : NULL;
    ok = res->summary != NULL;
    free(ignored);
  }
  if (!ok || !inside) {
    *why = hl_xstrdup(!inside ? "its result names places outside the files the unit read" : "its result is malformed");
    hl_tu_result_free(res);
    free(*log);
    *log = NULL;
    return -1;
  }
  res->result = HL_ANALYZED;
  return 0;
}
