#include "engine/context.h"

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

char *hl_file_abspath(CXFile f, const char *workdir) {
  CXString real = clang_File_tryGetRealPathName(f);
  const char *r = clang_getCString(real);
  char *path = NULL;
  if (r && r[0] == '/') path = hl_abspath(r);
  clang_disposeString(real);
  if (path) return path;
  CXString name = clang_getFileName(f);
  const char *n = clang_getCString(name);
  char *joined = (n && n[0] != '/' && workdir) ? hl_xasprintf("%s/%s", workdir, n) : hl_xstrdup(n ? n : "");
  clang_disposeString(name);
  path = hl_abspath(joined);
  free(joined);
  return path;
}

long hl_ctx_cplusplus(hl_ctx *ctx) {
  if (!ctx->cplusplus_asked) {
    ctx->cplusplus = hl_standard_cplusplus(ctx->index, ctx->job->source, ctx->args, ctx->nargs);
    ctx->cplusplus_asked = 1;
  }
  return ctx->cplusplus;
}

int hl_ctx_loc(const hl_ctx *ctx, CXSourceLocation loc, hl_loc *out) {
  CXFile file;
  unsigned line, col, offset;
  clang_getFileLocation(loc, &file, &line, &col, &offset);
  if (!file) return -1;
  out->file = hl_file_abspath(file, ctx->job->directory);
  out->line = line;
  out->col = col;
  out->offset = offset;
  return 0;
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

void hl_ctx_remark(const hl_ctx *ctx, const hl_loc *at, const char *fmt, ...) {
  if (!ctx->verbose) return;
  va_list ap;
  va_start(ap, fmt);
  fprintf(ctx->log, "%s:%u:%u: remark: ", hl_display_path(at->file), at->line, at->col);
  vfprintf(ctx->log, fmt, ap);
  fputc('\n', ctx->log);
  va_end(ap);
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
