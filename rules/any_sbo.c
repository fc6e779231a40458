/* any-sbo: a value stored into std::any (construction, assignment,
 * std::make_any, any::emplace) that the library cannot keep in its inline
 * buffer, so the any allocates it on the global heap.
 * See docs/rules/any-sbo.md. */
#include <stdlib.h>
#include <string.h>

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

static char *probed_noun(const char *type) {
  if (hl_starts_with(type, "(lambda at ") || strstr(type, "::(lambda at ")) return hl_xstrdup("lambda");
  return hl_xasprintf("value of type '%s'", type);
}

/* function-copy words the targets it follows the same way, through this
 * rule's data (hl_sbo_wording_of). */
static const hl_sbo_wording hl_any_sbo_wording = {noun, NULL, NULL, fix, probed_noun, 0};

const hl_rule hl_rule_any_sbo = {
    "any-sbo",
    &hl_any_sbo_wording,
    hl_sbo_begin,
    hl_sbo_visit,
    hl_sbo_prepare,
    hl_sbo_end,
    0,
    NULL, /* no link step */
    NULL, /* no project-wide plan */
    NULL,
    NULL, /* no numbers from the profiles, no config key */
};
