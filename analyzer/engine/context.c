#include "engine/context.h"
#include "engine/context_impl.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/ast.h"
#include "engine/standard.h"
#include "util/util.h"

CXCursor hl_ctx_ancestor(const hl_ctx *ctx, size_t k) {
  if (k >= ctx->depth) return clang_getNullCursor();
  return ctx->stack[ctx->depth - 1 - k];
}

long hl_ctx_cplusplus(hl_ctx *ctx) {
  if (!ctx->cplusplus_asked) {
    ctx->cplusplus = hl_standard_cplusplus(ctx->unit.index, ctx->unit.job->source, ctx->unit.args, ctx->unit.nargs);
    ctx->cplusplus_asked = 1;
  }
  return ctx->cplusplus;
}

int hl_ctx_loc(const hl_ctx *ctx, CXSourceLocation loc, hl_loc *out) { return hl_unit_loc(&ctx->unit, loc, out); }

void hl_ctx_range_end(const hl_ctx *ctx, const hl_loc *at, CXCursor c, unsigned *end_line, unsigned *end_col) {
  (void)ctx;
  CXSourceRange r = clang_getCursorExtent(c);
  CXFile bf, ef;
  unsigned bo, eo, line, col;
  clang_getFileLocation(clang_getRangeStart(r), &bf, NULL, NULL, &bo);
  clang_getFileLocation(clang_getRangeEnd(r), &ef, &line, &col, &eo);
  if (!bf || !ef || !clang_File_isEqual(bf, ef) || at->offset < bo || eo <= at->offset) return;
  *end_line = line;
  *end_col = col;
}

void hl_ctx_range(const hl_ctx *ctx, hl_finding *f, CXCursor c) {
  hl_ctx_range_end(ctx, &f->loc, c, &f->end_line, &f->end_col);
}

int hl_ctx_wants_layouts(const hl_ctx *ctx) { return ctx->layouts != NULL; }

void hl_ctx_layout(hl_ctx *ctx, hl_layout *l) {
  if (ctx->layouts)
    hl_layouts_add(ctx->layouts, l);
  else
    hl_layout_free(l);
}

long hl_ctx_profile_number(const hl_ctx *ctx, const hl_profile_section *section, const char *name,
                           const char **library) {
  for (size_t i = 0; i < ctx->nnumbers; i++) {
    const hl_profile_numbers *x = &ctx->numbers[i];
    size_t t = x->section == section ? hl_str_index(name, section->names, section->n) : section->n;
    if (t < section->n && x->v[t] >= 0) {
      const hl_profile *from = x->from[t];
      if (library) *library = from->named ? from->named : from->library ? from->library : "the profile";
      return x->v[t];
    }
  }
  return -1;
}

const hl_wrapper *hl_ctx_wrapper_of_decl(const hl_ctx *ctx, CXCursor decl) {
  enum CXCursorKind k = clang_getCursorKind(decl);
  if (ctx->nwrappers == 0 || (k != CXCursor_ClassDecl && k != CXCursor_StructDecl)) return NULL;
  CXCursor tmpl = clang_getSpecializedCursorTemplate(decl);
  char *name = hl_decl_name(clang_Cursor_isNull(tmpl) ? decl : tmpl);
  const hl_wrapper *w = NULL;
  for (size_t i = 0; i < ctx->nwrappers && !w; i++)
    if (!strcmp(ctx->wrappers[i]->name, name)) w = ctx->wrappers[i];
  free(name);
  return w;
}

const hl_wrapper *hl_ctx_wrapper_of_type(const hl_ctx *ctx, CXType t) {
  if (t.kind == CXType_Invalid) return NULL;
  return hl_ctx_wrapper_of_decl(ctx, clang_getTypeDeclaration(clang_getCanonicalType(t)));
}

void hl_ctx_undecided(hl_ctx *ctx, const char *rule, const hl_loc *at, const char *reason, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  hl_sb m = {0};
  hl_sb_puts(&m, "not decided: ");
  hl_sb_vprintf(&m, fmt, ap);
  va_end(ap);
  hl_finding *f = hl_finding_new(rule, HL_SEV_NOTE, at, hl_sb_str(&m));
  f->undecided = reason;
  hl_sb_free(&m);
  hl_findings_add(ctx->out, f);
}

CXCursor hl_ctx_opaque_ancestor(const hl_ctx *ctx, size_t *k, CXCursor self, CXCursor *below) {
  CXCursor b = self, p = hl_ctx_ancestor(ctx, *k);
  while (hl_is_transparent(p)) {
    b = p;
    p = hl_ctx_ancestor(ctx, ++*k);
  }
  if (below) *below = b;
  return p;
}

CXTranslationUnit hl_ctx_tu(const hl_ctx *ctx) { return ctx->unit.tu; }
hl_summary *hl_ctx_summary(const hl_ctx *ctx) { return ctx->summary; }
const hl_job *hl_ctx_job(const hl_ctx *ctx) { return ctx->unit.job; }
int hl_ctx_pointer_width(const hl_ctx *ctx) { return ctx->pointer_width; }
hl_types *hl_ctx_types(const hl_ctx *ctx) { return ctx->types; }
int hl_ctx_verbose(const hl_ctx *ctx) { return ctx->verbose; }
const char *hl_ctx_triple(const hl_ctx *ctx) { return ctx->triple; }
void hl_ctx_note_template_call(hl_ctx *ctx, CXCursor call) { hl_reach_note_call(ctx->reach, call); }

size_t hl_ctx_reaching_calls(hl_ctx *ctx, const hl_loc *at, hl_reaching **out) {
  size_t n = 0, cap = 0, ncalls;
  const CXCursor *names = hl_reach_call_names(ctx->reach, &ncalls);
  *out = NULL;
  if (!ctx->reach_locs && ncalls) {
    /* Each call's place, once. */
    ctx->reach_locs = hl_xcalloc(ncalls, sizeof *ctx->reach_locs);
    ctx->reach_has_loc = hl_xcalloc(ncalls, 1);
    ctx->reach_flags = hl_xcalloc(ncalls, 1);
    ctx->reach_nlocs = ncalls;
    for (size_t i = 0; i < ncalls; i++)
      ctx->reach_has_loc[i] = !hl_ctx_loc(ctx, clang_getCursorLocation(names[i]), &ctx->reach_locs[i]);
  }
  size_t to = ctx->reach_nlocs;
  for (size_t i = 0; i < ctx->reach_nlocs && to == ctx->reach_nlocs; i++)
    if (ctx->reach_has_loc[i] && ctx->reach_locs[i].offset == at->offset && !strcmp(ctx->reach_locs[i].file, at->file))
      to = i;
  if (to == ctx->reach_nlocs) return 0;
  if (ctx->reach_to != to + 1) {
    hl_reach_callers(ctx->reach, to, ctx->reach_flags);
    ctx->reach_to = to + 1;
  }
  for (size_t i = 0; i < ctx->reach_nlocs; i++) {
    if (i == to || !ctx->reach_flags[i] || !ctx->reach_has_loc[i]) continue;
    hl_reaching r = {hl_loc_copy(&ctx->reach_locs[i]), hl_reach_same_callee(ctx->reach, i, to)};
    HL_PUSH(*out, n, cap, r);
  }
  return n;
}

void hl_ctx_reach_free(hl_ctx *ctx) {
  hl_reach_free(ctx->reach);
  for (size_t i = 0; i < ctx->reach_nlocs; i++)
    if (ctx->reach_has_loc[i]) hl_loc_free(&ctx->reach_locs[i]);
  free(ctx->reach_locs);
  free(ctx->reach_has_loc);
  free(ctx->reach_flags);
}

hl_inst *hl_ctx_inst(const hl_ctx *ctx) { return ctx->inst; }
void hl_ctx_allocation(hl_ctx *ctx, const char *rule, const hl_loc *at, const char *what) {
  hl_allocation a = {rule, hl_loc_copy(at), hl_xstrdup(what)};
  HL_PUSH(ctx->allocations, ctx->nallocations, ctx->capallocations, a);
}

void hl_ctx_report(hl_ctx *ctx, hl_finding *f) {
  hl_ctx_allocation(ctx, f->rule, &f->loc, f->message);
  hl_findings_add(ctx->out, f);
}

const hl_allocation *hl_ctx_allocations(const hl_ctx *ctx, size_t *n) {
  *n = ctx->nallocations;
  return ctx->allocations;
}

void hl_ctx_allocations_free(hl_ctx *ctx) {
  for (size_t i = 0; i < ctx->nallocations; i++) {
    hl_loc_free(&ctx->allocations[i].loc);
    free(ctx->allocations[i].what);
  }
  free(ctx->allocations);
  ctx->allocations = NULL;
  ctx->nallocations = ctx->capallocations = 0;
}

long hl_ctx_max_inline_capacity(const hl_ctx *ctx) { return ctx->max_inline_capacity; }

const char *const *hl_ctx_option(const hl_ctx *ctx, const hl_rule_option *option, size_t *n) {
  for (size_t i = 0; i < ctx->noptions; i++)
    if (ctx->options[i].option == option) {
      *n = ctx->options[i].items.n;
      return (const char *const *)ctx->options[i].items.v;
    }
  *n = 0;
  return NULL;
}

const hl_wrapper *const *hl_ctx_wrappers(const hl_ctx *ctx, size_t *n) {
  *n = ctx->nwrappers;
  return ctx->wrappers;
}
