#include <ctype.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "input/options.h"
#include "report/apis.h"
#include "report/emit.h"
#include "report/jsontext.h"
#include "util/util.h"

#define SARIF_SCHEMA "https://json.schemastore.org/sarif-2.1.0.json"
#define ROOT_ID "%SRCROOT%"
#define FINGERPRINT_KEY "heaplint/v1"

static const char *level(hl_severity s) {
  switch (s) {
  case HL_SEV_ERROR: return "error";
  case HL_SEV_NOTE: return "note";
  default: return "warning";
  }
}

/* Below the source root: relative to %SRCROOT%; elsewhere: a file: URI. */
static json_t *artifact(const char *file, const char *root) {
  const char *rel = hl_relative_to(file, root);
  char *esc = hl_uri_escape(rel);
  json_t *a;
  if (rel != file) {
    a = json_pack("{s:s, s:s}", "uri", esc, "uriBaseId", ROOT_ID);
  } else {
    char *uri = hl_xasprintf("file://%s", esc);
    a = json_pack("{s:s}", "uri", uri);
    free(uri);
  }
  free(esc);
  return a;
}

/* A text region: start and, when known (end_line > 0), end; columns in
 * UTF-16 code units. */
static json_t *region(hl_sources *S, const char *file, unsigned line, unsigned col, unsigned end_line,
                      unsigned end_col) {
  json_t *r = json_pack("{s:I, s:I}", "startLine", (json_int_t)line, "startColumn",
                        (json_int_t)hl_source_utf16_col(S, file, line, col));
  if (end_line) {
    json_object_set_new(r, "endLine", json_integer(end_line));
    json_object_set_new(r, "endColumn", json_integer(hl_source_utf16_col(S, file, end_line, end_col)));
  }
  return r;
}

static json_t *physical(const hl_loc *l, unsigned end_line, unsigned end_col, const char *root, hl_sources *S) {
  return json_pack("{s:{s:o, s:o}}", "physicalLocation", "artifactLocation", artifact(l->file, root), "region",
                   region(S, l->file, l->line, l->col, end_line, end_col));
}

/* The line and byte column just past edit e's range, from the file's text
 * (e's own line and column when the file cannot be read). */
static void edit_end(hl_sources *S, const hl_edit *e, unsigned *line, unsigned *col) {
  size_t len;
  unsigned nlines;
  const char *text = hl_source_text(S, e->file, &len, &nlines);
  *line = e->line;
  *col = e->col + e->length;
  if (!text || (size_t)e->offset + e->length > len) return;
  for (size_t i = e->offset; i < (size_t)e->offset + e->length; i++)
    if (text[i] == '\n') {
      ++*line;
      *col = (unsigned)((size_t)e->offset + e->length - i);
    }
}

static json_t *replacement(hl_sources *S, const hl_edit *e) {
  unsigned line, col;
  edit_end(S, e, &line, &col);
  json_t *r = json_pack("{s:o}", "deletedRegion", region(S, e->file, e->line, e->col, line, col));
  if (*e->text) json_object_set_new(r, "insertedContent", json_pack("{s:o}", "text", hl_json_text(e->text)));
  return r;
}

/* The finding's fix: its edits, one artifact change per file (in the order
 * the files first appear), described by its "fix:" note. */
static json_t *fix(const hl_finding *f, const char *root, hl_sources *S) {
  json_t *changes = json_array();
  for (size_t i = 0; i < f->nedits; i++) {
    size_t first = 0;
    while (strcmp(f->edits[first].file, f->edits[i].file)) first++;
    if (first < i) continue;
    json_t *replacements = json_array();
    for (size_t k = i; k < f->nedits; k++)
      if (!strcmp(f->edits[k].file, f->edits[i].file))
        json_array_append_new(replacements, replacement(S, &f->edits[k]));
    json_array_append_new(changes, json_pack("{s:o, s:o}", "artifactLocation", artifact(f->edits[i].file, root),
                                             "replacements", replacements));
  }
  const char *what = "apply heaplint's fix";
  for (size_t i = 0; i < f->nnotes; i++)
    if (hl_starts_with(f->notes[i].message, "fix: ")) {
      what = f->notes[i].message + 5;
      break;
    }
  return json_pack("[{s:{s:o}, s:o}]", "description", "text", hl_json_text(what), "artifactChanges", changes);
}

/* "function-sbo" -> "FunctionSbo": a name for people, distinct from the id. */
static char *pascal_case(const char *id) {
  hl_sb b = {0};
  for (int up = 1; *id; id++) {
    if (*id == '-') {
      up = 1;
      continue;
    }
    hl_sb_putc(&b, up ? (char)toupper((unsigned char)*id) : *id);
    up = 0;
  }
  return hl_sb_take(&b);
}

static json_t *driver(const hl_emit_info *info) {
  json_t *rules = json_array();
  for (size_t i = 0; i < info->nrules; i++) {
    const hl_rule_info *r = &info->rules[i];
    char *page = hl_rule_page_url(info->docs_url, r->id);
    char *md = hl_xasprintf("%s\n\nSee [docs/rules/%s.md](%s) for the libraries' rules, examples and the fix.",
                            r->description, r->id, page);
    char *text = hl_xasprintf("%s\n\nSee %s for the libraries' rules, examples and the fix.", r->description, page);
    char *name = pascal_case(r->id);
    json_array_append_new(
        rules, json_pack("{s:s, s:s, s:{s:s}, s:{s:s}, s:s, s:{s:s, s:s}, s:{s:s}, s:{s:[s]}}", "id", r->id, "name",
                         name, "shortDescription", "text", r->summary, "fullDescription", "text", r->description,
                         "helpUri", page, "help", "text", text, "markdown", md, "defaultConfiguration", "level",
                         "warning", "properties", "tags", "performance"));
    free(name);
    free(text);
    free(md);
    free(page);
  }
  return json_pack("{s:s, s:s, s:s, s:s, s:o}", "name", "heaplint", "version", info->version, "semanticVersion",
                   info->version, "informationUri", info->docs_url, "rules", rules);
}

static int rule_index(const hl_emit_info *info, const char *id) {
  for (size_t i = 0; i < info->nrules; i++)
    if (!strcmp(info->rules[i].id, id)) return (int)i;
  return -1;
}

static json_t *result(const hl_finding *f, const hl_emit_info *info, hl_sources *S) {
  const char *root = info->source_root;
  json_t *related = json_array();
  for (size_t k = 0; k < f->nnotes; k++) {
    json_t *l = physical(&f->notes[k].loc, 0, 0, root, S);
    json_object_set_new(l, "id", json_integer((json_int_t)k));
    json_object_set_new(l, "message", json_pack("{s:o}", "text", hl_json_text(f->notes[k].message)));
    json_array_append_new(related, l);
  }
  json_t *r = json_pack("{s:s, s:s, s:{s:o}, s:[o], s:o}", "ruleId", f->rule, "level", level(f->severity), "message",
                        "text", hl_json_text(f->message), "locations",
                        physical(&f->loc, f->end_line, f->end_col, root, S), "relatedLocations", related);
  int idx = rule_index(info, f->rule);
  if (idx >= 0) json_object_set_new(r, "ruleIndex", json_integer(idx));
  if (f->fingerprint)
    json_object_set_new(r, "partialFingerprints", json_pack("{s:s}", FINGERPRINT_KEY, f->fingerprint));
  if (f->nedits) json_object_set_new(r, "fixes", fix(f, root, S));
  return r;
}

int hl_emit_sarif(FILE *out, const hl_findings *all, const hl_emit_info *info, hl_sources *S) {
  json_t *results = json_array();
  for (size_t i = 0; i < all->n; i++) json_array_append_new(results, result(all->v[i], info, S));
  json_t *notifications = json_array();
  for (size_t i = 0; i < info->files_failed; i++) {
    char *m =
        hl_xasprintf("%s could not be parsed and was not analyzed", hl_relative_to(info->failed[i], info->source_root));
    json_array_append_new(notifications,
                          json_pack("{s:s, s:{s:o}}", "level", "error", "message", "text", hl_json_text(m)));
    free(m);
  }
  char *root_esc = hl_uri_escape(info->source_root);
  char *root_uri = hl_xasprintf("file://%s/", root_esc);
  json_t *run = json_pack("{s:{s:o}, s:{s:{s:s}}, s:s, s:[{s:b, s:o}], s:o}", "tool", "driver", driver(info),
                          "originalUriBaseIds", ROOT_ID, "uri", root_uri, "columnKind", "utf16CodeUnits", "invocations",
                          "executionSuccessful", info->files_failed == 0, "toolExecutionNotifications", notifications,
                          "results", results);
  free(root_esc);
  free(root_uri);
  if (run && info->napis)
    json_object_set_new(run, "properties",
                        json_pack("{s:o}", "apis", hl_apis_json(info->apis, info->napis, info->source_root)));
  json_t *log = json_pack("{s:s, s:s, s:[o]}", "$schema", SARIF_SCHEMA, "version", "2.1.0", "runs", run);
  int rc = log && json_dumpf(log, out, JSON_INDENT(2) | JSON_PRESERVE_ORDER) == 0 && fputc('\n', out) != EOF ? 0 : -1;
  json_decref(log);
  return rc;
}
