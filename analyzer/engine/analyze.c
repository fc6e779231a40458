#include "engine/analyze.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "engine/ahead.h"
#include "engine/ast.h"
#include "engine/rule.h"
#include "engine/context.h"
#include "engine/context_impl.h"
#include "engine/broken.h"
#include "engine/crash.h"
#include "engine/diagnostics.h"
#include "engine/inclusions.h"
#include "engine/traitmemo.h"
#include "util/util.h"

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

/* A namespace's path ("std", "__cxx11") and how far a search has come. */
typedef struct ns_search {
  char **parts;
  size_t n, depth;
  int found;
} ns_search;

static enum CXChildVisitResult find_namespace(CXCursor c, CXCursor parent, CXClientData data) {
  (void)parent;
  ns_search *s = data;
  if (clang_getCursorKind(c) != CXCursor_Namespace) return CXChildVisit_Continue;
  CXString name = clang_getCursorSpelling(c);
  int match = !strcmp(clang_getCString(name), s->parts[s->depth]);
  clang_disposeString(name);
  if (!match) return CXChildVisit_Continue;
  if (s->depth + 1 == s->n) {
    s->found = 1;
    return CXChildVisit_Break;
  }
  s->depth++;
  clang_visitChildren(c, find_namespace, s);
  s->depth--;
  return s->found ? CXChildVisit_Break : CXChildVisit_Continue;
}

/* Whether the unit declares the namespace qualified names ("std::__cxx11"):
 * its library's headers declare an ABI's namespace only under that ABI,
 * whatever set the macro (a flag, a forced include, a header). Only the
 * top-level declarations and those of the namespaces on the path are
 * looked at, and a library declares its ABI's namespace early (libstdc++
 * in c++config.h), so a hit comes soon. */
static int unit_declares(void *tu, const char *qualified) {
  char *copy = hl_xstrdup(qualified);
  size_t parts = 1;
  for (const char *p = strstr(copy, "::"); p; p = strstr(p + 2, "::")) parts++;
  ns_search s = {hl_xcalloc(parts, sizeof *s.parts), 0, 0, 0};
  for (char *p = copy, *sep; p; p = sep ? sep + 2 : NULL) {
    sep = strstr(p, "::");
    if (sep) *sep = '\0';
    s.parts[s.n++] = p;
  }
  clang_visitChildren(clang_getTranslationUnitCursor(tu), find_namespace, &s);
  free(s.parts);
  free(copy);
  return s.found;
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
    if (!strcmp(res->inputs[i].path, res->inputs[0].path) ||
        (out > 1 && !strcmp(res->inputs[i].path, res->inputs[out - 1].path)))
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
  int system_headers; /* -system-headers: walk them too */
  hl_broken *broken;  /* a unit with errors: what no rule may judge */
} walker;

static enum CXChildVisitResult walk(CXCursor c, CXCursor parent, CXClientData data) {
  (void)parent;
  walker *w = data;
  /* System headers are the library's business, not the user's (unless
   * -system-headers says otherwise). */
  if (!w->system_headers && clang_Location_isInSystemHeader(clang_getCursorLocation(c))) return CXChildVisit_Continue;
  hl_ctx *ctx = w->ctx;
  if (!w->broken || !hl_broken_covers(w->broken, c)) {
    for (size_t i = 0; w->rules[i]; i++) {
      hl_crash_step("in rule", w->rules[i]->id);
      w->rules[i]->visit(ctx, w->states[i], c);
    }
    hl_crash_step("walking the AST", NULL);
  }
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
            res->unprofiled == HL_PROFILE_WITHOUT_WRAPPERS
                ? "heaplint: warning: the profile for %s on %d-bit targets describes no wrappers: they are "
                  "not checked (first seen in %s; measure them with 'heaplint calibrate')\n"
                : "heaplint: warning: no profile for %s on %d-bit targets: its wrappers are not checked "
                  "(first seen in %s; measure one with 'heaplint calibrate')\n",
            res->library, res->pointer_width, hl_display_path(job->file));
}

void hl_tu_result_free(hl_tu_result *res) {
  hl_summary_free(res->summary);
  free(res->library);
  free(res->arch);
  for (size_t i = 0; i < res->nprofiles; i++) free(res->profiles[i]);
  free(res->profiles);
  for (size_t i = 0; i < res->ninputs; i++) free(res->inputs[i].path);
  free(res->inputs);
  hl_findings_free(&res->findings);
  hl_layouts_free(&res->layouts);
  memset(res, 0, sizeof *res);
}

/* The config's verdict on what the rules found: a severity per rule, and
 * headers the header filters leave out are left out. Compile errors stay
 * as they are, as in clang-tidy. */
void hl_apply_config(const hl_config *cfg, const hl_job *job, hl_findings *found) {
  size_t out = 0;
  for (size_t i = 0; i < found->n; i++) {
    hl_finding *f = found->v[i];
    if (hl_finding_is_compile_error(f)) {
      found->v[out++] = f;
      continue;
    }
    if (strcmp(f->loc.file, job->file) && !hl_config_shows_header(cfg, f->loc.file)) {
      hl_finding_free(f);
      continue;
    }
    /* A rule's note (an API rewrite proposed) stays one; the config sets
     * the severity of its warnings. */
    if (!f->undecided && f->severity != HL_SEV_NOTE) f->severity = hl_config_severity(cfg, f->rule);
    found->v[out++] = f;
  }
  found->n = out;
}

static const char *base_name(const char *path) {
  const char *slash = strrchr(path, '/');
  return slash ? slash + 1 : path;
}

/* The library of the first file the unit read that a profile knows;
 * listed: the unit's files as hl_inclusions keeps them, or NULL. */
static const hl_profile *detect_library(const hl_run *run, CXTranslationUnit tu, const hl_inclusions *listed) {
  detect d = {run->profiles, NULL};
  if (!listed) {
    clang_getInclusions(tu, detect_include, &d);
    return d.found;
  }
  for (size_t i = 0; i < listed->files.n && !d.found; i++) d.found = hl_profiles_detect(d.set, listed->files.v[i]);
  return d.found;
}

/* The target, the standard library the unit includes, and the wrappers
 * the profiles (and the config's) describe for them: into ctx and res. */
static void select_wrappers(const hl_run *run, const hl_config *cfg, hl_ctx *ctx, hl_selection *sel, hl_tu_result *res,
                            const hl_inclusions *listed) {
  CXTargetInfo ti = clang_getTranslationUnitTargetInfo(ctx->unit.tu);
  CXString triple = clang_TargetInfo_getTriple(ti);
  ctx->triple = hl_xstrdup(clang_getCString(triple));
  clang_disposeString(triple);
  ctx->pointer_width = clang_TargetInfo_getPointerWidth(ti);
  clang_TargetInfo_dispose(ti);
  ctx->arch = hl_xstrndup(ctx->triple, strcspn(ctx->triple, "-"));

  const hl_profile *found = detect_library(run, ctx->unit.tu, listed);
  ctx->library_name = found ? found->library : NULL;
  hl_unit_namespaces ns = {unit_declares, ctx->unit.tu};
  hl_selection_init(sel, run->profiles, ctx->library_name, ctx->pointer_width, &ns);
  for (size_t i = 0; i < cfg->nprofiles; i++)
    hl_selection_layer(sel, cfg->profiles[i], ctx->library_name, ctx->pointer_width);
  if (cfg->overrides) hl_selection_overlay(sel, cfg->overrides);
  ctx->wrappers = sel->v;
  ctx->nwrappers = sel->n;
  ctx->library = sel->base;
  res->profiles = hl_xcalloc(sel->nused ? sel->nused : 1, sizeof *res->profiles);
  for (size_t i = 0; i < sel->nused; i++) res->profiles[res->nprofiles++] = hl_xstrdup(base_name(sel->used[i]->path));
  if (ctx->library_name && !sel->base)
    res->unprofiled = HL_NO_PROFILE;
  else if (ctx->library_name && !sel->base->nwrappers)
    res->unprofiled = HL_PROFILE_WITHOUT_WRAPPERS;
  ctx->numbers = sel->numbers;
  ctx->nnumbers = sel->nnumbers;
  res->library = ctx->library_name ? hl_xstrdup(ctx->library_name) : NULL;
  res->arch = hl_xstrdup(ctx->arch);
  res->pointer_width = ctx->pointer_width;
}

static void collect_types(CXTranslationUnit q, void *types) { hl_types_collect(types, q); }

/* The questions only the compiler answers, in as few extra parses as can
 * be: one, only for a unit whose templates store something only an
 * instantiation can size, probes them and also takes the trait queries
 * (saving their precompiled image of the unit and its parse); without
 * probes, the trait queries alone. A kept unit's queries go over its own
 * preamble instead. */
static void ask_compiler(hl_ctx *ctx) {
  if (hl_inst_pending(ctx->inst)) {
    char *queries = ctx->unit.reparse_queries ? NULL : hl_types_query_text(ctx->types);
    char *why = NULL;
    if (hl_inst_run(ctx->inst, queries, queries ? collect_types : NULL, ctx->types, &why)) {
      fprintf(ctx->log, "heaplint: warning: %s; the template sites it probes are counted as not decided\n", why);
      free(why);
    }
    free(queries);
  }
  if (hl_types_pending(ctx->types)) {
    char *why = NULL;
    if (hl_types_answer(ctx->types, &why)) {
      fprintf(ctx->log, "heaplint: warning: %s; sites that depend on those types are not reported\n", why);
      free(why);
    }
  }
}

/* Walks the unit once with the rules the config enables: begin, visit,
 * prepare, the compiler's answers to the type questions, end (a rule
 * without begin, prepare or end is skipped there). */
static void run_rules(hl_ctx *ctx, const hl_config *cfg, int has_errors) {
  const hl_rule **rules = NULL;
  size_t nrules = 0, caprules = 0;
  for (size_t i = 0; cfg->registry[i]; i++)
    if (hl_config_enabled(cfg, cfg->registry[i]->id)) HL_PUSH(rules, nrules, caprules, cfg->registry[i]);
  HL_PUSH(rules, nrules, caprules, NULL);
  nrules--;
  void **states = hl_xcalloc(nrules ? nrules : 1, sizeof *states);
  for (size_t i = 0; i < nrules; i++) {
    hl_crash_step("starting rule", rules[i]->id);
    states[i] = rules[i]->begin ? rules[i]->begin(ctx, rules[i]) : NULL;
  }
  hl_crash_step("walking the AST", NULL);
  walker w = {ctx, rules, states, hl_config_system_headers(cfg), has_errors ? hl_broken_find(ctx->unit.tu) : NULL};
  clang_visitChildren(clang_getTranslationUnitCursor(ctx->unit.tu), walk, &w);
  hl_broken_free(w.broken);
  for (size_t i = 0; i < nrules; i++)
    if (rules[i]->prepare) {
      hl_crash_step("preparing rule", rules[i]->id);
      rules[i]->prepare(ctx, states[i]);
    }
  hl_crash_step("asking the compiler (trait queries, instantiation probes)", NULL);
  ask_compiler(ctx);
  /* A rule that reviews the others' verdicts ends after them. */
  for (int reviews = 0; reviews <= 1; reviews++)
    for (size_t i = 0; i < nrules; i++)
      if (rules[i]->end && !(rules[i]->flags & HL_RULE_REVIEWS) == !reviews) {
        hl_crash_step("ending rule", rules[i]->id);
        rules[i]->end(ctx, states[i]);
      }
  free(states);
  free(rules);
}

struct hl_tu {
  CXIndex index;
  CXIndex own_index; /* index, when the unit was parsed with an index of its own (hl_tu_parse's NULL) */
  const hl_job *job;
  const char **args; /* the job's, then -w */
  size_t nargs;
  struct CXUnsavedFile *unsaved; /* copies of the editor's text the unit was last parsed with */
  unsigned nunsaved;
  unsigned options;          /* CXTranslationUnit_* */
  CXTranslationUnit tu;      /* NULL after a failed reparse */
  CXTranslationUnit queries; /* a kept unit's trait-query parse, reparsed each time */
  CXIndex queries_index;     /* the index queries belongs to when it was parsed ahead, else NULL */
  hl_ahead *ahead;           /* the trait-query parse, started with the unit's and not taken yet */
  hl_trait_memo *memo;       /* a kept unit's trait answers (traitmemo.h) */
  hl_inclusions inclusions;  /* a kept unit's files, listed by memo_of */
  long cplusplus;            /* its __cplusplus, once asked (0: not yet) */
};

static void unsaved_free(hl_tu *u) {
  hl_unsaved_free(u->unsaved, u->nunsaved);
  u->unsaved = NULL;
  u->nunsaved = 0;
}

static void unsaved_copy(hl_tu *u, const struct CXUnsavedFile *unsaved, unsigned n) {
  unsaved_free(u);
  u->unsaved = hl_unsaved_copy(unsaved, n);
  u->nunsaved = n;
}

static hl_tu *parse(CXIndex index, const hl_job *job, const struct CXUnsavedFile *unsaved, unsigned nunsaved,
                    unsigned options, int ahead, FILE *log) {
  hl_tu *u = hl_xcalloc(1, sizeof *u);
  if (!index) index = u->own_index = hl_index_new_kept();
  u->index = index;
  u->job = job;
  u->options = options;
  /* -w: warnings are not heaplint's to show, and -Werror must not turn them
   * into errors that stop the analysis. */
  u->nargs = job->nargs + 1;
  u->args = hl_xcalloc(u->nargs, sizeof *u->args);
  for (size_t i = 0; i < job->nargs; i++) u->args[i] = job->args[i];
  u->args[job->nargs] = "-w";
  unsaved_copy(u, unsaved, nunsaved);
  /* The questions go at the end of the main file: its preamble is this
   * one's. */
  if (ahead)
    u->ahead = hl_ahead_start(job->source, u->args, (int)u->nargs, u->unsaved, u->nunsaved,
                              options | CXTranslationUnit_KeepGoing);
  hl_crash_step("parsing", NULL);
  enum CXErrorCode e =
      clang_parseTranslationUnit2(index, job->source, u->args, (int)u->nargs, u->unsaved, u->nunsaved, options, &u->tu);
  if (e != CXError_Success || !u->tu) {
    fprintf(log, "heaplint: error: %s: not analyzed: %s\n", hl_display_path(job->file), parse_error(e));
    hl_tu_free(u);
    return NULL;
  }
  return u;
}

hl_tu *hl_tu_parse(CXIndex index, const hl_job *job, const struct CXUnsavedFile *unsaved, unsigned nunsaved,
                   unsigned options, FILE *log) {
  return parse(index, job, unsaved, nunsaved, options, 0, log);
}

hl_tu *hl_tu_parse_ahead(CXIndex index, const hl_job *job, const struct CXUnsavedFile *unsaved, unsigned nunsaved,
                         unsigned options, FILE *log) {
  return parse(index, job, unsaved, nunsaved, options, (options & CXTranslationUnit_PrecompiledPreamble) != 0, log);
}

int hl_tu_reparse(hl_tu *u, const struct CXUnsavedFile *unsaved, unsigned nunsaved, FILE *log) {
  unsaved_copy(u, unsaved, nunsaved);
  hl_crash_step("reparsing", NULL);
  int e = u->tu ? clang_reparseTranslationUnit(u->tu, u->nunsaved, u->unsaved, clang_defaultReparseOptions(u->tu))
                : CXError_Failure;
  if (e == CXError_Success) return 0;
  /* libclang's word: after a failed reparse only disposing is safe. */
  fprintf(log, "heaplint: error: %s: not analyzed: %s\n", hl_display_path(u->job->file),
          parse_error((enum CXErrorCode)e));
  if (u->tu) clang_disposeTranslationUnit(u->tu);
  u->tu = NULL;
  return -1;
}

/* The trait queries of a kept unit: its main file with them appended is
 * parsed once, then reparsed (its preamble, the #includes, is kept). */
static void queries_dispose(hl_tu *u) {
  if (u->queries) clang_disposeTranslationUnit(u->queries);
  if (u->queries_index) clang_disposeIndex(u->queries_index);
  u->queries = NULL;
  u->queries_index = NULL;
}

static CXTranslationUnit reparse_queries(void *unit, const struct CXUnsavedFile *files, unsigned nfiles) {
  hl_tu *u = unit;
  if (u->ahead) {
    queries_dispose(u);
    u->queries = hl_ahead_take(u->ahead, &u->queries_index);
    u->ahead = NULL;
  }
  if (u->queries && clang_reparseTranslationUnit(u->queries, nfiles, (struct CXUnsavedFile *)files,
                                                 clang_defaultReparseOptions(u->queries)) == CXError_Success)
    return u->queries;
  queries_dispose(u);
  if (clang_parseTranslationUnit2(u->index, u->job->source, u->args, (int)u->nargs, (struct CXUnsavedFile *)files,
                                  nfiles, u->options | CXTranslationUnit_KeepGoing, &u->queries) != CXError_Success)
    u->queries = NULL;
  return u->queries;
}

int hl_tu_asked(const hl_tu *u) { return u && u->queries; }

void hl_tu_prepare_queries(hl_tu *u) {
  if (!u->tu || u->queries || u->ahead || !(u->options & CXTranslationUnit_PrecompiledPreamble)) return;
  hl_crash_step("parsing for the trait questions", NULL);
  reparse_queries(u, u->unsaved, u->nunsaved);
}

/* A kept unit's trait memo, keyed to its parse as it is now. */
static hl_trait_memo *memo_of(hl_tu *u) {
  if (!u->memo) u->memo = hl_trait_memo_new();
  const struct CXUnsavedFile *own = hl_unsaved_find(u->unsaved, u->nunsaved, u->job->source);
  char *data = NULL;
  size_t len = 0;
  if (!own && hl_read_file(u->job->file, &data, &len)) data = NULL;
  hl_trait_memo_rekey(u->memo, hl_inclusions_update(&u->inclusions, u->tu, u->args, u->nargs, u->unsaved, u->nunsaved,
                                                    own ? own->Contents : data, own ? own->Length : len));
  free(data);
  return u->memo;
}

void hl_tu_abandon(hl_tu *u) {
  if (u && u->ahead) hl_ahead_drop(u->ahead);
  if (u) u->ahead = NULL;
}

void hl_tu_free(hl_tu *u) {
  if (!u) return;
  if (u->ahead) hl_ahead_drop(u->ahead);
  queries_dispose(u);
  if (u->tu) clang_disposeTranslationUnit(u->tu);
  /* After every unit parsed with it (the trait queries' too). */
  if (u->own_index) clang_disposeIndex(u->own_index);
  hl_trait_memo_free(u->memo);
  hl_inclusions_free(&u->inclusions);
  unsaved_free(u);
  free(u->args);
  free(u);
}

int hl_tu_compiles(CXIndex index, const hl_job *job, const struct CXUnsavedFile *unsaved, unsigned nunsaved,
                   char **first, FILE *log) {
  *first = NULL;
  hl_tu *u = hl_tu_parse(index, job, unsaved, nunsaved, CXTranslationUnit_None, log);
  if (!u) return -1;
  unsigned n = clang_getNumDiagnostics(u->tu);
  for (unsigned i = 0; i < n && !*first; i++) {
    CXDiagnostic d = clang_getDiagnostic(u->tu, i);
    if (clang_getDiagnosticSeverity(d) >= CXDiagnostic_Error) {
      CXFile f;
      unsigned line, col;
      clang_getSpellingLocation(clang_getDiagnosticLocation(d), &f, &line, &col, NULL);
      char *msg = hl_cxstring_take(clang_getDiagnosticSpelling(d));
      char *path = f ? hl_file_abspath(f, job->directory) : NULL;
      *first = path ? hl_xasprintf("%s:%u:%u: %s", hl_display_path(path), line, col, msg) : hl_xstrdup(msg);
      free(path);
      free(msg);
    }
    clang_disposeDiagnostic(d);
  }
  hl_tu_free(u);
  return *first ? 1 : 0;
}

typedef struct files_read {
  const char *workdir;
  hl_strv *out;
} files_read;

static void add_file_read(CXFile f, CXSourceLocation *stack, unsigned len, CXClientData data) {
  (void)stack;
  (void)len;
  files_read *r = data;
  /* The name the file system resolved when libclang opened the file is
   * canonical already: no need for realpath's system calls per file. */
  CXString real = clang_File_tryGetRealPathName(f);
  const char *name = clang_getCString(real);
  if (name && name[0] == '/') {
    hl_strv_add(r->out, name);
  } else {
    char *path = hl_file_abspath(f, r->workdir);
    hl_strv_add(r->out, path);
    free(path);
  }
  clang_disposeString(real);
}

void hl_tu_files(const hl_tu *u, hl_strv *out) {
  files_read r = {u->job->directory, out};
  hl_crash_step("listing the files the unit read", NULL);
  if (u->tu) clang_getInclusions(u->tu, add_file_read, &r);
}

void hl_tu_analyze(hl_run *run, hl_tu *u, const hl_config *cfg, FILE *log, hl_tu_result *res) {
  memset(res, 0, sizeof *res);
  res->result = HL_NOT_PARSED;
  const hl_job *job = u->job;
  if (!u->tu) return;
  hl_crash_step("reading the unit's diagnostics and target", NULL);
  /* A flag only GCC knows was ignored by the driver; the later parses
   * (traits, probes) go without it. */
  hl_diag_drop_unknown_args(u->tu, u->args, &u->nargs, job->file, log, run->verbose);

  hl_ctx ctx;
  memset(&ctx, 0, sizeof ctx);
  /* A kept unit's trait queries reparse a unit of their own. */
  int kept = (u->options & CXTranslationUnit_PrecompiledPreamble) != 0;
  ctx.unit = (hl_unit){u->index,
                       u->tu,
                       job,
                       u->args,
                       u->nargs,
                       u->unsaved,
                       u->nunsaved,
                       kept,
                       kept ? reparse_queries : NULL,
                       u,
                       kept ? memo_of(u) : NULL,
                       hl_unit_paths_new()};
  ctx.out = &res->findings;
  ctx.layouts = run->layouts ? &res->layouts : NULL;
  ctx.log = log;
  ctx.verbose = run->verbose;
  /* What libclang recovered of a unit with errors is analyzed too, as
   * clang-tidy does; a site whose types are invalid is never judged
   * (engine/broken). */
  res->compile_errors = hl_diag_errors(&ctx, &res->findings, log);
  ctx.options = cfg->options;
  ctx.noptions = cfg->noptions;
  ctx.max_inline_capacity = cfg->max_inline_capacity;
  if (run->summaries) ctx.summary = res->summary = hl_xcalloc(1, sizeof *res->summary);

  hl_selection sel;
  select_wrappers(run, cfg, &ctx, &sel, res, kept ? &u->inclusions : NULL);
  /* A kept unit's standard is asked once (a parse of its own). */
  ctx.cplusplus = u->cplusplus;
  ctx.cplusplus_asked = u->cplusplus != 0;

  ctx.types = hl_types_new(&ctx.unit, ctx.pointer_width);
  ctx.inst = hl_inst_new(&ctx.unit, &(hl_inst_options){run->check_instances, log});
  {
    /* Conversion probes ask what a call converts to the wrappers reported. */
    const char **names = hl_xcalloc(ctx.nwrappers ? ctx.nwrappers : 1, sizeof *names);
    for (size_t i = 0; i < ctx.nwrappers; i++) names[i] = ctx.wrappers[i]->name;
    hl_inst_conversion_targets(ctx.inst, names, ctx.nwrappers);
    free(names);
  }
  ctx.reach = hl_reach_new();

  run_rules(&ctx, cfg, res->compile_errors > 0);
  if (kept && ctx.cplusplus_asked) u->cplusplus = ctx.cplusplus;
  /* No trait question took the parse ahead: it is not kept (a unit per
   * open file); a later question parses afresh. */
  if (u->ahead) {
    hl_ahead_drop(u->ahead);
    u->ahead = NULL;
  }
  hl_apply_config(cfg, job, &res->findings);
  for (size_t i = 0; i < res->findings.n && res->compile_errors; i++) res->findings.v[i]->unit_has_errors = 1;
  if (run->record_inputs) record_inputs(u->tu, job, res);

  hl_ctx_allocations_free(&ctx);
  hl_types_free(ctx.types);
  hl_inst_free(ctx.inst);
  hl_unit_paths_free(ctx.unit.paths);
  hl_ctx_reach_free(&ctx);
  hl_selection_free(&sel);
  free(ctx.stack);
  free(ctx.triple);
  free(ctx.arch);
  res->result = HL_ANALYZED;
}

void hl_analyze(hl_run *run, CXIndex index, const hl_job *job, const hl_config *cfg, FILE *log, hl_tu_result *res) {
  memset(res, 0, sizeof *res);
  res->result = HL_NOT_PARSED;
  /* Before the parse reads the files: a file changed after this is not
   * trusted by its time in the result cache. */
  struct timespec now;
  clock_gettime(CLOCK_REALTIME, &now);
  /* KeepGoing, as the language server parses (and clangd): a fatal error
   * (an #include not found) does not end the parse, so what follows it is
   * analyzed as far as it parses, as after any other error. */
  hl_tu *u = hl_tu_parse(index, job, NULL, 0, CXTranslationUnit_KeepGoing, log);
  if (u) hl_tu_analyze(run, u, cfg, log, res);
  res->read_at = (long long)now.tv_sec * 1000000000LL + now.tv_nsec;
  hl_tu_free(u);
}
