#include "report/apis.h"

#include <stdlib.h>

#include "report/finding.h"
#include "report/jsontext.h"
#include "util/util.h"

/* How many the summary lists without -v. */
#define SHOWN 5

char *hl_api_suggestion(const hl_api_figure *f) {
  return f->replacement[0] ? hl_inline_type(f->wrapper, f->replacement, f->capacity, f->align) : NULL;
}

char *hl_api_line(const hl_api_figure *f) {
  char *s = hl_api_suggestion(f);
  char *r =
      hl_xasprintf("%s: %zu allocating call site%s in %zu file%s, values up to %ld bytes%s%s", f->api, f->sites,
                   f->sites == 1 ? "" : "s", f->files, f->files == 1 ? "" : "s", f->size, s ? " -> " : "", s ? s : "");
  free(s);
  return r;
}

void hl_apis_print(FILE *out, const hl_api_figure *v, size_t n, int verbose) {
  size_t shown = verbose || n <= SHOWN ? n : SHOWN;
  for (size_t i = 0; i < shown; i++) {
    char *line = hl_api_line(&v[i]);
    fprintf(out, "heaplint: note: API %s\n", line);
    free(line);
    for (size_t k = 0; verbose && k < v[i].nat; k++)
      fprintf(out, "%s:%u:%u: note: an allocating value for %s\n", hl_display_path(v[i].at[k].file), v[i].at[k].line,
              v[i].at[k].col, v[i].api);
  }
  if (shown < n)
    fprintf(out, "heaplint: note: and %zu more API%s (-v lists them all)\n", n - shown, n - shown == 1 ? "" : "s");
}

json_t *hl_apis_json(const hl_api_figure *v, size_t n, const char *root) {
  json_t *a = json_array();
  for (size_t i = 0; i < n; i++) {
    const hl_api_figure *f = &v[i];
    json_t *sites = json_array();
    for (size_t k = 0; k < f->nat; k++)
      json_array_append_new(
          sites, json_pack("{s:o, s:I, s:I}", "file", hl_json_text(hl_relative_to(f->at[k].file, root)), "line",
                           (json_int_t)f->at[k].line, "column", (json_int_t)f->at[k].col));
    char *s = hl_api_suggestion(f);
    json_array_append_new(
        a, json_pack("{s:o, s:o, s:o, s:I, s:I, s:I, s:I, s:o, s:o}", "api", hl_json_text(f->api), "type",
                     hl_json_text(f->type), "wrapper", hl_json_text(f->wrapper), "call_sites", (json_int_t)f->sites,
                     "files", (json_int_t)f->files, "largest_size", (json_int_t)f->size, "largest_align",
                     (json_int_t)f->align, "suggestion", s ? hl_json_text(s) : json_null(), "sites", sites));
    free(s);
  }
  return a;
}
