/* any-sbo: a value stored into std::any (construction, assignment,
 * std::make_any, any::emplace) that the library cannot keep in its inline
 * buffer, so the any allocates it on the global heap.
 * See docs/rules/any-sbo.md. */
#include <stdlib.h>

#include "util/util.h"
#include "rules/sbo/sbo.h"

static char *noun(hl_ctx *ctx, const hl_sbo_site *s) {
  (void)ctx;
  if (!clang_Cursor_isNull(s->lambda) || hl_type_is_lambda(s->stored)) return hl_xstrdup("lambda");
  char *t = hl_type_spelling(s->stored);
  char *r = hl_xasprintf("value of type '%s'", t);
  free(t);
  return r;
}

static void fix(hl_ctx *ctx, const hl_sbo_site *s, const hl_sbo_verdict *v, const hl_sbo_fix *fx, hl_finding *f) {
  (void)ctx;
  (void)v;
  (void)fx;
  const hl_wrapper *w = s->wrapper;
  hl_sb b = {0};
  hl_sb_printf(&b, "%s keeps a value inline only up to %ld bytes", s->wrapper_spelling, w->buffer_size);
  if (w->max_align) hl_sb_printf(&b, ", align %ld", w->max_align);
  if (w->requires & HL_REQ_NOTHROW_MOVE) hl_sb_puts(&b, ", with a noexcept move constructor");
  hl_sb_puts(&b, "; store a pointer or std::reference_wrapper to it (e.g. an object from an hl_pool) instead");
  hl_finding_note(f, &s->loc, hl_sb_str(&b));
  hl_sb_free(&b);
}

static const hl_sbo_wording wording = {noun, NULL, NULL, fix, 0};

static void *begin(hl_ctx *ctx) {
  (void)ctx;
  return hl_sbo_begin("any-sbo", &wording);
}
static void visit(hl_ctx *ctx, void *st, CXCursor c) { hl_sbo_visit(ctx, st, c); }
static void prepare(hl_ctx *ctx, void *st) { hl_sbo_prepare(ctx, st); }
static void end(hl_ctx *ctx, void *st) { hl_sbo_end(ctx, st); }

const hl_rule hl_rule_any_sbo = {
    "any-sbo",
    "a value stored in std::any that does not fit its inline buffer",
    "A value stored into std::any (construction, assignment, std::make_any, any::emplace) that the standard "
    "library cannot keep in its inline buffer (too big, too aligned, or a move that may throw), so the any "
    "allocates it on the global heap, and again on every copy. Fix: store a pointer or reference_wrapper to "
    "a value that lives elsewhere (an hl_pool block), or a std::variant when the types are known.",
    begin, visit, prepare, end,
};
