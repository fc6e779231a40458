#include "engine/diagnostics.h"

#include <stdlib.h>
#include <string.h>

#include "engine/ast.h"
#include "util/util.h"

/* The most errors without a place shown for one translation unit. */
#define MAX_SHOWN_ERRORS 10

/* Whether text, from start on, is arg and a closing quote. */
static int quoted_is(const char *text, size_t start, const char *arg) {
  size_t n = strlen(arg);
  return !strncmp(text + start, arg, n) && text[start + n] == '\'';
}

/* The index of the argument the driver's diagnostic d says it does not
 * know, or -1. Matched against the arguments themselves, so that a quote
 * inside one cannot mislead. */
static long unknown_arg(CXDiagnostic d, const char *const *args, size_t nargs) {
  static const char *const prefixes[] = {"unknown argument: '", "unknown argument '", "unsupported option '"};
  CXFile file;
  clang_getFileLocation(clang_getDiagnosticLocation(d), &file, NULL, NULL, NULL);
  if (file || clang_getDiagnosticSeverity(d) < CXDiagnostic_Error) return -1;
  char *text = hl_cxstring_take(clang_getDiagnosticSpelling(d));
  long found = -1;
  for (size_t p = 0; p < sizeof prefixes / sizeof *prefixes && found < 0; p++)
    if (hl_starts_with(text, prefixes[p]))
      for (size_t i = 0; i < nargs && found < 0; i++)
        if (quoted_is(text, strlen(prefixes[p]), args[i])) found = (long)i;
  /* "unsupported argument 'foo' to option '-fsanitize='" */
  const char *to = strstr(text, "' to option '");
  if (found < 0 && hl_starts_with(text, "unsupported argument '") && to) {
    size_t vlen = (size_t)(to - text) - strlen("unsupported argument '");
    char *opt = hl_xstrndup(to + strlen("' to option '"), strcspn(to + strlen("' to option '"), "'"));
    char *whole = hl_xasprintf("%s%.*s", opt, (int)vlen, text + strlen("unsupported argument '"));
    for (size_t i = 0; i < nargs && found < 0; i++)
      if (!strcmp(args[i], whole)) found = (long)i;
    free(opt);
    free(whole);
  }
  free(text);
  return found;
}

size_t hl_diag_drop_unknown_args(CXTranslationUnit tu, const char **args, size_t *nargs, const char *file, FILE *log,
                                 int verbose) {
  size_t dropped = 0;
  unsigned n = clang_getNumDiagnostics(tu);
  for (unsigned i = 0; i < n; i++) {
    CXDiagnostic d = clang_getDiagnostic(tu, i);
    long k = unknown_arg(d, args, *nargs);
    clang_disposeDiagnostic(d);
    if (k < 0) continue;
    if (verbose)
      fprintf(log, "heaplint: remark: %s: dropped '%s', which clang does not know or support\n", hl_display_path(file),
              args[k]);
    memmove(&args[k], &args[k + 1], (*nargs - (size_t)k - 1) * sizeof *args);
    --*nargs;
    dropped++;
  }
  return dropped;
}

/* A fix-it of a compile error, as an edit (applied only with --fix-errors). */
static int fixit_edit(const hl_ctx *ctx, CXDiagnostic d, unsigned i, hl_edit *e) {
  CXSourceRange r;
  CXString text = clang_getDiagnosticFixIt(d, i, &r);
  CXFile bf, ef;
  unsigned bo, eo, line, col;
  clang_getFileLocation(clang_getRangeStart(r), &bf, &line, &col, &bo);
  clang_getFileLocation(clang_getRangeEnd(r), &ef, NULL, NULL, &eo);
  size_t size = 0;
  const char *contents = bf ? clang_getFileContents(hl_ctx_tu(ctx), bf, &size) : NULL;
  int ok = contents && ef && clang_File_isEqual(bf, ef) && bo <= eo && eo <= size;
  if (ok) {
    memset(e, 0, sizeof *e);
    e->file = hl_file_abspath(bf, hl_ctx_job(ctx)->directory);
    e->offset = bo;
    e->length = eo - bo;
    e->line = line;
    e->col = col;
    e->text = hl_xstrdup(clang_getCString(text));
    e->file_hash = hl_fnv1a(contents, size);
  }
  clang_disposeString(text);
  return ok ? 0 : -1;
}

/* One located error: its message, its notes, its fix-its. */
static hl_finding *error_finding(const hl_ctx *ctx, CXDiagnostic d, const hl_loc *at) {
  char *msg = hl_cxstring_take(clang_getDiagnosticSpelling(d));
  hl_finding *f = hl_finding_new(HL_COMPILE_ERROR_RULE, HL_SEV_ERROR, at, msg);
  free(msg);
  CXDiagnosticSet notes = clang_getChildDiagnostics(d);
  for (unsigned i = 0; i < clang_getNumDiagnosticsInSet(notes); i++) {
    CXDiagnostic n = clang_getDiagnosticInSet(notes, i);
    hl_loc nl;
    if (!hl_ctx_loc(ctx, clang_getDiagnosticLocation(n), &nl)) {
      char *text = hl_cxstring_take(clang_getDiagnosticSpelling(n));
      hl_finding_note(f, &nl, text);
      free(text);
      hl_loc_free(&nl);
    }
    clang_disposeDiagnostic(n);
  }
  for (unsigned i = 0; i < clang_getDiagnosticNumFixIts(d); i++) {
    hl_edit e;
    if (fixit_edit(ctx, d, i, &e)) continue;
    hl_finding_edit(f, &e);
    hl_edit_free(&e);
  }
  return f;
}

unsigned hl_diag_errors(const hl_ctx *ctx, hl_findings *out, FILE *log) {
  CXTranslationUnit tu = hl_ctx_tu(ctx);
  unsigned n = clang_getNumDiagnostics(tu), errors = 0, unplaced = 0;
  for (unsigned i = 0; i < n; i++) {
    CXDiagnostic d = clang_getDiagnostic(tu, i);
    hl_loc at;
    const hl_job *job = hl_ctx_job(ctx);
    if (clang_getDiagnosticSeverity(d) < CXDiagnostic_Error ||
        unknown_arg(d, (const char *const *)job->args, job->nargs) >= 0) {
      /* Not an error, or one about an argument heaplint dropped. */
    } else if (!hl_ctx_loc(ctx, clang_getDiagnosticLocation(d), &at)) {
      hl_findings_add(out, error_finding(ctx, d, &at));
      hl_loc_free(&at);
      errors++;
    } else {
      if (unplaced++ < MAX_SHOWN_ERRORS) {
        CXString s = clang_formatDiagnostic(d, CXDiagnostic_DisplayOption);
        fprintf(log, "%s: %s\n", hl_display_path(hl_ctx_job(ctx)->file), clang_getCString(s));
        clang_disposeString(s);
      }
      errors++;
    }
    clang_disposeDiagnostic(d);
  }
  if (unplaced > MAX_SHOWN_ERRORS) fprintf(log, "(%u more errors not shown)\n", unplaced - MAX_SHOWN_ERRORS);
  return errors;
}
