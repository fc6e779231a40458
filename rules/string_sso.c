/* string-sso: a std::basic_string with the default allocator built (or
 * assigned) from a source whose length is known at compile time and longer
 * than the library's small-string capacity for its character type, so that
 * building it calls the global operator new. Fix: a constant that is never
 * modified becomes a constexpr std::string_view or a static const
 * std::string; a local built on every iteration of a loop becomes an
 * hl::string (heaplint/containers.hpp). See docs/rules/string-sso.md.
 *
 * The uses of a variable come after the construction that makes it a
 * finding, so the walk records them; end() plans the fixes. */
#include <stdlib.h>
#include <string.h>

#include "util/util.h"
#include "rules/lib/rewrite.h"
#include "rules/lib/runtime_std.h"
#include "rules/lib/tokens.h"
#include "rules/lib/uses.h"
#include "rules/strings/fix.h"
#include "rules/strings/length.h"

#define RULE "string-sso"
#define POOL_HEADER "heaplint/containers.hpp"

/* The character types whose basic_string a profile states the inline
 * capacity of, as C++ spells them. */
static const char *const char_types[] = {"char", "wchar_t", "char8_t", "char16_t", "char32_t"};

/* The profiles' string: {sso-capacity: {char: 15, ...}}: basic_string<C>'s
 * inline capacity, in Cs, per library; a bare number is char's
 * (docs/profiles.md). */
static const hl_profile_section profile[] = {
    {"string", "sso-capacity", char_types, sizeof char_types / sizeof *char_types, 0, "character type"},
    {NULL, NULL, NULL, 0, -1, NULL},
};

typedef struct site {
  hl_loc loc;
  CXCursor expr;
  hl_strlen len;
  long capacity;
  const char *library;
  char *type_name; /* "std::string" */
  const char *char_type;
  int in_loop;       /* it runs, and allocates, on every iteration of a loop */
  char *assigned;    /* an assignment: to this variable ("the string" when unnamed); NULL: a construction */
  int var;           /* the local it initializes (vars), or -1 */
  char *argument_of; /* the function it is a temporary argument of, or NULL */
  int once;          /* a static local: built the first time the code runs, not reported
                        (an allocation for no-alloc's zones only) */
} site;

/* A local variable whose declaration a site initializes: a fix candidate. */
typedef struct var {
  CXCursor decl; /* canonical */
  CXCursor fn;   /* the function (or lambda) declaring it */
  hl_strfix fix;
} var;

typedef struct state {
  site *sites;
  size_t n, cap;
  var *vars;
  size_t nvars, capvars;
} state;

static void *begin(hl_ctx *ctx, const hl_rule *self) {
  (void)ctx;
  (void)self;
  return hl_xcalloc(1, sizeof(state));
}

static char *spelling(CXCursor c) { return hl_cxstring_take(clang_getCursorSpelling(c)); }

/* "std::string" for basic_string<char> with std::char_traits, ... */
static char *type_name(CXType t, const char *char_type, int std_traits) {
  static const char *const names[][2] = {{"char", "std::string"},
                                         {"wchar_t", "std::wstring"},
                                         {"char8_t", "std::u8string"},
                                         {"char16_t", "std::u16string"},
                                         {"char32_t", "std::u32string"}};
  for (size_t i = 0; std_traits && i < sizeof names / sizeof *names; i++)
    if (!strcmp(names[i][0], char_type)) return hl_xstrdup(names[i][1]);
  return hl_type_readable(t);
}

/* An elidable copy or move of a string temporary (below C++17): what it
 * copies is the construction. */
static int is_copy_of_temporary(CXCursor c) {
  CXCursor fn = clang_getCursorReferenced(c);
  if (clang_getCursorKind(c) != CXCursor_CallExpr || clang_getCursorKind(fn) != CXCursor_Constructor ||
      clang_Cursor_getNumArguments(c) != 1)
    return 0;
  CXType p = clang_getCanonicalType(clang_getArgType(clang_getCursorType(fn), 0));
  return hl_is_ref(p) && hl_string_char_type(p, NULL);
}

/* What takes the string a construction makes: the first ancestor that is
 * no implicit conversion, no functional cast and no elidable copy; *k
 * becomes its depth. */
static CXCursor consumer(hl_ctx *ctx, CXCursor c, size_t *k) {
  *k = 0;
  CXCursor p = hl_ctx_opaque_ancestor(ctx, k, c, NULL);
  while (is_copy_of_temporary(p) || clang_getCursorKind(p) == CXCursor_CXXFunctionalCastExpr) {
    ++*k;
    p = hl_ctx_opaque_ancestor(ctx, k, p, NULL);
  }
  return p;
}

/* A variable that lives for the whole program (or thread): built once,
 * not on every run of the code. */
static int lives_long(CXCursor v) {
  enum CX_StorageClass sc = clang_Cursor_getStorageClass(v);
  return sc == CX_SC_Static || sc == CX_SC_Extern || clang_getCursorTLSKind(v) != CXTLS_None ||
         !hl_is_function_like(clang_getCursorKind(clang_getCursorSemanticParent(v)));
}

/* The local variable at depth k (declared alone in its statement), as a
 * fix candidate: its index in vars, or -1. */
static int candidate(hl_ctx *ctx, state *S, CXCursor v, size_t k) {
  CXCursor stmt = hl_ctx_ancestor(ctx, k + 1);
  if (clang_getCursorKind(stmt) != CXCursor_DeclStmt || !clang_equalCursors(hl_first_child(stmt), v) ||
      !clang_equalCursors(hl_last_child(stmt), v) || hl_is_ref(clang_getCursorType(v)))
    return -1;
  CXCursor fn = clang_getNullCursor();
  for (size_t d = k + 1; clang_Cursor_isNull(fn) && !clang_Cursor_isNull(hl_ctx_ancestor(ctx, d)); d++)
    if (hl_is_function_like(clang_getCursorKind(hl_ctx_ancestor(ctx, d)))) fn = hl_ctx_ancestor(ctx, d);
  var x = {clang_getCanonicalCursor(v), fn, {{NULL}}};
  HL_PUSH(S->vars, S->nvars, S->capvars, x);
  return (int)S->nvars - 1;
}

/* A construction (a constructor, operator+, ""s): its length. Returns 0,
 * or -1 when it is no site of its own (a piece of a concatenation, a
 * variable that lives for the whole program) or its length is unknown. */
static int construction(hl_ctx *ctx, state *S, CXCursor c, site *s) {
  size_t k;
  CXCursor p = consumer(ctx, c, &k);
  if (hl_strlen_is_concat(p)) return -1;
  int ctor = clang_getCursorKind(clang_getCursorReferenced(c)) == CXCursor_Constructor;
  if (ctor ? hl_strlen_construct(ctx, c, &s->len) : hl_strlen_call(ctx, c, &s->len)) return -1;
  if (clang_getCursorKind(p) == CXCursor_VarDecl) {
    if (lives_long(p)) {
      s->once = hl_is_function_like(clang_getCursorKind(clang_getCursorSemanticParent(p)));
      return s->once ? 0 : -1;
    }
    s->var = candidate(ctx, S, p, k);
  }
  CXCursor fn = clang_getCursorReferenced(p);
  if (clang_getCursorKind(p) == CXCursor_CallExpr && clang_getCursorKind(fn) == CXCursor_FunctionDecl)
    s->argument_of = spelling(fn);
  s->in_loop = !clang_Cursor_isNull(hl_loop_around(ctx, c));
  return 0;
}

/* Whether decl is declared inside loop: assigned there, it is a new
 * string on every iteration. */
static int declared_in(CXCursor decl, CXCursor loop) {
  CXSourceRange r = clang_getCursorExtent(loop);
  unsigned at, from, to;
  CXFile f, lf, lt;
  clang_getFileLocation(clang_getCursorLocation(decl), &f, NULL, NULL, &at);
  clang_getFileLocation(clang_getRangeStart(r), &lf, NULL, NULL, &from);
  clang_getFileLocation(clang_getRangeEnd(r), &lt, NULL, NULL, &to);
  return f && lf && clang_File_isEqual(f, lf) && from <= at && at < to;
}

/* s = "...", s.assign("..."): it allocates when the string has no room
 * yet, on every iteration only when the string is new every time. */
static int assignment(hl_ctx *ctx, CXCursor c, CXCursor method, site *s) {
  char *m = spelling(method);
  int n = clang_Cursor_getNumArguments(c);
  int ok = (!strcmp(m, "operator=") && n == 2) || (!strcmp(m, "assign") && n == 1);
  free(m);
  if (!ok || hl_strlen_source(ctx, clang_Cursor_getArgument(c, (unsigned)n - 1), &s->len)) return -1;
  CXCursor obj = hl_strip(hl_first_child(c));
  if (clang_getCursorKind(obj) == CXCursor_MemberRefExpr) obj = hl_strip(hl_first_child(obj));
  CXCursor decl =
      clang_getCursorKind(obj) == CXCursor_DeclRefExpr ? clang_getCursorReferenced(obj) : clang_getNullCursor();
  s->assigned = clang_Cursor_isNull(decl) ? hl_xstrdup("the string") : spelling(decl);
  CXCursor loop = hl_loop_around(ctx, c);
  s->in_loop = !clang_Cursor_isNull(loop) && !clang_Cursor_isNull(decl) && declared_in(decl, loop);
  return 0;
}

/* "keeps at most 15 characters inline", "keeps no characters inline" (an
 * ABI with no small-string buffer). Caller frees. */
static char *keeps(long capacity) {
  if (capacity == 0) return hl_xstrdup("keeps no characters inline");
  return hl_xasprintf("keeps at most %ld character%s inline", capacity, capacity == 1 ? "" : "s");
}

static void judge(hl_ctx *ctx, state *S, CXCursor c) {
  CXType t = clang_getCursorType(c);
  int std_traits = 0;
  const char *ct = hl_string_char_type(t, &std_traits);
  if (!ct) return;
  CXCursor fn = clang_getCursorReferenced(c);
  site s;
  memset(&s, 0, sizeof s);
  s.var = -1;
  int r = clang_getCursorKind(fn) == CXCursor_CXXMethod ? assignment(ctx, c, fn, &s) : construction(ctx, S, c, &s);
  if (r == 0) s.capacity = hl_ctx_profile_number(ctx, &profile[0], ct, &s.library);
  if (r != 0 || s.capacity < 0 || s.len.min <= s.capacity || hl_ctx_loc(ctx, clang_getCursorLocation(c), &s.loc)) {
    free(s.assigned);
    free(s.argument_of);
    return;
  }
  s.expr = c;
  s.char_type = ct;
  s.type_name = type_name(clang_getCanonicalType(hl_unref(t)), ct, std_traits);
  if (s.once) {
    char *k = keeps(s.capacity);
    char *m = hl_xasprintf("the static %s built from %s of %ld character%s allocates the first time this runs: %s %s",
                           s.type_name, s.len.what, s.len.min, s.len.min == 1 ? "" : "s", s.library, k);
    hl_ctx_allocation(ctx, RULE, &s.loc, m);
    free(m);
    free(k);
    free(s.type_name);
    hl_loc_free(&s.loc);
    return;
  }
  HL_PUSH(S->sites, S->n, S->cap, s);
}

static void use(hl_ctx *ctx, state *S, CXCursor ref) {
  CXCursor decl = hl_use_target(ref);
  for (size_t i = 0; i < S->nvars && !clang_Cursor_isNull(decl); i++)
    if (clang_equalCursors(S->vars[i].decl, decl)) hl_strfix_use(ctx, ref, &S->vars[i].fix);
}

static void visit(hl_ctx *ctx, void *st, CXCursor c) {
  state *S = st;
  enum CXCursorKind k = clang_getCursorKind(c);
  if (k == CXCursor_CallExpr)
    judge(ctx, S, c);
  else if (k == CXCursor_DeclRefExpr && S->nvars)
    use(ctx, S, c);
}

/* ---- the finding and its fix ---- */

/* A constexpr (or consteval) function may not declare a static variable. */
static int constexpr_function(hl_ctx *ctx, CXCursor fn) {
  CXCursor body = hl_last_child(fn);
  hl_strv t = hl_tokens(ctx, clang_getRange(clang_getRangeStart(clang_getCursorExtent(fn)),
                                            clang_getRangeStart(clang_getCursorExtent(body))));
  int found =
      hl_str_in("constexpr", (const char *const *)t.v, t.n) || hl_str_in("consteval", (const char *const *)t.v, t.n);
  hl_strv_free(&t);
  return found;
}

typedef struct plan {
  const char *how;    /* the note's words for the rewrite */
  char *text;         /* the new type */
  const char *header; /* the header it needs, or NULL */
  char *blocked;      /* why there is none */
} plan;

/* The rewrite of v's declaration: the first of view, static, pool that
 * every use allows. */
static void choose(hl_ctx *ctx, const site *s, var *v, const char *alias, int is_const, plan *p) {
  long std = hl_ctx_cplusplus(ctx);
  int u8 = !strcmp(alias, "u8string");
  char *runtime = s->in_loop ? hl_runtime_blocked(ctx, POOL_HEADER) : NULL;
  if (!v->fix.blocked[HL_STRFIX_VIEW] && !clang_Cursor_isNull(s->len.literal) && std >= (u8 ? 202002L : 201703L)) {
    p->how = "it is only read: a view of the literal never allocates";
    p->text = hl_xasprintf("constexpr std::%s_view", alias);
    p->header = "string_view";
  } else if (!v->fix.blocked[HL_STRFIX_STATIC] && s->len.constant && !constexpr_function(ctx, v->fn)) {
    p->how = "it is never modified: built once, the first time this runs, instead of every time";
    p->text = hl_xasprintf("static const std::%s", alias);
  } else if (s->in_loop && !v->fix.blocked[HL_STRFIX_POOL] && !runtime) {
    p->how = "its characters come from heaplint's pools, never from the global operator new";
    p->text = u8 ? hl_xasprintf("%shl::basic_string<char8_t>", is_const ? "const " : "")
                 : hl_xasprintf("%shl::%s", is_const ? "const " : "", alias);
    p->header = POOL_HEADER;
  } else if (s->in_loop) {
    /* What the code does first: adding the runtime would not lift it. */
    p->blocked = v->fix.blocked[HL_STRFIX_POOL] ? hl_xstrdup(v->fix.blocked[HL_STRFIX_POOL]) : runtime;
    if (p->blocked == runtime) runtime = NULL;
  } else if (s->len.constant) {
    p->blocked = hl_xstrdup(v->fix.blocked[HL_STRFIX_STATIC] ? v->fix.blocked[HL_STRFIX_STATIC]
                                                             : "it is declared in a constexpr function");
  }
  free(runtime);
}

static void fix_note(hl_ctx *ctx, const site *s, var *v, hl_finding *f) {
  hl_edit type, include;
  memset(&include, 0, sizeof include);
  char *alias = NULL, *why = NULL, *m = NULL;
  int is_const = 0;
  plan p = {NULL, NULL, NULL, NULL};
  if (hl_strfix_type(ctx, v->decl, &type, &alias, &is_const, &why) == 0) choose(ctx, s, v, alias, is_const, &p);
  if (p.text) {
    m = hl_xasprintf("fix: declare it as %s: %s", p.text, p.how);
    type.text = p.text;
    p.text = NULL;
    hl_finding_edit(f, &type);
    if (p.header && hl_rewrite_include(ctx, type.file, p.header, &include) == 0) hl_finding_edit(f, &include);
  } else if (s->in_loop) {
    m = hl_xasprintf("use hl::string (<" POOL_HEADER
                     ">), whose characters come from heaplint's pools; not "
                     "rewritten automatically: %s",
                     why ? why : p.blocked);
  } else if (s->len.constant) {
    m = hl_xasprintf(
        "a constant: declare it static const, or as a constexpr std::string_view; not rewritten "
        "automatically: %s",
        why ? why : p.blocked);
  }
  if (m) hl_finding_note(f, &s->loc, m);
  free(m);
  free(alias);
  free(why);
  free(p.blocked);
  hl_edit_free(&type);
  hl_edit_free(&include);
}

static void add_finding(hl_ctx *ctx, state *S, const site *s) {
  const char *iter = s->in_loop ? " on every iteration of the enclosing loop" : "";
  const char *plural = s->len.min == 1 ? "" : "s";
  char *k = keeps(s->capacity);
  char *m = s->assigned
                ? hl_xasprintf(
                      "assigning %s of %s%ld character%s to %s '%s' allocates%s unless it has the room "
                      "already: %s %s",
                      s->len.what, s->len.exact ? "" : "at least ", s->len.min, plural, s->type_name, s->assigned, iter,
                      s->library, k)
                : hl_xasprintf("%s built from %s of %s%ld character%s allocates%s: %s %s", s->type_name, s->len.what,
                               s->len.exact ? "" : "at least ", s->len.min, plural, iter, s->library, k);
  hl_finding *f = hl_finding_new(RULE, HL_SEV_WARNING, &s->loc, m);
  free(m);
  free(k);
  hl_ctx_range(ctx, f, s->expr);
  if (s->var >= 0) {
    fix_note(ctx, s, &S->vars[s->var], f);
  } else if (s->len.constant && s->argument_of) {
    m = hl_xasprintf(
        "a constant made into a temporary for %s(): pass a static const std::string built once, or "
        "let %s() take a std::string_view",
        s->argument_of, s->argument_of);
    hl_finding_note(f, &s->loc, m);
    free(m);
  }
  hl_ctx_report(ctx, f);
}

static void end(hl_ctx *ctx, void *st) {
  state *S = st;
  for (size_t i = 0; i < S->n; i++) add_finding(ctx, S, &S->sites[i]);
  for (size_t i = 0; i < S->n; i++) {
    hl_loc_free(&S->sites[i].loc);
    free(S->sites[i].type_name);
    free(S->sites[i].assigned);
    free(S->sites[i].argument_of);
  }
  for (size_t i = 0; i < S->nvars; i++) hl_strfix_free(&S->vars[i].fix);
  free(S->sites);
  free(S->vars);
  free(S);
}

const hl_rule hl_rule_string_sso = {
    RULE,    NULL, begin, visit, NULL, end, /* lengths and capacities are known after the walk */
    0,       NULL,                          /* no link step */
    NULL,                                   /* no project-wide plan */
    profile, NULL,                          /* no config key */
};
