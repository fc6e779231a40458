#include "engine/inst/probe_parse.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/ast.h"
#include "engine/inst/answer.h"
#include "engine/inst/splice.h"
#include "util/util.h"

/* "hl_probe_fn<3, (lambda at a.cpp:4:9)>' requested here": the type. */
static char *probed_type(const char *note) {
  const char *p = strstr(note, HL_PROBE_FN);
  if (!p) return NULL;
  p = strchr(p, ',');
  const char *q = strstr(note, ">' requested here");
  if (!p || !q || q <= p) return NULL;
  p += 2;
  char *t = hl_xstrndup(p, (size_t)(q - p));
  size_t n = strlen(t);
  while (n > 0 && (t[n - 1] == '&' || t[n - 1] == ' ')) t[--n] = '\0';
  if (hl_starts_with(t, "const ")) memmove(t, t + 6, strlen(t + 6) + 1);
  return t;
}

/* The template arguments of "...'hl_conv_<A, B, ...>'" split at the commas
 * outside any brackets: the type converted to, the argument's, the numbers.
 * Returns how many (at most max); each malloc'd. */
static size_t split_args(const char *s, char **out, size_t max) {
  size_t n = 0;
  int angle = 0, paren = 0;
  const char *from = s;
  for (const char *p = s; *p && n < max; p++) {
    if (*p == '(' || *p == '[' || *p == '{')
      paren++;
    else if (*p == ')' || *p == ']' || *p == '}')
      paren--;
    else if (!paren && *p == '<')
      angle++;
    else if (!paren && *p == '>' && angle > 0)
      angle--;
    if ((*p == ',' && !paren && !angle) || (*p == '>' && !paren && angle == 0 && !strcmp(p, ">'"))) {
      out[n++] = hl_xstrndup(from, (size_t)(p - from));
      from = p + 2;
      if (*p == '>') break;
    }
  }
  return n;
}

/* A conversion probe's error: its numbers and both types into h. */
static int conversion_error(const char *msg, hl_inst_answer *h) {
  char *a[8] = {0};
  size_t n = hl_starts_with(msg, HL_CONV_ERROR) ? split_args(msg + strlen(HL_CONV_ERROR), a, 8) : 0;
  int ok = n == 8;
  if (ok) {
    h->to = a[0];
    h->type = a[1];
    /* The argument's type without its const (a const T & argument). */
    size_t n1 = strlen(h->type);
    if (n1 > 6 && !strcmp(h->type + n1 - 6, " const")) h->type[n1 - 6] = '\0';
    if (hl_starts_with(h->type, "const ")) memmove(h->type, h->type + 6, strlen(h->type + 6) + 1);
    h->size = strtol(a[2], NULL, 10);
    h->align = strtol(a[3], NULL, 10);
    h->trivially_copyable = !strcmp(a[4], "true");
    h->nothrow_copy = !strcmp(a[5], "true");
    h->nothrow_move = !strcmp(a[6], "true");
    h->question = (int)strtol(a[7], NULL, 10);
  }
  for (size_t i = ok ? 2 : 0; i < n; i++) free(a[i]);
  return ok ? 0 : -1;
}

/* A layout probe's error: its numbers into h. */
static int layout_error(const char *msg, hl_inst_answer *h) {
  unsigned long size, align;
  char tc[8], nc[8], nm[8];
  /* "static assertion failed due to requirement 'hl_probe_<24, 8, true,
   * true, true, 3>::value': heaplint probe" (clang 14: "static_assert
   * failed ..."). */
  const char *p = strstr(msg, HL_PROBE_ERROR);
  if (!p || !strstr(msg, "heaplint probe") ||
      sscanf(p, "hl_probe_<%lu, %lu, %7[a-z], %7[a-z], %7[a-z], %d>", &size, &align, tc, nc, nm, &h->question) != 6)
    return -1;
  h->size = (long)size;
  h->align = (long)align;
  h->trivially_copyable = !strcmp(tc, "true");
  h->nothrow_copy = !strcmp(nc, "true");
  h->nothrow_move = !strcmp(nm, "true");
  return 0;
}

/* Whether a "requested here" note instantiates a generic lambda's
 * operator() ("user()::(anonymous class)::operator()<int>", or "(lambda
 * at f.cpp:3:9)::operator()<...>"). */
static int generic_lambda_call(const char *note) {
  const char *op = strstr(note, ")::operator()<");
  if (!op) return 0;
  const char *a = strstr(note, "(anonymous class)"), *l = strstr(note, "(lambda at ");
  return (a && a < op) || (l && l < op);
}

static void collect(hl_inst *P, const hl_spliced *S, CXDiagnostic d) {
  char *msg = hl_cxstring_take(clang_getDiagnosticSpelling(d));
  hl_inst_answer h;
  memset(&h, 0, sizeof h);
  int conversion = !conversion_error(msg, &h);
  int bad = !conversion && layout_error(msg, &h);
  free(msg);
  if (bad || h.question < 0 || (size_t)h.question >= P->n || P->v[h.question].conversion != conversion) {
    hl_answer_free(&h);
    return;
  }
  size_t cap = 0, capsys = 0, capcar = 0;
  int skipped = 0, elsewhere = 0;
  if (conversion) {
    /* The conversion is instantiated in the copy of the call, or deeper in
     * a library template it hands the proxy to: the store is the
     * argument's. */
    hl_loc at;
    hl_spliced_arg_loc(S, &P->v[h.question], &at);
    hl_grow((void **)&h.in_system, &capsys, 1, sizeof *h.in_system);
    h.in_system[0] = 0;
    hl_grow((void **)&h.carries, &capcar, 1, sizeof *h.carries);
    h.carries[0] = 0;
    HL_PUSH(h.chain, h.nchain, cap, at);
  }
  CXDiagnosticSet notes = clang_getChildDiagnostics(d);
  unsigned nn = notes ? clang_getNumDiagnosticsInSet(notes) : 0;
  for (unsigned i = 0; i < nn; i++) {
    CXDiagnostic note = clang_getDiagnosticInSet(notes, i);
    char *text = hl_cxstring_take(clang_getDiagnosticSpelling(note));
    hl_loc loc;
    /* In a conversion probe's copy of a call, where the call itself is
     * (its callee's name: a relay finds the call there); the conversion's
     * own point is in no copied text, where the copy is inserted. */
    if (hl_ends_with(text, "requested here") && !hl_spliced_loc(S, &P->u, clang_getDiagnosticLocation(note), 1, &loc)) {
      /* A conversion's own instantiation point is replaced by its argument.
       * It is the call's copy, or a library template the copy hands the
       * proxy to (std::make_shared building its object): a template of the
       * code's own that converts it stores it there, under its own probe. */
      if (conversion && !skipped) {
        skipped = 1;
        elsewhere = !clang_Location_isInSystemHeader(clang_getDiagnosticLocation(note)) &&
                    (loc.offset != P->v[h.question].copy_at || strcmp(loc.file, P->v[h.question].file));
        hl_loc_free(&loc);
      } else {
        if (h.nchain == 0) h.type = probed_type(text);
        int sys = clang_Location_isInSystemHeader(clang_getDiagnosticLocation(note));
        if (!sys) h.user = h.outer = h.nchain;
        hl_grow((void **)&h.in_system, &capsys, h.nchain + 1, sizeof *h.in_system);
        h.in_system[h.nchain] = (char)sys;
        /* Both spelled in the probe parse's text: comparable as they are. */
        hl_grow((void **)&h.carries, &capcar, h.nchain + 1, sizeof *h.carries);
        h.carries[h.nchain] = h.nchain > 0 && h.type && strstr(text, h.type)                  ? 1
                              : generic_lambda_call(text)                                     ? 3
                              : hl_starts_with(text, "in instantiation of function template") ? 0
                                                                                              : 2;
        HL_PUSH(h.chain, h.nchain, cap, loc);
      }
    }
    free(text);
    clang_disposeDiagnostic(note);
  }
  /* A template a conversion probe's copy handed its proxy to instantiates
   * its own stores with it: those answers are about the proxy. */
  if (h.nchain == 0 || !h.type || elsewhere || strstr(h.type, "hl_convp_<") ||
      (h.to && (strstr(h.to, "hl_convp_<") || !hl_answer_wanted(P, h.to)))) {
    hl_answer_free(&h);
    return;
  }
  char *t = hl_spliced_type(S, h.type);
  free(h.type);
  h.type = t;
  if (h.to) {
    t = hl_spliced_type(S, h.to);
    free(h.to);
    h.to = t;
  }
  HL_PUSH(P->hits, P->nhits, P->caphits, h);
}

/* Parses the spliced copy and collects every question's errors, grouped by
 * question, each question's in the compiler's order. */
static int parse_probed(hl_inst *P, const hl_spliced *S, void (*parsed)(CXTranslationUnit, void *), void *data,
                        char **why) {
  unsigned nprobed;
  const struct CXUnsavedFile *probed = hl_spliced_files(S, &nprobed);
  /* The other files an editor has unsaved text for, as the unit saw them. */
  unsigned nunsaved;
  struct CXUnsavedFile *unsaved = hl_unsaved_with(P->u.unsaved, P->u.nunsaved, probed, nprobed, &nunsaved);
  /* Every instantiation's error is wanted, not the first twenty, nor a
   * chain with its middle elided (the default keeps 10 notes). */
  const char **a = hl_xcalloc(P->u.nargs + 2, sizeof *a);
  for (size_t i = 0; i < P->u.nargs; i++) a[i] = P->u.args[i];
  a[P->u.nargs] = "-ferror-limit=0";
  a[P->u.nargs + 1] = "-ftemplate-backtrace-limit=0";
  CXTranslationUnit q = NULL;
  enum CXErrorCode err = clang_parseTranslationUnit2(P->u.index, P->u.job->source, a, (int)P->u.nargs + 2, unsaved,
                                                     nunsaved, CXTranslationUnit_KeepGoing, &q);
  free(a);
  free(unsaved);
  if (err != CXError_Success || !q) {
    *why = hl_xasprintf("%s: the parse that probes template instantiations failed (libclang error %d)",
                        hl_display_path(P->u.job->file), (int)err);
    return -1;
  }
  unsigned nd = clang_getNumDiagnostics(q);
  for (unsigned i = 0; i < nd; i++) {
    CXDiagnostic d = clang_getDiagnostic(q, i);
    if (clang_getDiagnosticSeverity(d) >= CXDiagnostic_Error) collect(P, S, d);
    clang_disposeDiagnostic(d);
  }
  if (parsed) parsed(q, data);
  clang_disposeTranslationUnit(q);
  hl_answers_sort(P);
  return 0;
}

int hl_probe_parse(hl_inst *P, size_t from, const char *suffix, void (*parsed)(CXTranslationUnit q, void *data),
                   void *data, char **why) {
  hl_spliced *S = hl_splice(P, from, suffix, why);
  if (!S) return -1;
  int rc = parse_probed(P, S, parsed, data, why);
  hl_spliced_free(S);
  return rc;
}
