/* function-sbo: a callable stored into std::function (or
 * std::move_only_function, or a profile's own callback wrapper) that the
 * library cannot keep in its inline buffer, so constructing, copying and
 * destroying the wrapper calls the global heap. Fix: hl::inplace_function,
 * whose capacity is chosen to hold the target. See docs/rules/function-sbo.md. */
#include <stdlib.h>
#include <string.h>

#include "util/util.h"
#include "rules/sbo/alias_plan.h"
#include "rules/sbo/sbo.h"

/* libstdc++ spells a bind result std::_Bind<...> (std::_Bind_front<...>),
 * libc++ std::__bind<...> (std::__bind_front_t<...>): a name no user
 * writes, so it is said as what it is. */
static const char *bind_noun(const char *type) {
  if (strstr(type, "_Bind_front<") || strstr(type, "__bind_front")) return "std::bind_front result";
  if (strstr(type, "_Bind_back<") || strstr(type, "__bind_back")) return "std::bind_back result";
  if (strstr(type, "_Bind<") || strstr(type, "__bind<") || strstr(type, "__bind_r<")) return "std::bind result";
  return NULL;
}

static char *noun(hl_ctx *ctx, const hl_sbo_site *s) {
  (void)ctx;
  CXType c = clang_getCanonicalType(s->stored);
  if (s->decays ||
      (c.kind == CXType_Pointer && (clang_getCanonicalType(clang_getPointeeType(c)).kind == CXType_FunctionProto)))
    return hl_xstrdup("function pointer");
  if (c.kind == CXType_MemberPointer) return hl_xstrdup("member pointer");
  if (!clang_Cursor_isNull(s->lambda) || hl_type_is_lambda(s->stored)) return hl_xstrdup("lambda");
  if (!clang_Cursor_isNull(s->callee)) {
    char *fn = hl_decl_name(s->callee);
    char *r = NULL;
    if (!strcmp(fn, "std::bind") || !strcmp(fn, "std::bind_front") || !strcmp(fn, "std::bind_back"))
      r = hl_xasprintf("%s result", fn);
    else if (!strcmp(fn, "std::ref") || !strcmp(fn, "std::cref"))
      r = hl_xstrdup("std::reference_wrapper");
    free(fn);
    if (r) return r;
  }
  /* Reached through a variable (auto&& cb = std::bind(...)) or std::move,
   * a bind result is still one. */
  char *t = hl_type_spelling(s->stored), *canon = hl_type_spelling(c);
  const char *bound = bind_noun(t) ? bind_noun(t) : bind_noun(canon);
  char *r = bound                     ? hl_xstrdup(bound)
            : c.kind == CXType_Record ? hl_xasprintf("functor '%s'", t)
                                      : hl_xasprintf("callable of type '%s'", t);
  free(t);
  free(canon);
  return r;
}

/* hl::inplace_function copies, like std::function; a profile names another
 * replacement for a move-only wrapper (hl::inplace_move_function keeps it
 * move-only), or "none" where heaplint has none to offer. */
static const char *replacement(const hl_sbo_site *s) {
  const char *r = s->wrapper->replacement;
  if (!s->signature || (r && !strcmp(r, "none"))) return NULL;
  return r ? r : "hl::inplace_function";
}

static void fix(hl_ctx *ctx, const hl_sbo_site *s, const hl_sbo_verdict *v, const hl_sbo_fix *fx, hl_finding *f) {
  (void)ctx;
  const char *repl = replacement(s);
  if (!repl) return;
  /* Both default to alignof(std::max_align_t). */
  char *type = fx->align > 16 ? hl_xasprintf("%s<%s, %ld, %ld>", repl, s->signature, fx->capacity, fx->align)
                              : hl_xasprintf("%s<%s, %ld>", repl, s->signature, fx->capacity);
  int lambda = !clang_Cursor_isNull(s->lambda);
  char *m = hl_xasprintf(
      "%s %s (<heaplint/inplace_function.hpp>), which keeps targets of up to %ld bytes inline "
      "and never allocates%s%s%s",
      fx->rewritten ? "fix: retype the declaration as" : "use", type, fx->capacity,
      lambda && v->too_big && !fx->rewritten ? ", or capture less" : "",
      fx->blocked ? "; not rewritten automatically: " : "", fx->blocked ? fx->blocked : "");
  hl_finding_note(f, &s->loc, m);
  free(m);
  free(type);
}

static char *probed_noun(const char *type) {
  if (hl_starts_with(type, "(lambda at ") || strstr(type, "::(lambda at ")) return hl_xstrdup("lambda");
  if (bind_noun(type)) return hl_xstrdup(bind_noun(type));
  if (strstr(type, "(*)")) return hl_xstrdup("function pointer");
  return hl_xasprintf("functor '%s'", type);
}

/* API rewrites: each wrapper alias of the project's retyped for every value
 * stored through it, judged over the project index (rules/sbo/alias_plan.h). */
static void plan(const hl_index_lookup *ix, const hl_plan_policy *policy, hl_findings *out) {
  hl_sbo_alias_plan(ix, policy, "function-sbo", out);
}

/* function-copy words the targets it follows the same way, through this
 * rule's data (hl_sbo_wording_of).
 * hl::inplace_function (and hl::inplace_move_function) relocate the target
 * on every move of the wrapper, with no heap to fall back to: they reject a
 * target whose move may throw (docs/runtime.md). */
static const hl_sbo_wording hl_function_sbo_wording = {noun, replacement, "heaplint/inplace_function.hpp",
                                                       fix,  probed_noun, HL_REQ_NOTHROW_MOVE};

const hl_rule hl_rule_function_sbo = {
    "function-sbo",
    &hl_function_sbo_wording,
    hl_sbo_begin,
    hl_sbo_visit,
    hl_sbo_prepare,
    hl_sbo_end,
    0,
    NULL, /* no link step */
    plan,
    NULL,
    NULL, /* no numbers from the profiles, no config key */
};
