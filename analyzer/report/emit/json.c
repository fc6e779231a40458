#include <jansson.h>
#include <stdlib.h>

#include "report/apis.h"
#include "report/emit.h"
#include "report/jsontext.h"
#include "util/util.h"

static const char *severity_name(hl_severity s) {
  switch (s) {
  case HL_SEV_ERROR: return "error";
  case HL_SEV_NOTE: return "note";
  default: return "warning";
  }
}

static json_t *location(const hl_loc *l, const char *root) {
  return json_pack("{s:o, s:I, s:I}", "file", hl_json_text(hl_relative_to(l->file, root)), "line", (json_int_t)l->line,
                   "column", (json_int_t)l->col);
}

int hl_emit_json(FILE *out, const hl_findings *all, const hl_emit_info *info) {
  json_t *findings = json_array();
  size_t warnings = 0, errors = 0;
  for (size_t i = 0; i < all->n; i++) {
    const hl_finding *f = all->v[i];
    warnings += f->severity == HL_SEV_WARNING;
    errors += f->severity == HL_SEV_ERROR;
    json_t *notes = json_array();
    for (size_t k = 0; k < f->nnotes; k++) {
      json_t *n = location(&f->notes[k].loc, info->source_root);
      json_object_set_new(n, "message", hl_json_text(f->notes[k].message));
      json_array_append_new(notes, n);
    }
    json_t *o = location(&f->loc, info->source_root);
    if (f->end_line) {
      json_object_set_new(o, "end_line", json_integer(f->end_line));
      json_object_set_new(o, "end_column", json_integer(f->end_col));
    }
    json_object_set_new(o, "rule", json_string(f->rule));
    json_object_set_new(o, "severity", json_string(severity_name(f->severity)));
    json_object_set_new(o, "message", hl_json_text(f->message));
    json_object_set_new(o, "notes", notes);
    if (f->fingerprint) json_object_set_new(o, "fingerprint", json_string(f->fingerprint));
    json_array_append_new(findings, o);
  }
  json_t *failed = json_array();
  for (size_t i = 0; i < info->files_failed; i++)
    json_array_append_new(failed, hl_json_text(hl_relative_to(info->failed[i], info->source_root)));
  json_t *root =
      json_pack("{s:i, s:{s:s, s:s}, s:o, s:{s:I, s:I, s:I, s:I, s:o, s:I}}", "version", 1, "tool", "name", "heaplint",
                "version", info->version, "findings", findings, "summary", "warnings", (json_int_t)warnings, "errors",
                (json_int_t)errors, "files", (json_int_t)info->files_analyzed, "not_parsed",
                (json_int_t)info->files_failed, "not_parsed_files", failed, "fixable", (json_int_t)info->fixable);
  if (root && info->napis) json_object_set_new(root, "apis", hl_apis_json(info->apis, info->napis, info->source_root));
  int rc = root && json_dumpf(root, out, JSON_INDENT(2) | JSON_PRESERVE_ORDER) == 0 && fputc('\n', out) != EOF ? 0 : -1;
  json_decref(root);
  return rc;
}
