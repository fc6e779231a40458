#include "engine/analyze.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "engine/ast.h"
#include "engine/rule.h"
#include "engine/context.h"
#include "engine/context_impl.h"
#include "util/util.h"

/* The most compile errors shown for one translation unit. */
#define MAX_SHOWN_ERRORS 10

static const char *parse_error(enum CXErrorCode e) {
  switch (e) {
  case CXError_Crashed: return "libclang crashed while parsing it";
  case CXError_InvalidArguments: return "libclang rejected the arguments";
  /* libclang also answers "AST read error" when it cannot turn the
   * arguments into a compiler invocation (e.g. a -std it does not know). */
  case CXError_ASTReadError:
    return "libclang could not set it up: check the compiler arguments (one this libclang does not know, "
           "or an unreadable precompiled header)";
  default: return "libclang could not parse it: check the compiler arguments";
  }
}

/* Prints the errors of tu in clang's format; returns how many there are. */
static unsigned report_errors(CXTranslationUnit tu, FILE *log) {
  unsigned n = clang_getNumDiagnostics(tu), errors = 0;
  for (unsigned i = 0; i < n; i++) {
    CXDiagnostic d = clang_getDiagnostic(tu, i);
    if (clang_getDiagnosticSeverity(d) >= CXDiagnostic_Error) {
      if (errors < MAX_SHOWN_ERRORS) {
        CXString s = clang_formatDiagnostic(d, CXDiagnostic_DisplaySourceLocation | CXDiagnostic_DisplayColumn |
                                                   CXDiagnostic_DisplayOption);
        fprintf(log, "%s\n", clang_getCString(s));
        clang_disposeString(s);
      }
      errors++;
    }
    clang_disposeDiagnostic(d);
  }
  if (errors > MAX_SHOWN_ERRORS) fprintf(log, "(%u more errors not shown)\n", errors - MAX_SHOWN_ERRORS);
  return errors;
}

typedef struct detect {
  const hl_profile_set *set;
  const hl_profile *found;
} detect;

static void detect_include(CXFile f, CXSourceLocation *stack, unsigned len, CXClientData data) {
  (void)stack;
  (void)len;
  detect *d = data;
  if (d->found) return;
  CXString name = clang_getFileName(f);
  d->found = hl_profiles_detect(d->set, clang_getCString(name));
  clang_disposeString(name);
}

typedef struct inputs {
  CXTranslationUnit tu;
  const char *workdir;
  hl_tu_result *res;
  size_t cap;
} inputs;

static void record_include(CXFile f, CXSourceLocation *stack, unsigned len, CXClientData data) {
  (void)stack;
  (void)len;
  inputs *in = data;
  size_t size = 0;
  const char *text = clang_getFileContents(in->tu, f, &size);
  hl_tu_input x = {hl_file_abspath(f, in->workdir), size, hl_fnv1a(text ? text : "", text ? size : 0)};
  HL_PUSH(in->res->inputs, in->res->ninputs, in->cap, x);
}

static int input_order(const void *a, const void *b) {
  return strcmp(((const hl_tu_input *)a)->path, ((const hl_tu_input *)b)->path);
}

/* Every file the unit read, from the text libclang parsed (not the file as
 * it is now, which may have changed meanwhile): the main file first (the
 * inclusions start with it), the others by path, each once. */
static void record_inputs(CXTranslationUnit tu, const hl_job *job, hl_tu_result *res) {
  inputs in = {tu, job->directory, res, 0};
  clang_getInclusions(tu, record_include, &in);
  if (res->ninputs < 2) return;
  qsort(res->inputs + 1, res->ninputs - 1, sizeof *res->inputs, input_order);
  size_t out = 1;
  for (size_t i = 1; i < res->ninputs; i++) {
    if (!strcmp(res->inputs[i].path, res->inputs[0].path) || (out > 1 && !strcmp(res->inputs[i].path, res->inputs[out - 1].path)))
      free(res->inputs[i].path);
    else
      res->inputs[out++] = res->inputs[i];
  }
  res->ninputs = out;
}

typedef struct walker {
  hl_ctx *ctx;
  const hl_rule *const *rules;
  void **states;
} walker;

static enum CXChildVisitResult walk(CXCursor c, CXCursor parent, CXClientData data) {
  (void)parent;
  walker *w = data;
  /* System headers are the library's business, never the user's. */
  if (clang_Location_isInSystemHeader(clang_getCursorLocation(c))) return CXChildVisit_Continue;
  hl_ctx *ctx = w->ctx;
  for (size_t i = 0; w->rules[i]; i++) w->rules[i]->visit(ctx, w->states[i], c);
  HL_PUSH(ctx->stack, ctx->depth, ctx->capstack, c);
  clang_visitChildren(c, walk, w);
  ctx->depth--;
  return CXChildVisit_Continue;
}

void hl_warn_unprofiled(hl_run *run, const hl_job *job, const hl_tu_result *res, FILE *log) {
  if (!res->unprofiled) return;
  char *key = hl_xasprintf("%s/%d", res->library, res->pointer_width);
  int seen = 0;
  pthread_mutex_lock(&run->lock);
  for (size_t i = 0; i < run->warned.n && !seen; i++) seen = !strcmp(run->warned.v[i], key);
  if (!seen) hl_strv_addf(&run->warned, "%s", key);
  pthread_mutex_unlock(&run->lock);
  free(key);
  if (!seen)
    fprintf(log,
            "heaplint: warning: no profile for %s on %d-bit targets: its wrappers are not checked "
            "(first seen in %s; measure one with 'heaplint calibrate')\n",
            res->library, res->pointer_width, hl_display_path(job->file));
}

void hl_tu_result_free(hl_tu_result *res) {
  free(res->library);
  free(res->arch);
  for (size_t i = 0; i < res->nprofiles; i++) free(res->profiles[i]);
  free(res->profiles);
  for (size_t i = 0; i < res->ninputs; i++) free(res->inputs[i].path);
  free(res->inputs);
  hl_findings_free(&res->findings);
  memset(res, 0, sizeof *res);
}

/* The config's verdict on what the rules found: a severity per rule, and
 * headers the header filter does not match are left out. */
static void apply_config(const hl_config *cfg, const hl_job *job, hl_findings *found) {
  size_t out = 0;
  for (size_t i = 0; i < found->n; i++) {
    hl_finding *f = found->v[i];
    if (cfg->header_re && strcmp(f->loc.file, job->file) && !hl_ere_match(cfg->header_re, f->loc.file)) {
      hl_finding_free(f);
      continue;
    }
    if (!f->undecided) f->severity = hl_config_severity(cfg, f->rule);
    found->v[out++] = f;
  }
  found->n = out;
}

static const char *base_name(const char *path) {
  const char *slash = strrchr(path, '/');
  return slash ? slash + 1 : path;
}

/* The target, the standard library the unit includes, and the wrappers
 * the profiles (and the config's) describe for them: into ctx and res. */
static void select_wrappers(hl_run *run, const hl_config *cfg, hl_ctx *ctx, hl_selection *sel, hl_tu_result *res) {
  CXTargetInfo ti = clang_getTranslationUnitTargetInfo(ctx->tu);
  CXString triple = clang_TargetInfo_getTriple(ti);
  ctx->triple = hl_xstrdup(clang_getCString(triple));
  clang_disposeString(triple);
  ctx->pointer_width = clang_TargetInfo_getPointerWidth(ti);
  clang_TargetInfo_dispose(ti);
  ctx->arch = hl_xstrndup(ctx->triple, strcspn(ctx->triple, "-"));

  detect d = {run->profiles, NULL};
  clang_getInclusions(ctx->tu, detect_include, &d);
  ctx->library_name = d.found ? d.found->library : NULL;
  hl_selection_init(sel, run->profiles, ctx->library_name, ctx->pointer_width);
  for (size_t i = 0; i < cfg->nprofiles; i++)
    hl_selection_layer(sel, cfg->profiles[i], ctx->library_name, ctx->pointer_width);
  if (cfg->overrides) hl_selection_overlay(sel, cfg->overrides);
  ctx->wrappers = sel->v;
  ctx->nwrappers = sel->n;
  ctx->library = sel->base;
  res->profiles = hl_xcalloc(sel->nused ? sel->nused : 1, sizeof *res->profiles);
  for (size_t i = 0; i < sel->nused; i++) res->profiles[res->nprofiles++] = hl_xstrdup(base_name(sel->used[i]->path));
  res->unprofiled = ctx->library_name && !sel->base;
  res->library = ctx->library_name ? hl_xstrdup(ctx->library_name) : NULL;
  res->arch = hl_xstrdup(ctx->arch);
  res->pointer_width = ctx->pointer_width;
}

/* Walks the unit once with the rules the config enables: begin, visit,
 * prepare, the compiler's answers to the type questions, end. */
static void run_rules(hl_ctx *ctx, const hl_config *cfg) {
  const hl_rule **rules = NULL;
  size_t nrules = 0, caprules = 0;
  for (size_t i = 0; hl_rules[i]; i++)
    if (hl_config_enabled(cfg, hl_rules[i]->id)) HL_PUSH(rules, nrules, caprules, hl_rules[i]);
  HL_PUSH(rules, nrules, caprules, NULL);
  nrules--;
  void **states = hl_xcalloc(nrules ? nrules : 1, sizeof *states);
  for (size_t i = 0; i < nrules; i++) states[i] = rules[i]->begin(ctx, rules[i]);
  walker w = {ctx, rules, states};
  clang_visitChildren(clang_getTranslationUnitCursor(ctx->tu), walk, &w);
  for (size_t i = 0; i < nrules; i++) rules[i]->prepare(ctx, states[i]);
  if (hl_types_pending(ctx->types)) {
    char *why = NULL;
    if (hl_types_answer(ctx->types, &why)) {
      fprintf(ctx->log, "heaplint: warning: %s; sites that depend on those types are not reported\n", why);
      free(why);
    }
  }
  /* One more parse, only for a unit whose templates store something only
   * an instantiation can size. */
  if (hl_probes_pending(ctx->probes)) {
    char *why = NULL;
    if (hl_probes_run(ctx->probes, &why)) {
      fprintf(ctx->log, "heaplint: warning: %s; the template sites it probes are counted as not decided\n", why);
      free(why);
    }
  }
  for (size_t i = 0; i < nrules; i++) rules[i]->end(ctx, states[i]);
  free(states);
  free(rules);
}

void hl_analyze(hl_run *run, CXIndex index, const hl_job *job, const hl_config *cfg, FILE *log, hl_tu_result *res) {
  memset(res, 0, sizeof *res);
  /* -w: warnings are not heaplint's to show, and -Werror must not turn them
   * into errors that stop the analysis. */
  size_t nargs = job->nargs + 1;
  const char **args = hl_xcalloc(nargs, sizeof *args);
  for (size_t i = 0; i < job->nargs; i++) args[i] = job->args[i];
  args[job->nargs] = "-w";

  res->result = HL_NOT_PARSED;
  struct timespec now;
  clock_gettime(CLOCK_REALTIME, &now);
  res->read_at = (long long)now.tv_sec * 1000000000LL + now.tv_nsec;
  CXTranslationUnit tu = NULL;
  enum CXErrorCode e = clang_parseTranslationUnit2(index, job->source, args, (int)nargs, NULL, 0,
                                                   CXTranslationUnit_None, &tu);
  if (e != CXError_Success || !tu) {
    fprintf(log, "heaplint: error: %s: not analyzed: %s\n", hl_display_path(job->file), parse_error(e));
    goto out;
  }
  unsigned errors = report_errors(tu, log);
  if (errors) {
    fprintf(log, "heaplint: error: %s: not analyzed: it does not compile (%u error%s)\n",
            hl_display_path(job->file), errors, errors == 1 ? "" : "s");
    goto out;
  }

  hl_ctx ctx;
  memset(&ctx, 0, sizeof ctx);
  ctx.tu = tu;
  ctx.job = job;
  ctx.out = &res->findings;
  ctx.log = log;
  ctx.verbose = run->verbose;
  ctx.index = index;
  ctx.args = args;
  ctx.nargs = nargs;

  hl_selection sel;
  select_wrappers(run, cfg, &ctx, &sel, res);

  ctx.types = hl_types_new(index, tu, job, args, nargs, ctx.pointer_width);
  ctx.probes = hl_probes_new(index, tu, job, args, nargs);

  run_rules(&ctx, cfg);
  apply_config(cfg, job, &res->findings);
  if (run->record_inputs) record_inputs(tu, job, res);

  hl_types_free(ctx.types);
  hl_probes_free(ctx.probes);
  hl_selection_free(&sel);
  free(ctx.stack);
  free(ctx.triple);
  free(ctx.arch);
  res->result = HL_ANALYZED;
out:
  if (tu) clang_disposeTranslationUnit(tu);
  free(args);
}
