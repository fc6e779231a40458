/* hl-groundtruth: the measured ground truth for heaplint's function-sbo,
 * any-sbo and function-copy rules. Instead of trusting the profiles' numbers,
 * it lets the real standard libraries decide: a generated program stores
 * callables and values into std::function, std::move_only_function and
 * std::any (or copies a std::function), and counts the global operator new
 * calls each site makes; heaplint must warn on exactly the lines whose site
 * allocated.
 *
 *   hl-groundtruth generate libstdc++ | libc++ | move_only_function
 *       Writes the corpus, a C++ program, on stdout: std::function and
 *       std::any in C++17 for libstdc++ (built with g++) or libc++ (clang++);
 *       std::move_only_function in C++23 for libstdc++ (libc++ 19 has none).
 *       Run, the program prints "<line> <allocations> <label>" for each site,
 *       <line> being the line heaplint should report.
 *
 *   hl-groundtruth generate templates-libstdc++ | templates-libc++
 *       The templates corpus (C++17, issue 12): stores in class templates'
 *       members and function templates, [&] lambdas in templates, sinks
 *       (templates storing the caller's callable, reported at the caller),
 *       shared_ptrs to function-local types, and copies of std::function.
 *       Each site prints "<line> <allocations> rule=<rule> cat=<category>
 *       expect=<recorded count> store=<line in the template or 0> <label>";
 *       the counts recorded per library are in templates_expected.inc.
 *
 *   hl-groundtruth record <measured templates-libstdc++> <measured templates-libc++>
 *       Prints templates_expected.inc from the two programs' output, after
 *       the corpus changed (check the new counts before committing them).
 *
 *   hl-groundtruth compare [--min-sites N] [--report-only] <name> <measured>
 *                          <heaplint output>
 *       Compares the program's output with heaplint's diagnostics (stdout and
 *       stderr of heaplint -v), prints every disagreement and a summary
 *       (precision and recall for constructions and for copies, the sites
 *       heaplint left undecided, and per category), and fails on a
 *       disagreement, on a count that differs from the recorded one, or when
 *       fewer than N (default 100) sites were measured. --report-only does
 *       not fail on disagreements (the measurement is still checked).
 *
 * A site is one statement on one line. Its measured window covers only the
 * store: captured values are prepared before it, containers reserve first or
 * take their nodes from malloc, and nothing stored needs heap memory of its own
 * (strings stay within the small-string buffer, vectors are empty). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen.h"

/* ---- a growing string ---- */

void *xrealloc(void *p, size_t n) {
  void *r = realloc(p, n);
  if (!r) {
    fputs("hl-groundtruth: out of memory\n", stderr);
    exit(2);
  }
  return r;
}

void buf_putn(buf *b, const char *s, size_t n) {
  if (b->n + n + 1 > b->cap) {
    b->cap = (b->n + n + 1) * 2;
    b->s = xrealloc(b->s, b->cap);
  }
  memcpy(b->s + b->n, s, n);
  b->n += n;
  b->s[b->n] = '\0';
}

void buf_puts(buf *b, const char *s) { buf_putn(b, s, strlen(s)); }

void buf_vprintf(buf *b, const char *fmt, va_list ap) {
  va_list again;
  va_copy(again, ap);
  int n = vsnprintf(NULL, 0, fmt, ap);
  char *tmp = xrealloc(NULL, (size_t)n + 1);
  vsnprintf(tmp, (size_t)n + 1, fmt, again);
  va_end(again);
  buf_putn(b, tmp, (size_t)n);
  free(tmp);
}

void buf_printf(buf *b, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  buf_vprintf(b, fmt, ap);
  va_end(ap);
}

/* ---- the corpus being written ---- */

void put(gen *g, const char *s) {
  for (const char *p = s; *p; p++) g->lines += *p == '\n';
  buf_puts(&g->out, s);
}

void putf(gen *g, const char *fmt, ...) {
  buf b = {0};
  va_list ap;
  va_start(ap, fmt);
  buf_vprintf(&b, fmt, ap);
  va_end(ap);
  put(g, b.s);
  free(b.s);
}

/* Fills one placeholder of a site template; NULL when it is not one. */
static const char *placeholder(const char *name, size_t len, const gen *g, const char *wrapper, const store *s,
                               char *num, size_t numsz) {
#define IS(lit) (len == sizeof lit - 1 && !memcmp(name, lit, len))
  if (IS("N")) {
    snprintf(num, numsz, "%d", g->nsites);
    return num;
  }
  if (IS("W")) return wrapper;
  if (IS("LABEL")) return s->label;
  if (IS("SETUP")) return s->setup ? s->setup : "";
  if (IS("EXPR")) return s->expr;
  if (IS("SELF")) return s->self ? s->self : "";
  if (IS("T")) {
    if (!s->type) {
      fprintf(stderr, "hl-groundtruth: site '%s': its context constructs in place, but it names no type\n", s->label);
      exit(2);
    }
    return s->type;
  }
  if (IS("ARGS")) return s->args ? s->args : "";
  if (IS("COMMA_ARGS")) return s->args && *s->args ? "," : "";
  if (IS("RULE")) return g->rule ? g->rule : "";
  if (IS("CAT")) return g->cat ? g->cat : "";
  if (IS("EXPECT") || IS("SRCEXPECT")) {
    snprintf(num, numsz, "%ld", IS("EXPECT") ? g->expect : g->srcexpect);
    return num;
  }
  return NULL;
#undef IS
}

/* The lines a site template marks by starting them with a character (which
 * is dropped): '@' the site, the line heaplint should report ($LINE); '%' a
 * second measured store in the same template, the source a copy site copies
 * ($SRCLINE); '!' the store inside a template that a sink site reaches
 * ($STORE, where heaplint may say "not decided" but should not warn). Only
 * '@' is required; an unmarked $SRCLINE or $STORE is 0. */
static const char marks[] = "@%!";
static const char *const mark_names[] = {"$LINE", "$SRCLINE", "$STORE"};
#define NMARKS 3

/* Writes one site from a template (see marks[]); the $NAMEs come from the
 * store (see placeholder()). */
void site(gen *g, const char *tmpl, const char *wrapper, const store *s) {
  g->nsites++;
  for (const char *p = s->label; *p; p++)
    if (*p == '"' || *p == '\\') {
      fprintf(stderr, "hl-groundtruth: label '%s' must not contain quotes or backslashes\n", s->label);
      exit(2);
    }
  buf t = {0};
  for (const char *p = tmpl; *p;) {
    if (*p != '$') {
      buf_putn(&t, p++, 1);
      continue;
    }
    size_t len = 0;
    while ((p[1 + len] >= 'A' && p[1 + len] <= 'Z') || p[1 + len] == '_') len++;
    char num[32];
    const char *v = placeholder(p + 1, len, g, wrapper, s, num, sizeof num);
    if (v) {
      if (strchr(v, '\n')) {
        fprintf(stderr, "hl-groundtruth: site '%s': a placeholder's text spans lines\n", s->label);
        exit(2);
      }
      buf_puts(&t, v);
    } else {
      buf_putn(&t, p, len + 1); /* a mark's line, filled below */
    }
    p += len + 1;
  }
  /* The marked lines, counted from the next line written. */
  int at[NMARKS] = {0, 0, 0}, line = g->lines + 1;
  for (size_t i = 0; i < t.n; i++) {
    const char *m = i == 0 || t.s[i - 1] == '\n' ? strchr(marks, t.s[i]) : NULL;
    if (m && *m) {
      int k = (int)(m - marks);
      if (at[k]) {
        fprintf(stderr, "hl-groundtruth: site '%s': the template marks two lines with '%c'\n", s->label, *m);
        exit(2);
      }
      at[k] = line;
      memmove(t.s + i, t.s + i + 1, t.n - i);
      t.n--;
    }
    if (t.s[i] == '\n') line++;
  }
  if (!at[0]) {
    fprintf(stderr, "hl-groundtruth: site '%s': the template marks no line\n", s->label);
    exit(2);
  }
  buf o = {0};
  for (char *p = t.s; *p;) {
    int k = 0;
    while (k < NMARKS && (p[0] != '$' || strncmp(p, mark_names[k], strlen(mark_names[k])) ||
                          (p[strlen(mark_names[k])] >= 'A' && p[strlen(mark_names[k])] <= 'Z')))
      k++;
    if (k < NMARKS) {
      char num[32];
      snprintf(num, sizeof num, "%d", at[k]);
      buf_puts(&o, num);
      p += strlen(mark_names[k]);
    } else {
      buf_putn(&o, p++, 1);
    }
  }
  put(g, o.s);
  free(o.s);
  free(t.s);
}

/* ---- site templates: where the store happens ---- */

/* The plain case: every store of the tables below is tried in it (or, for
 * this captures, in in_member). */
static const char copy_init[] =
    "static void site_$N() {\n"
    "  $SETUP\n"
    "  hl_gt::begin();\n"
    "@  $W w = $EXPR;\n"
    "  hl_gt::end($LINE, \"$LABEL\");\n"
    "}\n";

/* A lambda capturing this or *this must be written in a member function. */
static const char in_member[] =
    "struct self_$N {\n"
    "  $SELF\n"
    "  void run() {\n"
    "    $SETUP\n"
    "    hl_gt::begin();\n"
    "@    $W w = $EXPR;\n"
    "    hl_gt::end($LINE, \"$LABEL\");\n"
    "  }\n"
    "};\n"
    "static void site_$N() { self_$N().run(); }\n";

/* Contexts, each tried with a few stores that need no setup. */
static const char direct_init[] =
    "static void site_$N() {\n"
    "  hl_gt::begin();\n"
    "@  $W w($EXPR);\n"
    "  hl_gt::end($LINE, \"$LABEL\");\n"
    "}\n";

static const char brace_init[] =
    "static void site_$N() {\n"
    "  hl_gt::begin();\n"
    "@  $W w{$EXPR};\n"
    "  hl_gt::end($LINE, \"$LABEL\");\n"
    "}\n";

static const char assign[] =
    "static void site_$N() {\n"
    "  $W w;\n"
    "  hl_gt::begin();\n"
    "@  w = $EXPR;\n"
    "  hl_gt::end($LINE, \"$LABEL\");\n"
    "}\n";

static const char arg_by_value[] =
    "static void take_$N($W w) { hl_gt::use(w); }\n"
    "static void site_$N() {\n"
    "  hl_gt::begin();\n"
    "@  take_$N($EXPR);\n"
    "  hl_gt::end($LINE, \"$LABEL\");\n"
    "}\n";

static const char arg_by_cref[] =
    "static void take_$N(const $W &w) { hl_gt::use(w); }\n"
    "static void site_$N() {\n"
    "  hl_gt::begin();\n"
    "@  take_$N($EXPR);\n"
    "  hl_gt::end($LINE, \"$LABEL\");\n"
    "}\n";

static const char returned[] =
    "static $W make_$N() {\n"
    "@  return $EXPR;\n"
    "}\n"
    "static void site_$N() {\n"
    "  hl_gt::begin();\n"
    "  $W w = make_$N();\n"
    "  hl_gt::end($LINE, \"$LABEL\");\n"
    "}\n";

static const char member_init[] =
    "struct holder_$N {\n"
    "  $W w;\n"
    "@  holder_$N() : w($EXPR) {}\n"
    "};\n"
    "static void site_$N() {\n"
    "  hl_gt::begin();\n"
    "  holder_$N h;\n"
    "  hl_gt::end($LINE, \"$LABEL\");\n"
    "}\n";

static const char default_member_init[] =
    "struct holder_$N {\n"
    "@  $W w = $EXPR;\n"
    "};\n"
    "static void site_$N() {\n"
    "  hl_gt::begin();\n"
    "  holder_$N h;\n"
    "  hl_gt::end($LINE, \"$LABEL\");\n"
    "}\n";

static const char push_back[] =
    "static void site_$N() {\n"
    "  std::vector<$W> v;\n"
    "  v.reserve(2);\n"
    "  hl_gt::begin();\n"
    "@  v.push_back($EXPR);\n"
    "  hl_gt::end($LINE, \"$LABEL\");\n"
    "}\n";

static const char emplace_back[] =
    "static void site_$N() {\n"
    "  std::vector<$W> v;\n"
    "  v.reserve(2);\n"
    "  hl_gt::begin();\n"
    "@  v.emplace_back($EXPR);\n"
    "  hl_gt::end($LINE, \"$LABEL\");\n"
    "}\n";

static const char vector_insert[] =
    "static void site_$N() {\n"
    "  std::vector<$W> v;\n"
    "  v.reserve(2);\n"
    "  hl_gt::begin();\n"
    "@  v.insert(v.end(), $EXPR);\n"
    "  hl_gt::end($LINE, \"$LABEL\");\n"
    "}\n";

static const char list_emplace_back[] =
    "static void site_$N() {\n"
    "  hl_gt::list<$W> l;\n"
    "  hl_gt::begin();\n"
    "@  l.emplace_back($EXPR);\n"
    "  hl_gt::end($LINE, \"$LABEL\");\n"
    "}\n";

static const char deque_push_back[] =
    "static void site_$N() {\n"
    "  hl_gt::deque<$W> d;\n"
    "  hl_gt::begin();\n"
    "@  d.push_back($EXPR);\n"
    "  hl_gt::end($LINE, \"$LABEL\");\n"
    "}\n";

static const char map_emplace[] =
    "static void site_$N() {\n"
    "  hl_gt::map<$W> m;\n"
    "  hl_gt::begin();\n"
    "@  m.emplace(1, $EXPR);\n"
    "  hl_gt::end($LINE, \"$LABEL\");\n"
    "}\n";

static const char map_try_emplace[] =
    "static void site_$N() {\n"
    "  hl_gt::map<$W> m;\n"
    "  hl_gt::begin();\n"
    "@  m.try_emplace(1, $EXPR);\n"
    "  hl_gt::end($LINE, \"$LABEL\");\n"
    "}\n";

static const char map_subscript[] =
    "static void site_$N() {\n"
    "  hl_gt::map<$W> m;\n"
    "  hl_gt::begin();\n"
    "@  m[1] = $EXPR;\n"
    "  hl_gt::end($LINE, \"$LABEL\");\n"
    "}\n";

static const char map_insert[] =
    "static void site_$N() {\n"
    "  hl_gt::map<$W> m;\n"
    "  hl_gt::begin();\n"
    "@  m.insert({1, $EXPR});\n"
    "  hl_gt::end($LINE, \"$LABEL\");\n"
    "}\n";

static const char umap_emplace[] =
    "static void site_$N() {\n"
    "  hl_gt::umap<$W> m;\n"
    "  m.reserve(4);\n"
    "  hl_gt::begin();\n"
    "@  m.emplace(1, $EXPR);\n"
    "  hl_gt::end($LINE, \"$LABEL\");\n"
    "}\n";

static const char in_loop[] =
    "static void site_$N() {\n"
    "  hl_gt::begin();\n"
    "  for (int i = 0; i < 3; ++i) {\n"
    "@    $W w = $EXPR;\n"
    "  }\n"
    "  hl_gt::end($LINE, \"$LABEL\");\n"
    "}\n";

static const char in_while_loop[] =
    "static void site_$N() {\n"
    "  int i = 0;\n"
    "  hl_gt::begin();\n"
    "  while (i++ < 2)\n"
    "@    hl_gt::use($W($EXPR));\n"
    "  hl_gt::end($LINE, \"$LABEL\");\n"
    "}\n";

static const char in_lambda_body[] =
    "static void site_$N() {\n"
    "  auto outer = [] {\n"
    "@    $W w = $EXPR;\n"
    "  };\n"
    "  hl_gt::begin();\n"
    "  outer();\n"
    "  hl_gt::end($LINE, \"$LABEL\");\n"
    "}\n";

static const char in_function_template[] =
    "template <class T> void tmpl_$N() {\n"
    "@  $W w = $EXPR;\n"
    "}\n"
    "static void site_$N() {\n"
    "  hl_gt::begin();\n"
    "  tmpl_$N<int>();\n"
    "  hl_gt::end($LINE, \"$LABEL\");\n"
    "}\n";

static const char through_macro_arg[] =
    "static void site_$N() {\n"
    "  hl_gt::begin();\n"
    "@  HLGT_DECLARE($W, w, $EXPR);\n"
    "  hl_gt::end($LINE, \"$LABEL\");\n"
    "}\n";

/* The stored expression is the body of a macro defined right above. */
static const char through_macro_body[] =
    "#define HLGT_STORED_$N $EXPR\n"
    "static void site_$N() {\n"
    "  hl_gt::begin();\n"
    "@  $W w = HLGT_STORED_$N;\n"
    "  hl_gt::end($LINE, \"$LABEL\");\n"
    "}\n";

static const char through_using[] =
    "using alias_$N = $W;\n"
    "static void site_$N() {\n"
    "  hl_gt::begin();\n"
    "@  alias_$N w = $EXPR;\n"
    "  hl_gt::end($LINE, \"$LABEL\");\n"
    "}\n";

static const char through_typedef[] =
    "typedef $W alias_$N;\n"
    "static void site_$N() {\n"
    "  hl_gt::begin();\n"
    "@  alias_$N w($EXPR);\n"
    "  hl_gt::end($LINE, \"$LABEL\");\n"
    "}\n";

/* std::any's (and move_only_function's) own ways to construct in place. */
static const char make_any[] =
    "static void site_$N() {\n"
    "  hl_gt::begin();\n"
    "@  std::any w = std::make_any<$T>($ARGS);\n"
    "  hl_gt::end($LINE, \"$LABEL\");\n"
    "}\n";

static const char any_emplace[] =
    "static void site_$N() {\n"
    "  std::any w;\n"
    "  hl_gt::begin();\n"
    "@  w.emplace<$T>($ARGS);\n"
    "  hl_gt::end($LINE, \"$LABEL\");\n"
    "}\n";

static const char in_place_type[] =
    "static void site_$N() {\n"
    "  hl_gt::begin();\n"
    "@  $W w(std::in_place_type<$T>$COMMA_ARGS $ARGS);\n"
    "  hl_gt::end($LINE, \"$LABEL\");\n"
    "}\n";

typedef struct context {
  const char *name;
  const char *tmpl;
  int in_place; /* constructs the store's type, not its expression */
} context;

/* Where callables are stored, for std::function and std::move_only_function. */
static const context function_contexts[] = {
    {"direct-init", direct_init, 0},
    {"brace-init", brace_init, 0},
    {"assignment", assign, 0},
    {"argument by value", arg_by_value, 0},
    {"argument by const ref", arg_by_cref, 0},
    {"return", returned, 0},
    {"constructor member initializer", member_init, 0},
    {"default member initializer", default_member_init, 0},
    {"push_back", push_back, 0},
    {"emplace_back", emplace_back, 0},
    {"vector insert", vector_insert, 0},
    {"list emplace_back", list_emplace_back, 0},
    {"deque push_back", deque_push_back, 0},
    {"map emplace", map_emplace, 0},
    {"map try_emplace", map_try_emplace, 0},
    {"map subscript assignment", map_subscript, 0},
    {"map insert of a braced pair", map_insert, 0},
    {"unordered_map emplace", umap_emplace, 0},
    {"for loop body", in_loop, 0},
    {"while loop body", in_while_loop, 0},
    {"lambda body", in_lambda_body, 0},
    {"function template", in_function_template, 0},
    {"macro argument", through_macro_arg, 0},
    {"macro body", through_macro_body, 0},
    {"using alias", through_using, 0},
    {"typedef", through_typedef, 0},
};

/* The same for std::any, plus its in-place forms. */
static const context any_contexts[] = {
    {"direct-init", direct_init, 0},
    {"brace-init", brace_init, 0},
    {"assignment", assign, 0},
    {"argument by value", arg_by_value, 0},
    {"argument by const ref", arg_by_cref, 0},
    {"return", returned, 0},
    {"constructor member initializer", member_init, 0},
    {"default member initializer", default_member_init, 0},
    {"push_back", push_back, 0},
    {"emplace_back", emplace_back, 0},
    {"map emplace", map_emplace, 0},
    {"map try_emplace", map_try_emplace, 0},
    {"map subscript assignment", map_subscript, 0},
    {"map insert of a braced pair", map_insert, 0},
    {"for loop body", in_loop, 0},
    {"lambda body", in_lambda_body, 0},
    {"function template", in_function_template, 0},
    {"macro argument", through_macro_arg, 0},
    {"macro body", through_macro_body, 0},
    {"using alias", through_using, 0},
    {"typedef", through_typedef, 0},
    {"std::make_any", make_any, 1},
    {"any.emplace", any_emplace, 1},
    {"std::in_place_type", in_place_type, 1},
};

/* ---- the program around the sites ---- */

static const char prelude[] =
    "#include <count_new.hpp>\n"
    "\n"
    "#include <any>\n"
    "#include <array>\n"
    "#include <cstdio>\n"
    "#include <cstdlib>\n"
    "#include <deque>\n"
    "#include <functional>\n"
    "#include <list>\n"
    "#include <map>\n"
    "#include <memory>\n"
    "#include <new>\n"
    "#include <optional>\n"
    "#include <string>\n"
    "#include <string_view>\n"
    "#include <tuple>\n"
    "#include <unordered_map>\n"
    "#include <utility>\n"
    "#include <vector>\n"
    "\n"
    "namespace hl_gt {\n"
    "unsigned long start;\n"
    "void begin() { start = hl_count::allocations(); }\n"
    "void end(int line, const char *label) {\n"
    "  std::printf(\"%d %lu %s\\n\", line, hl_count::allocations() - start, label);\n"
    "}\n"
    "// Odr-uses its arguments, so that [=] and [&] capture them.\n"
    "template <class... T> void use(const T &...) {}\n"
    "\n"
    "// Node containers take their memory from malloc, so that only the\n"
    "// wrapper's own allocations are counted.\n" MALLOC_ALLOC_CPP
    "template <class W> using list = std::list<W, malloc_alloc<W>>;\n"
    "template <class W> using deque = std::deque<W, malloc_alloc<W>>;\n"
    "template <class W> using map = std::map<int, W, std::less<int>, malloc_alloc<std::pair<const int, W>>>;\n"
    "template <class W>\n"
    "using umap = std::unordered_map<int, W, std::hash<int>, std::equal_to<int>, malloc_alloc<std::pair<const int, "
    "W>>>;\n"
    "\n"
    "// Made before any site runs: the sites copy it.\n"
    "std::shared_ptr<int> shared = std::make_shared<int>(1);\n"
    "long g_long = 1;\n"
    "// The widest integer: __int128 where the target has it (not on i386).\n"
    "#ifdef __SIZEOF_INT128__\n"
    "using widest_int = __int128;\n"
    "#else\n"
    "using widest_int = long long;\n"
    "#endif\n"
    "\n"
    "void g0() {}\n"
    "void g0_noexcept() noexcept {}\n"
    "void g1(int) {}\n"
    "void g2(int, int) {}\n"
    "void g3(int, int, int) {}\n"
    "void g4(long, long, long, long) {}\n"
    "void gs(const std::string &) {}\n"
    "struct MemS {\n"
    "  long x = 1;\n"
    "  void m() {}\n"
    "  void cm() const {}\n"
    "};\n"
    "struct VirtS {\n"
    "  virtual ~VirtS() = default;\n"
    "  virtual void vm() {}\n"
    "};\n"
    "enum class Color : char { red };\n"
    "enum E64 : long long { e64 = 1 };\n"
    "\n"
    "// Captured by value.\n"
    "struct alignas(16) A16 { char c[16]; };\n"
    "struct alignas(32) A32 { char c[32]; };\n"
    "struct BF4 { unsigned a : 3, b : 5; };\n"
    "struct CopyNoexcept8 {\n"
    "  long a = 1;\n"
    "  CopyNoexcept8() = default;\n"
    "  CopyNoexcept8(const CopyNoexcept8 &o) noexcept : a(o.a) {}\n"
    "};\n"
    "\n"
    "// Class templates as functors and values: heaplint asks the compiler\n"
    "// about instantiations instead of reading their members.\n"
    "template <int N> struct TF {\n"
    "  char b[N];\n"
    "  void operator()() const {}\n"
    "};\n"
    "template <class T> struct TH {\n"
    "  T t{};\n"
    "  void operator()() const {}\n"
    "};\n"
    "template <int N> struct TCT {\n"
    "  char b[N] = {};\n"
    "  TCT() = default;\n"
    "  TCT(const TCT &o) noexcept(N < 16) { for (int i = 0; i < N; i++) b[i] = o.b[i]; }\n"
    "  void operator()() const {}\n"
    "};\n"
    "template <int N> struct TMT {\n"
    "  char b[N] = {};\n"
    "  TMT() = default;\n"
    "  TMT(const TMT &) = default;\n"
    "  TMT(TMT &&o) noexcept(N < 8) { for (int i = 0; i < N; i++) b[i] = o.b[i]; }\n"
    "  void operator()() const {}\n"
    "};\n"
    "template <unsigned A> struct alignas(A) TA {\n"
    "  char b[A];\n"
    "  void operator()() const {}\n"
    "};\n"
    "template <class T> struct TVT {\n"
    "  T t{};\n"
    "  virtual void operator()() const {}\n"
    "};\n"
    "} // namespace hl_gt\n"
    "\n"
    "// A macro that declares the wrapper around its argument.\n"
    "#define HLGT_DECLARE(type, name, ...) type name(__VA_ARGS__)\n"
    "\n";

/* Functors whose only difference is alignment and size, for every alignment
 * the rules consider; sizes step by the alignment across the thresholds
 * (16 and 24 bytes, and libc++'s 32 with its vtable pointer). */
static const struct {
  int align, from, to;
} align_grid[] = {{4, 16, 28}, {8, 16, 32}, {16, 16, 32}, {32, 32, 64}, {64, 64, 64}};

/* The types: all the sizes from the alignment to 48 bytes (or twice the
 * alignment), for the sites and any other store that wants one. */
static void align_grid_types(gen *g) {
  put(g, "namespace hl_gt {\n");
  for (size_t i = 0; i < sizeof align_grid / sizeof *align_grid; i++) {
    int a = align_grid[i].align, top = a * 2 > 48 ? a * 2 : 48;
    for (int s = a; s <= top; s += a)
      putf(g, "struct alignas(%d) FA%d_%d { char b[%d]; void operator()() const {} };\n", a, a, s, s);
  }
  put(g, "} // namespace hl_gt\n\n");
}

static void align_grid_sites(gen *g, const char *wrapper) {
  for (size_t i = 0; i < sizeof align_grid / sizeof *align_grid; i++)
    for (int s = align_grid[i].from; s <= align_grid[i].to; s += align_grid[i].align) {
      char label[64], expr[64];
      snprintf(label, sizeof label, "functor alignas(%d) %d bytes", align_grid[i].align, s);
      snprintf(expr, sizeof expr, "hl_gt::FA%d_%d{}", align_grid[i].align, s);
      store st = {label, NULL, NULL, expr, NULL, NULL, NULL};
      site(g, copy_init, wrapper, &st);
    }
}

/* Lambdas capturing char arrays: every size around the thresholds. */
static const int char_capture_sizes[] = {15, 16, 17, 24, 25, 32};

static void char_capture_sites(gen *g, const char *wrapper) {
  for (size_t i = 0; i < sizeof char_capture_sizes / sizeof *char_capture_sizes; i++) {
    int n = char_capture_sizes[i];
    char label[64], setup[64];
    snprintf(label, sizeof label, "lambda capturing char[%d]", n);
    snprintf(setup, sizeof setup, "char cs[%d] = {};", n);
    store st = {label, NULL, setup, "[cs] { hl_gt::use(cs); }", NULL, NULL, NULL};
    site(g, copy_init, wrapper, &st);
  }
}

/* family is "std::function" (a callable wrapper: the store's signature
 * completes it) or "std::any". */
static void table_sites(gen *g, const char *family, int callable, const store *v, size_t n) {
  for (size_t i = 0; i < n; i++) {
    buf w = {0};
    if (callable)
      buf_printf(&w, "%s<%s>", family, v[i].sig ? v[i].sig : "void()");
    else
      buf_puts(&w, family);
    site(g, v[i].self ? in_member : copy_init, w.s, &v[i]);
    free(w.s);
  }
}

static void context_sites(gen *g, const char *wrapper, const context *c, size_t nc, const store *v, size_t nv) {
  for (size_t i = 0; i < nc; i++)
    for (size_t k = 0; k < nv; k++) {
      char label[160];
      snprintf(label, sizeof label, "%s, %s", c[i].name, c[i].in_place ? v[k].type : v[k].label);
      store st = v[k];
      st.label = label;
      site(g, c[i].tmpl, wrapper, &st);
    }
}

/* ---- the std::function / std::any corpus (C++17) ---- */

static const char function_types[] =
    "namespace hl_gt {\n"
    "// Functors differing in one trait; 8 bytes unless the name says otherwise.\n"
    "struct F_plain { long x = 1; void operator()() const {} };\n"
    "struct F_copy_noexcept { long x = 1; F_copy_noexcept() = default; F_copy_noexcept(const F_copy_noexcept &o) "
    "noexcept : x(o.x) {} void operator()() const {} };\n"
    "struct F_copy_noexcept_true { long x = 1; F_copy_noexcept_true() = default; F_copy_noexcept_true(const "
    "F_copy_noexcept_true &o) noexcept(true) : x(o.x) {} void operator()() const {} };\n"
    "struct F_copy_noexcept_false { long x = 1; F_copy_noexcept_false() = default; F_copy_noexcept_false(const "
    "F_copy_noexcept_false &o) noexcept(false) : x(o.x) {} void operator()() const {} };\n"
    "struct F_copy_noexcept_cond_true { long x = 1; F_copy_noexcept_cond_true() = default; "
    "F_copy_noexcept_cond_true(const F_copy_noexcept_cond_true &o) noexcept(sizeof(int) == 4) : x(o.x) {} void "
    "operator()() const {} };\n"
    "struct F_copy_noexcept_cond_false { long x = 1; F_copy_noexcept_cond_false() = default; "
    "F_copy_noexcept_cond_false(const F_copy_noexcept_cond_false &o) noexcept(sizeof(int) == 8) : x(o.x) {} void "
    "operator()() const {} };\n"
    "struct F_copy_throw0 { long x = 1; F_copy_throw0() = default; F_copy_throw0(const F_copy_throw0 &o) throw() : "
    "x(o.x) {} void operator()() const {} };\n"
    "struct F_copy_nospec { long x = 1; F_copy_nospec() = default; F_copy_nospec(const F_copy_nospec &o) : x(o.x) {} "
    "void operator()() const {} };\n"
    "struct F_copy_default { long x = 1; F_copy_default() = default; F_copy_default(const F_copy_default &) = default; "
    "void operator()() const {} };\n"
    "struct F_copy_default_outside { long x = 1; F_copy_default_outside() = default; F_copy_default_outside(const "
    "F_copy_default_outside &); void operator()() const {} };\n"
    "F_copy_default_outside::F_copy_default_outside(const F_copy_default_outside &) = default;\n"
    "struct F_copy_default_arg { long x = 1; F_copy_default_arg() = default; F_copy_default_arg(const "
    "F_copy_default_arg &o, int = 0) : x(o.x) {} void operator()() const {} };\n"
    "struct F_template_ctor { long x = 1; F_template_ctor() = default; template <class T> F_template_ctor(const T &) "
    "{} void operator()() const {} };\n"
    "struct F_dtor { long x = 1; ~F_dtor() {} void operator()() const {} };\n"
    "struct F_dtor_noexcept_false { long x = 1; ~F_dtor_noexcept_false() noexcept(false) {} void operator()() const {} "
    "};\n"
    "struct F_copy_assign { long x = 1; F_copy_assign &operator=(const F_copy_assign &o) { x = o.x; return *this; } "
    "void operator()() const {} };\n"
    "struct F_move_assign { long x = 1; F_move_assign() = default; F_move_assign(const F_move_assign &) = default; "
    "F_move_assign &operator=(F_move_assign &&o) noexcept { x = o.x; return *this; } void operator()() const {} };\n"
    "struct F_deleted_assign { long x = 1; F_deleted_assign() = default; F_deleted_assign(const F_deleted_assign &) = "
    "default; F_deleted_assign &operator=(const F_deleted_assign &) = delete; void operator()() const {} };\n"
    "struct F_copy_noexcept_move_throw { long x = 1; F_copy_noexcept_move_throw() = default; "
    "F_copy_noexcept_move_throw(const F_copy_noexcept_move_throw &o) noexcept : x(o.x) {} "
    "F_copy_noexcept_move_throw(F_copy_noexcept_move_throw &&o) noexcept(false) : x(o.x) {} void operator()() const {} "
    "};\n"
    "struct F_copy_throw_move_noexcept { long x = 1; F_copy_throw_move_noexcept() = default; "
    "F_copy_throw_move_noexcept(const F_copy_throw_move_noexcept &o) : x(o.x) {} "
    "F_copy_throw_move_noexcept(F_copy_throw_move_noexcept &&o) noexcept : x(o.x) {} void operator()() const {} };\n"
    "struct F_virtual { long x = 1; virtual void operator()() const {} };\n"
    "struct VBase { long v = 1; };\n"
    "struct F_virtual_base : virtual VBase { void operator()() const {} };\n"
    "struct CopyThrowBase { long b = 1; CopyThrowBase() = default; CopyThrowBase(const CopyThrowBase &o) : b(o.b) {} "
    "};\n"
    "struct CopyNoexceptBase { long b = 1; CopyNoexceptBase() = default; CopyNoexceptBase(const CopyNoexceptBase &o) "
    "noexcept : b(o.b) {} };\n"
    "struct F_base_copy_throw : CopyThrowBase { void operator()() const {} };\n"
    "struct F_base_copy_noexcept : CopyNoexceptBase { void operator()() const {} };\n"
    "struct F_member_copy_throw { CopyThrowBase m; void operator()() const {} };\n"
    "struct F_member_copy_noexcept { CopyNoexceptBase m; void operator()() const {} };\n"
    "struct F_volatile { volatile long x = 1; void operator()() const {} };\n"
    "struct F_ref_member { long &r = g_long; void operator()() const {} };\n"
    "struct F_string_member { std::string s; void operator()() const {} };\n"
    "struct F_function_member { std::function<void()> f; void operator()() const {} };\n"
    "struct F_dtor_default { long x = 1; ~F_dtor_default() = default; void operator()() const {} };\n"
    "union U16 { long l[2]; char c[16]; void operator()() const {} };\n"
    "union U24 { long l[3]; char c[24]; void operator()() const {} };\n"
    "// Packed: sizes that are no multiple of 8, at alignment 1.\n"
    "struct __attribute__((packed)) F_packed9 { char c = 0; long l = 1; void operator()() const {} };\n"
    "struct __attribute__((packed)) F_packed17 { char c = 0; long l[2] = {}; void operator()() const {} };\n"
    "struct __attribute__((packed)) F_packed25 { char c = 0; long l[3] = {}; void operator()() const {} };\n"
    "struct Pred { bool operator()() const { return true; } };\n"
    "// The same traits at the sizes around libc++'s 24 bytes.\n"
    "struct F_copy_noexcept_24 { long x[3] = {}; F_copy_noexcept_24() = default; F_copy_noexcept_24(const "
    "F_copy_noexcept_24 &) noexcept {} void operator()() const {} };\n"
    "struct F_copy_noexcept_32 { long x[4] = {}; F_copy_noexcept_32() = default; F_copy_noexcept_32(const "
    "F_copy_noexcept_32 &) noexcept {} void operator()() const {} };\n"
    "struct F_dtor_24 { long x[3] = {}; ~F_dtor_24() {} void operator()() const {} };\n"
    "struct F_virtual_24 { long x[2] = {}; virtual void operator()() const {} };\n"
    "struct F_virtual_32 { long x[3] = {}; virtual void operator()() const {} };\n"
    "// Bit-fields.\n"
    "struct F_bits4 { unsigned a : 3, b : 5; void operator()() const {} };\n"
    "struct F_bits8 { char c; int : 0; char d; void operator()() const {} };\n"
    "struct F_bits16 { unsigned long long a : 60, b : 60; void operator()() const {} };\n"
    "struct F_bits24 { unsigned long long a : 40, b : 40, c : 40; void operator()() const {} };\n"
    "// Bases.\n"
    "struct LongBase { long a = 1; };\n"
    "struct LongBase2 { long b = 2; };\n"
    "struct EmptyBase {};\n"
    "struct F_long_base : LongBase { long c = 3; void operator()() const {} };\n"
    "struct F_two_bases : LongBase, LongBase2 { long c = 3; void operator()() const {} };\n"
    "struct F_empty_base_and_member : EmptyBase { EmptyBase e; long a = 1, b = 2; void operator()() const {} };\n"
    "struct VirtualFnBase { virtual ~VirtualFnBase() = default; };\n"
    "struct F_virtual_fn_base : VirtualFnBase { void operator()() const {} };\n"
    "} // namespace hl_gt\n"
    "\n";

/* "std::function<%s>" stores; sig NULL means void(). */
static const store function_stores[] = {
    /* Capture sizes. */
    {"captureless lambda", NULL, NULL, "[] {}", NULL, NULL, NULL},
    {"lambda [l1] 8 bytes", NULL, "long l1 = 1;", "[l1] { hl_gt::use(l1); }", NULL, NULL, NULL},
    {"lambda [l1, l2] 16 bytes", NULL, "long l1 = 1, l2 = 2;", "[l1, l2] { hl_gt::use(l1, l2); }", NULL, NULL, NULL},
    {"lambda [l1..l3] 24 bytes", NULL, "long l1 = 1, l2 = 2, l3 = 3;", "[l1, l2, l3] { hl_gt::use(l1, l2, l3); }", NULL,
     NULL, NULL},
    {"lambda [l1..l4] 32 bytes", NULL, "long l1 = 1, l2 = 2, l3 = 3, l4 = 4;",
     "[l1, l2, l3, l4] { hl_gt::use(l1, l2, l3, l4); }", NULL, NULL, NULL},
    {"lambda [l1..l6] 48 bytes", NULL, "long l1 = 1, l2 = 2, l3 = 3, l4 = 4, l5 = 5, l6 = 6;",
     "[l1, l2, l3, l4, l5, l6] { hl_gt::use(l1, l2, l3, l4, l5, l6); }", NULL, NULL, NULL},
    {"lambda [i1..i5] 20 bytes", NULL, "int i1 = 1, i2 = 2, i3 = 3, i4 = 4, i5 = 5;",
     "[i1, i2, i3, i4, i5] { hl_gt::use(i1, i2, i3, i4, i5); }", NULL, NULL, NULL},
    /* Chars and padding: the order of the captures decides the size. */
    {"lambda [c1, l1, c2] padded to 24", NULL, "char c1 = 1, c2 = 2; long l1 = 1;",
     "[c1, l1, c2] { hl_gt::use(c1, l1, c2); }", NULL, NULL, NULL},
    {"lambda [l1, c1, c2] 16", NULL, "char c1 = 1, c2 = 2; long l1 = 1;", "[l1, c1, c2] { hl_gt::use(l1, c1, c2); }",
     NULL, NULL, NULL},
    {"lambda [long arr[3]] 24", NULL, "long arr[3] = {};", "[arr] { hl_gt::use(arr); }", NULL, NULL, NULL},
    /* References. */
    {"lambda [&l1, &l2]", NULL, "long l1 = 1, l2 = 2;", "[&l1, &l2] { hl_gt::use(l1, l2); }", NULL, NULL, NULL},
    {"lambda [&l1, &l2, &l3]", NULL, "long l1 = 1, l2 = 2, l3 = 3;", "[&l1, &l2, &l3] { hl_gt::use(l1, l2, l3); }",
     NULL, NULL, NULL},
    {"lambda [r] copying through a reference", NULL, "long l1 = 1; long &r = l1;", "[r] { hl_gt::use(r); }", NULL, NULL,
     NULL},
    {"lambda [&] using 3", NULL, "long l1 = 1, l2 = 2, l3 = 3;", "[&] { hl_gt::use(l1, l2, l3); }", NULL, NULL, NULL},
    {"lambda [=] using 3", NULL, "long l1 = 1, l2 = 2, l3 = 3;", "[=] { hl_gt::use(l1, l2, l3); }", NULL, NULL, NULL},
    {"lambda [=] using a char between longs", NULL, "char c1 = 1; long l1 = 1, l2 = 2;",
     "[=] { hl_gt::use(l1, c1, l2); }", NULL, NULL, NULL},
    {"lambda [=] reading a constant it need not capture", "long()", "const long k = 5; long l1 = 1, l2 = 2;",
     "[=] { return l1 + l2 + k; }", NULL, NULL, NULL},
    /* Init-captures. */
    {"lambda [x, y, z] init-captured 24", NULL, NULL, "[x = 1L, y = 2L, z = 3L] { hl_gt::use(x, y, z); }", NULL, NULL,
     NULL},
    {"lambda [s = std::string]", NULL, NULL, "[s = std::string(\"abc\")] { hl_gt::use(s); }", NULL, NULL, NULL},
    {"lambda [p = shared_ptr]", NULL, NULL, "[p = hl_gt::shared] { hl_gt::use(p); }", NULL, NULL, NULL},
    /* Library types. */
    {"lambda [sp] shared_ptr", NULL, "auto sp = hl_gt::shared;", "[sp] { hl_gt::use(sp); }", NULL, NULL, NULL},
    {"lambda [sp, l1]", NULL, "auto sp = hl_gt::shared; long l1 = 1;", "[sp, l1] { hl_gt::use(sp, l1); }", NULL, NULL,
     NULL},
    {"lambda [sp, l1, l2]", NULL, "auto sp = hl_gt::shared; long l1 = 1, l2 = 2;",
     "[sp, l1, l2] { hl_gt::use(sp, l1, l2); }", NULL, NULL, NULL},
    {"lambda [s] std::string", NULL, "std::string s = \"abc\";", "[s] { hl_gt::use(s); }", NULL, NULL, NULL},
    {"lambda [v] std::vector<int>", NULL, "std::vector<int> v;", "[v] { hl_gt::use(v); }", NULL, NULL, NULL},
    {"lambda [fn] std::function", NULL, "std::function<void()> fn;", "[fn] { hl_gt::use(fn); }", NULL, NULL, NULL},
    {"lambda [sv] std::string_view", NULL, "std::string_view sv = \"abc\";", "[sv] { hl_gt::use(sv); }", NULL, NULL,
     NULL},
    {"lambda [pr] std::pair<long, long>", NULL, "std::pair<long, long> pr(1, 2);", "[pr] { hl_gt::use(pr); }", NULL,
     NULL, NULL},
    /* Captured structs: alignment, bit-fields, traits. */
    {"lambda [a16] alignas(16) 16 bytes", NULL, "hl_gt::A16 a16{};", "[a16] { hl_gt::use(a16); }", NULL, NULL, NULL},
    {"lambda [a32] alignas(32)", NULL, "hl_gt::A32 a32{};", "[a32] { hl_gt::use(a32); }", NULL, NULL, NULL},
    {"lambda [bf] bit-field struct", NULL, "hl_gt::BF4 bf{};", "[bf] { hl_gt::use(bf); }", NULL, NULL, NULL},
    {"lambda [cn] struct with a user copy constructor", NULL, "hl_gt::CopyNoexcept8 cn;", "[cn] { hl_gt::use(cn); }",
     NULL, NULL, NULL},
    /* Nested lambdas. */
    {"lambda [inner, l3] capturing a lambda and a long", NULL,
     "long l1 = 1, l2 = 2, l3 = 3; auto inner = [l1, l2] { hl_gt::use(l1, l2); };",
     "[inner, l3] { inner(); hl_gt::use(l3); }", NULL, NULL, NULL},
    {"lambda with a lambda in its body", NULL, "long l1 = 1;", "[l1] { auto in = [l1] { hl_gt::use(l1); }; in(); }",
     NULL, NULL, NULL},
    /* Lambdas as variables, mutable, generic, with other signatures. */
    {"lambda variable copied, 24 bytes", NULL,
     "long l1 = 1, l2 = 2, l3 = 3; auto lam = [l1, l2, l3] { hl_gt::use(l1, l2, l3); };", "lam", NULL, NULL, NULL},
    {"generic lambda 24 bytes", "void(int)", "long l1 = 1, l2 = 2, l3 = 3;",
     "[l1, l2, l3](auto x) { hl_gt::use(l1, l2, l3, x); }", NULL, NULL, NULL},
    {"captureless lambda converted to a function pointer", NULL, NULL, "+[] {}", NULL, NULL, NULL},
    /* this and *this. */
    {"lambda [this]", NULL, NULL, "[this] { hl_gt::use(m1); }", "long m1 = 1, m2 = 2, m3 = 3;", NULL, NULL},
    {"lambda [this, l1, l2]", NULL, "long l1 = 1, l2 = 2;", "[this, l1, l2] { hl_gt::use(m1, l1, l2); }",
     "long m1 = 1, m2 = 2, m3 = 3;", NULL, NULL},
    {"lambda [=] using a member and 2 locals", NULL, "long l1 = 1, l2 = 2;", "[=] { hl_gt::use(m1, l1, l2); }",
     "long m1 = 1;", NULL, NULL},
    {"lambda [*this] of 24 bytes", NULL, NULL, "[*this] { hl_gt::use(m1); }", "long m1 = 1, m2 = 2, m3 = 3;", NULL,
     NULL},
    {"lambda [*this] with a std::string member", NULL, NULL, "[*this] { hl_gt::use(ms); }", "std::string ms;", NULL,
     NULL},
    /* Functors: traits at 8 bytes. */
    {"functor trivially copyable", NULL, NULL, "hl_gt::F_plain{}", NULL, NULL, NULL},
    {"functor copy noexcept", NULL, NULL, "hl_gt::F_copy_noexcept{}", NULL, NULL, NULL},
    {"functor copy noexcept(true)", NULL, NULL, "hl_gt::F_copy_noexcept_true{}", NULL, NULL, NULL},
    {"functor copy noexcept(false)", NULL, NULL, "hl_gt::F_copy_noexcept_false{}", NULL, NULL, NULL},
    {"functor copy noexcept(sizeof(int) == 4)", NULL, NULL, "hl_gt::F_copy_noexcept_cond_true{}", NULL, NULL, NULL},
    {"functor copy noexcept(sizeof(int) == 8)", NULL, NULL, "hl_gt::F_copy_noexcept_cond_false{}", NULL, NULL, NULL},
    {"functor copy throw()", NULL, NULL, "hl_gt::F_copy_throw0{}", NULL, NULL, NULL},
    {"functor copy without exception spec", NULL, NULL, "hl_gt::F_copy_nospec{}", NULL, NULL, NULL},
    {"functor copy defaulted", NULL, NULL, "hl_gt::F_copy_default{}", NULL, NULL, NULL},
    {"functor copy defaulted outside the class", NULL, NULL, "hl_gt::F_copy_default_outside{}", NULL, NULL, NULL},
    {"functor copy with a default argument", NULL, NULL, "hl_gt::F_copy_default_arg{}", NULL, NULL, NULL},
    {"functor with a template constructor", NULL, NULL, "hl_gt::F_template_ctor{}", NULL, NULL, NULL},
    {"functor user destructor", NULL, NULL, "hl_gt::F_dtor{}", NULL, NULL, NULL},
    {"functor user copy assignment", NULL, NULL, "hl_gt::F_copy_assign{}", NULL, NULL, NULL},
    {"functor user move assignment", NULL, NULL, "hl_gt::F_move_assign{}", NULL, NULL, NULL},
    {"functor deleted copy assignment", NULL, NULL, "hl_gt::F_deleted_assign{}", NULL, NULL, NULL},
    {"functor destructor defaulted", NULL, NULL, "hl_gt::F_dtor_default{}", NULL, NULL, NULL},
    {"union functor 16 bytes", NULL, NULL, "hl_gt::U16{}", NULL, NULL, NULL},
    {"union functor 24 bytes", NULL, NULL, "hl_gt::U24{}", NULL, NULL, NULL},
    {"packed functor 9 bytes", NULL, NULL, "hl_gt::F_packed9{}", NULL, NULL, NULL},
    {"packed functor 17 bytes", NULL, NULL, "hl_gt::F_packed17{}", NULL, NULL, NULL},
    {"packed functor 25 bytes", NULL, NULL, "hl_gt::F_packed25{}", NULL, NULL, NULL},
    {"functor copy noexcept, move noexcept(false)", NULL, NULL, "hl_gt::F_copy_noexcept_move_throw{}", NULL, NULL,
     NULL},
    {"functor copy may throw, move noexcept", NULL, NULL, "hl_gt::F_copy_throw_move_noexcept{}", NULL, NULL, NULL},
    {"functor virtual call operator", NULL, NULL, "hl_gt::F_virtual{}", NULL, NULL, NULL},
    {"functor virtual base", NULL, NULL, "hl_gt::F_virtual_base{}", NULL, NULL, NULL},
    {"functor base with a throwing copy", NULL, NULL, "hl_gt::F_base_copy_throw{}", NULL, NULL, NULL},
    {"functor base with a noexcept user copy", NULL, NULL, "hl_gt::F_base_copy_noexcept{}", NULL, NULL, NULL},
    {"functor member with a throwing copy", NULL, NULL, "hl_gt::F_member_copy_throw{}", NULL, NULL, NULL},
    {"functor member with a noexcept user copy", NULL, NULL, "hl_gt::F_member_copy_noexcept{}", NULL, NULL, NULL},
    {"functor volatile member", NULL, NULL, "hl_gt::F_volatile{}", NULL, NULL, NULL},
    {"functor reference member", NULL, NULL, "hl_gt::F_ref_member{}", NULL, NULL, NULL},
    {"functor std::string member", NULL, NULL, "hl_gt::F_string_member{}", NULL, NULL, NULL},
    {"functor std::function member", NULL, NULL, "hl_gt::F_function_member{}", NULL, NULL, NULL},
    {"functor copy noexcept 24 bytes", NULL, NULL, "hl_gt::F_copy_noexcept_24{}", NULL, NULL, NULL},
    {"functor copy noexcept 32 bytes", NULL, NULL, "hl_gt::F_copy_noexcept_32{}", NULL, NULL, NULL},
    {"functor user destructor 24 bytes", NULL, NULL, "hl_gt::F_dtor_24{}", NULL, NULL, NULL},
    {"functor virtual 24 bytes", NULL, NULL, "hl_gt::F_virtual_24{}", NULL, NULL, NULL},
    {"functor virtual 32 bytes", NULL, NULL, "hl_gt::F_virtual_32{}", NULL, NULL, NULL},
    {"functor variable copied", NULL, "hl_gt::F_copy_noexcept_32 fv;", "fv", NULL, NULL, NULL},
    /* Bit-fields. */
    {"functor bit-fields 4 bytes", NULL, NULL, "hl_gt::F_bits4{}", NULL, NULL, NULL},
    {"functor bit-fields with a zero-width one", NULL, NULL, "hl_gt::F_bits8{}", NULL, NULL, NULL},
    {"functor bit-fields 2 x 60 bits", NULL, NULL, "hl_gt::F_bits16{}", NULL, NULL, NULL},
    {"functor bit-fields 3 x 40 bits", NULL, NULL, "hl_gt::F_bits24{}", NULL, NULL, NULL},
    /* Bases. */
    {"functor with a long base", NULL, NULL, "hl_gt::F_long_base{}", NULL, NULL, NULL},
    {"functor with two bases 24 bytes", NULL, NULL, "hl_gt::F_two_bases{}", NULL, NULL, NULL},
    {"functor with an empty base and member of its type", NULL, NULL, "hl_gt::F_empty_base_and_member{}", NULL, NULL,
     NULL},
    {"functor with a polymorphic base", NULL, NULL, "hl_gt::F_virtual_fn_base{}", NULL, NULL, NULL},
    /* Class templates. */
    {"template functor TF<17>", NULL, NULL, "hl_gt::TF<17>{}", NULL, NULL, NULL},
    {"template functor TF<24>", NULL, NULL, "hl_gt::TF<24>{}", NULL, NULL, NULL},
    {"template functor TF<25>", NULL, NULL, "hl_gt::TF<25>{}", NULL, NULL, NULL},
    {"template functor TH<std::string>", NULL, NULL, "hl_gt::TH<std::string>{}", NULL, NULL, NULL},
    {"template functor TH<std::shared_ptr<int>>", NULL, NULL, "hl_gt::TH<std::shared_ptr<int>>{}", NULL, NULL, NULL},
    {"template functor TH<CopyNoexcept8>", NULL, NULL, "hl_gt::TH<hl_gt::CopyNoexcept8>{}", NULL, NULL, NULL},
    {"template functor TCT<8> copy noexcept(N < 16)", NULL, NULL, "hl_gt::TCT<8>{}", NULL, NULL, NULL},
    {"template functor TCT<24> copy noexcept(N < 16)", NULL, NULL, "hl_gt::TCT<24>{}", NULL, NULL, NULL},
    {"template functor TA<16> alignas(16)", NULL, NULL, "hl_gt::TA<16>{}", NULL, NULL, NULL},
    {"template functor TVT<long> virtual", NULL, NULL, "hl_gt::TVT<long>{}", NULL, NULL, NULL},
    {"template functor TH<local struct>", NULL, "struct Local { long a, b, c; };", "hl_gt::TH<Local>{}", NULL, NULL,
     NULL},
    /* std::bind. */
    {"std::bind with no bound argument", NULL, NULL, "std::bind(&hl_gt::g0)", NULL, NULL, NULL},
    {"std::bind with 1 bound int", NULL, NULL, "std::bind(&hl_gt::g1, 1)", NULL, NULL, NULL},
    {"std::bind with 2 bound ints", NULL, NULL, "std::bind(&hl_gt::g2, 1, 2)", NULL, NULL, NULL},
    {"std::bind with 3 bound ints", NULL, NULL, "std::bind(&hl_gt::g3, 1, 2, 3)", NULL, NULL, NULL},
    {"std::bind with 4 bound longs", NULL, NULL, "std::bind(&hl_gt::g4, 1L, 2L, 3L, 4L)", NULL, NULL, NULL},
    {"std::bind with a placeholder", "void(int)", NULL, "std::bind(&hl_gt::g2, std::placeholders::_1, 2)", NULL, NULL,
     NULL},
    {"std::bind of a member function and a pointer", NULL, "hl_gt::MemS ms;", "std::bind(&hl_gt::MemS::m, &ms)", NULL,
     NULL, NULL},
    {"std::bind of a member function and a copy", NULL, "hl_gt::MemS ms;", "std::bind(&hl_gt::MemS::m, ms)", NULL, NULL,
     NULL},
    {"std::bind with a bound std::string", NULL, NULL, "std::bind(&hl_gt::gs, std::string(\"abc\"))", NULL, NULL, NULL},
    {"std::bind of a lambda with a bound int", NULL, "auto lam = [](int) {};", "std::bind(lam, 1)", NULL, NULL, NULL},
    /* std::ref, std::cref. */
    {"std::ref of a 48-byte functor", NULL, "hl_gt::FA8_48 big{};", "std::ref(big)", NULL, NULL, NULL},
    {"std::cref of a 48-byte functor", NULL, "hl_gt::FA8_48 big{};", "std::cref(big)", NULL, NULL, NULL},
    {"std::ref of a lambda", NULL, "long l1 = 1, l2 = 2, l3 = 3; auto lam = [l1, l2, l3] { hl_gt::use(l1, l2, l3); };",
     "std::ref(lam)", NULL, NULL, NULL},
    /* Other library adaptors. */
    {"std::mem_fn of a member function", "void(hl_gt::MemS &)", NULL, "std::mem_fn(&hl_gt::MemS::m)", NULL, NULL, NULL},
    {"std::not_fn of a functor", "bool()", NULL, "std::not_fn(hl_gt::Pred{})", NULL, NULL, NULL},
    /* Function pointers. */
    {"function pointer &g0", NULL, NULL, "&hl_gt::g0", NULL, NULL, NULL},
    {"function name g0", NULL, NULL, "hl_gt::g0", NULL, NULL, NULL},
    {"function pointer variable", NULL, "void (*fp)() = &hl_gt::g0;", "fp", NULL, NULL, NULL},
    {"noexcept function pointer", NULL, NULL, "&hl_gt::g0_noexcept", NULL, NULL, NULL},
    {"function lvalue *fp", NULL, "void (*fp)() = &hl_gt::g0;", "*fp", NULL, NULL, NULL},
    /* Member pointers. */
    {"member function pointer", "void(hl_gt::MemS &)", NULL, "&hl_gt::MemS::m", NULL, NULL, NULL},
    {"virtual member function pointer", "void(hl_gt::VirtS &)", NULL, "&hl_gt::VirtS::vm", NULL, NULL, NULL},
    {"member data pointer", "long(hl_gt::MemS &)", NULL, "&hl_gt::MemS::x", NULL, NULL, NULL},
    /* Another std::function, of another signature. */
    {"a std::function of another signature", NULL, "std::function<long()> lf = [] { return 1L; };", "lf", NULL, NULL,
     NULL},
};

/* Stores that need no setup, so that every context can hold them: one that
 * fits every buffer, one that fits only libc++'s, one that fits none. They
 * are functors because libc++'s std::function costs clang about 0.1 s per
 * distinct stored type (and the corpus is parsed three times): the contexts
 * reuse three types. */
static const store function_context_stores[] = {
    {"8-byte functor", NULL, NULL, "hl_gt::FA8_8{}", NULL, NULL, NULL},
    {"24-byte functor", NULL, NULL, "hl_gt::FA8_24{}", NULL, NULL, NULL},
    {"40-byte functor", NULL, NULL, "hl_gt::FA8_40{}", NULL, NULL, NULL},
};

/* The contexts where lambdas are usually written, with a lambda (heaplint
 * finds a closure's captures through the lambda expression). */
static const context lambda_contexts[] = {
    {"return", returned, 0},
    {"constructor member initializer", member_init, 0},
    {"default member initializer", default_member_init, 0},
    {"push_back", push_back, 0},
    {"map insert of a braced pair", map_insert, 0},
    {"for loop body", in_loop, 0},
    {"lambda body", in_lambda_body, 0},
    {"function template", in_function_template, 0},
};

static const store lambda_context_stores[] = {
    {"24-byte lambda", NULL, NULL, "[x = 1L, y = 2L, z = 3L] { hl_gt::use(x, y, z); }", NULL, NULL, NULL},
};

/* libc++'s std::function does not compile with a target whose destructor may
 * throw (its __func's destructor would be more lax than __base's). */
static const store function_stores_libstdcxx_only[] = {
    {"functor destructor noexcept(false)", NULL, NULL, "hl_gt::F_dtor_noexcept_false{}", NULL, NULL, NULL},
};

static const char any_types[] =
    "namespace hl_gt {\n"
    "struct AS1 { char c = 1; };\n"
    "struct AS8 { long x = 1; };\n"
    "struct AS9 { char c[9] = {}; };\n"
    "struct AS16 { long x[2] = {}; };\n"
    "struct AS24 { long x[3] = {}; };\n"
    "struct AS25 { char c[25] = {}; };\n"
    "struct AS32 { long x[4] = {}; };\n"
    "// Move and copy.\n"
    "struct AS_move_throw { int x = 1; AS_move_throw() = default; AS_move_throw(const AS_move_throw &) = default; "
    "AS_move_throw(AS_move_throw &&o) noexcept(false) : x(o.x) {} };\n"
    "struct AS_move_noexcept { int x = 1; AS_move_noexcept() = default; AS_move_noexcept(const AS_move_noexcept &) = "
    "default; AS_move_noexcept(AS_move_noexcept &&o) noexcept : x(o.x) {} };\n"
    "struct AS_move_nospec { int x = 1; AS_move_nospec() = default; AS_move_nospec(const AS_move_nospec &) = default; "
    "AS_move_nospec(AS_move_nospec &&o) : x(o.x) {} };\n"
    "struct AS_move_throw0 { int x = 1; AS_move_throw0() = default; AS_move_throw0(const AS_move_throw0 &) = default; "
    "AS_move_throw0(AS_move_throw0 &&o) throw() : x(o.x) {} };\n"
    "struct AS_move_cond_false { int x = 1; AS_move_cond_false() = default; AS_move_cond_false(const "
    "AS_move_cond_false &) = default; AS_move_cond_false(AS_move_cond_false &&o) noexcept(sizeof(int) == 8) : x(o.x) "
    "{} };\n"
    "struct AS_move_default { int x = 1; AS_move_default() = default; AS_move_default(const AS_move_default &) = "
    "default; AS_move_default(AS_move_default &&) = default; };\n"
    "struct AS_move_default_member_throw { AS_move_throw m; AS_move_default_member_throw() = default; "
    "AS_move_default_member_throw(const AS_move_default_member_throw &) = default; "
    "AS_move_default_member_throw(AS_move_default_member_throw &&) = default; };\n"
    "struct AS_member_move_throw { AS_move_throw m; };\n"
    "struct AS_base_move_throw : AS_move_throw {};\n"
    "struct AS_copy_throw { int x = 1; AS_copy_throw() = default; AS_copy_throw(const AS_copy_throw &o) : x(o.x) {} "
    "};\n"
    "struct AS_copy_noexcept { int x = 1; AS_copy_noexcept() = default; AS_copy_noexcept(const AS_copy_noexcept &o) "
    "noexcept : x(o.x) {} };\n"
    "struct AS_copy_throw_move_noexcept { int x = 1; AS_copy_throw_move_noexcept() = default; "
    "AS_copy_throw_move_noexcept(const AS_copy_throw_move_noexcept &o) : x(o.x) {} "
    "AS_copy_throw_move_noexcept(AS_copy_throw_move_noexcept &&o) noexcept : x(o.x) {} };\n"
    "struct AS_dtor { int x = 1; ~AS_dtor() {} };\n"
    "struct AS_dtor_noexcept_false { int x = 1; ~AS_dtor_noexcept_false() noexcept(false) {} };\n"
    "struct DtorThrows { ~DtorThrows() noexcept(false) {} };\n"
    "struct AS_member_dtor_noexcept_false { int x = 1; DtorThrows m; };\n"
    "struct AS_copy_assign { int x = 1; AS_copy_assign &operator=(const AS_copy_assign &o) { x = o.x; return *this; } "
    "};\n"
    "struct AS_virtual { int x = 1; virtual ~AS_virtual() = default; };\n"
    "struct AS_virtual_base : virtual AS8 {};\n"
    "struct AS_string_member { std::string s; };\n"
    "struct AS_bits { unsigned a : 3, b : 5; };\n"
    "struct AS_bits16 { unsigned long long a : 60, b : 60; };\n"
    "} // namespace hl_gt\n"
    "\n";

static const store any_stores[] = {
    /* Scalars. */
    {"int", NULL, NULL, "5", NULL, NULL, NULL},
    {"long", NULL, NULL, "5L", NULL, NULL, NULL},
    {"short", NULL, NULL, "static_cast<short>(5)", NULL, NULL, NULL},
    {"char", NULL, NULL, "'c'", NULL, NULL, NULL},
    {"bool", NULL, NULL, "true", NULL, NULL, NULL},
    {"float", NULL, NULL, "5.0f", NULL, NULL, NULL},
    {"double", NULL, NULL, "5.0", NULL, NULL, NULL},
    {"long double", NULL, NULL, "5.0L", NULL, NULL, NULL},
    {"__int128 (long long on i386)", NULL, NULL, "static_cast<hl_gt::widest_int>(5)", NULL, NULL, NULL},
    {"nullptr", NULL, NULL, "nullptr", NULL, NULL, NULL},
    {"pointer", NULL, NULL, "&hl_gt::g_long", NULL, NULL, NULL},
    {"enum class : char", NULL, NULL, "hl_gt::Color::red", NULL, NULL, NULL},
    {"enum : long long", NULL, NULL, "hl_gt::e64", NULL, NULL, NULL},
    {"function pointer", NULL, NULL, "&hl_gt::g0", NULL, NULL, NULL},
    {"function name", NULL, NULL, "hl_gt::g0", NULL, NULL, NULL},
    {"member function pointer", NULL, NULL, "&hl_gt::MemS::m", NULL, NULL, NULL},
    {"member data pointer", NULL, NULL, "&hl_gt::MemS::x", NULL, NULL, NULL},
    /* Arrays. */
    {"C array int[10] decaying", NULL, "int arr[10] = {};", "arr", NULL, NULL, NULL},
    {"string literal decaying", NULL, NULL, "\"abc\"", NULL, NULL, NULL},
    {"std::array<int, 1>", NULL, NULL, "std::array<int, 1>{}", NULL, NULL, NULL},
    {"std::array<int, 2>", NULL, NULL, "std::array<int, 2>{}", NULL, NULL, NULL},
    {"std::array<int, 3>", NULL, NULL, "std::array<int, 3>{}", NULL, NULL, NULL},
    {"std::array<int, 4>", NULL, NULL, "std::array<int, 4>{}", NULL, NULL, NULL},
    {"std::array<int, 5>", NULL, NULL, "std::array<int, 5>{}", NULL, NULL, NULL},
    {"std::array<int, 6>", NULL, NULL, "std::array<int, 6>{}", NULL, NULL, NULL},
    {"std::array<int, 7>", NULL, NULL, "std::array<int, 7>{}", NULL, NULL, NULL},
    {"std::array<char, 8>", NULL, NULL, "std::array<char, 8>{}", NULL, NULL, NULL},
    {"std::array<char, 9>", NULL, NULL, "std::array<char, 9>{}", NULL, NULL, NULL},
    {"std::array<char, 24>", NULL, NULL, "std::array<char, 24>{}", NULL, NULL, NULL},
    {"std::array<char, 25>", NULL, NULL, "std::array<char, 25>{}", NULL, NULL, NULL},
    {"std::array<long, 3>", NULL, NULL, "std::array<long, 3>{}", NULL, NULL, NULL},
    {"std::array<long double, 1>", NULL, NULL, "std::array<long double, 1>{}", NULL, NULL, NULL},
    /* Structs by size and alignment. */
    {"struct 1 byte", NULL, NULL, "hl_gt::AS1{}", NULL, NULL, NULL},
    {"struct 8 bytes", NULL, NULL, "hl_gt::AS8{}", NULL, NULL, NULL},
    {"struct 9 bytes", NULL, NULL, "hl_gt::AS9{}", NULL, NULL, NULL},
    {"struct 16 bytes", NULL, NULL, "hl_gt::AS16{}", NULL, NULL, NULL},
    {"struct 24 bytes", NULL, NULL, "hl_gt::AS24{}", NULL, NULL, NULL},
    {"struct 25 bytes", NULL, NULL, "hl_gt::AS25{}", NULL, NULL, NULL},
    {"struct 32 bytes", NULL, NULL, "hl_gt::AS32{}", NULL, NULL, NULL},
    {"struct alignas(4) 4 bytes", NULL, NULL, "hl_gt::FA4_4{}", NULL, NULL, NULL},
    {"struct alignas(4) 8 bytes", NULL, NULL, "hl_gt::FA4_8{}", NULL, NULL, NULL},
    {"struct alignas(4) 12 bytes", NULL, NULL, "hl_gt::FA4_12{}", NULL, NULL, NULL},
    {"struct alignas(4) 24 bytes", NULL, NULL, "hl_gt::FA4_24{}", NULL, NULL, NULL},
    {"struct alignas(8) 8 bytes", NULL, NULL, "hl_gt::FA8_8{}", NULL, NULL, NULL},
    {"struct alignas(8) 24 bytes", NULL, NULL, "hl_gt::FA8_24{}", NULL, NULL, NULL},
    {"struct alignas(16) 16 bytes", NULL, NULL, "hl_gt::FA16_16{}", NULL, NULL, NULL},
    {"struct alignas(32) 32 bytes", NULL, NULL, "hl_gt::FA32_32{}", NULL, NULL, NULL},
    {"struct alignas(64) 64 bytes", NULL, NULL, "hl_gt::FA64_64{}", NULL, NULL, NULL},
    /* Structs by move and copy. */
    {"struct move noexcept(false)", NULL, NULL, "hl_gt::AS_move_throw{}", NULL, NULL, NULL},
    {"struct move noexcept", NULL, NULL, "hl_gt::AS_move_noexcept{}", NULL, NULL, NULL},
    {"struct move without exception spec", NULL, NULL, "hl_gt::AS_move_nospec{}", NULL, NULL, NULL},
    {"struct move throw()", NULL, NULL, "hl_gt::AS_move_throw0{}", NULL, NULL, NULL},
    {"struct move noexcept(sizeof(int) == 8)", NULL, NULL, "hl_gt::AS_move_cond_false{}", NULL, NULL, NULL},
    {"struct move defaulted", NULL, NULL, "hl_gt::AS_move_default{}", NULL, NULL, NULL},
    {"struct move defaulted, member move may throw", NULL, NULL, "hl_gt::AS_move_default_member_throw{}", NULL, NULL,
     NULL},
    {"struct member whose move may throw", NULL, NULL, "hl_gt::AS_member_move_throw{}", NULL, NULL, NULL},
    {"struct base whose move may throw", NULL, NULL, "hl_gt::AS_base_move_throw{}", NULL, NULL, NULL},
    {"struct copy may throw, no move", NULL, NULL, "hl_gt::AS_copy_throw{}", NULL, NULL, NULL},
    {"struct copy noexcept, no move", NULL, NULL, "hl_gt::AS_copy_noexcept{}", NULL, NULL, NULL},
    {"struct copy may throw, move noexcept", NULL, NULL, "hl_gt::AS_copy_throw_move_noexcept{}", NULL, NULL, NULL},
    {"struct user destructor", NULL, NULL, "hl_gt::AS_dtor{}", NULL, NULL, NULL},
    {"struct destructor noexcept(false)", NULL, NULL, "hl_gt::AS_dtor_noexcept_false{}", NULL, NULL, NULL},
    {"struct member whose destructor is noexcept(false)", NULL, NULL, "hl_gt::AS_member_dtor_noexcept_false{}", NULL,
     NULL, NULL},
    {"struct user copy assignment", NULL, NULL, "hl_gt::AS_copy_assign{}", NULL, NULL, NULL},
    {"struct virtual destructor 16 bytes", NULL, NULL, "hl_gt::AS_virtual{}", NULL, NULL, NULL},
    {"struct virtual base", NULL, NULL, "hl_gt::AS_virtual_base{}", NULL, NULL, NULL},
    {"struct std::string member", NULL, NULL, "hl_gt::AS_string_member{}", NULL, NULL, NULL},
    {"struct bit-fields 4 bytes", NULL, NULL, "hl_gt::AS_bits{}", NULL, NULL, NULL},
    {"struct bit-fields 16 bytes", NULL, NULL, "hl_gt::AS_bits16{}", NULL, NULL, NULL},
    {"struct variable copied", NULL, "hl_gt::AS8 v;", "v", NULL, NULL, NULL},
    {"struct variable moved", NULL, "hl_gt::AS24 v;", "std::move(v)", NULL, NULL, NULL},
    /* Library types. */
    {"std::string", NULL, NULL, "std::string(\"abc\")", NULL, NULL, NULL},
    {"std::vector<int>", NULL, NULL, "std::vector<int>()", NULL, NULL, NULL},
    {"std::shared_ptr<int>", NULL, NULL, "hl_gt::shared", NULL, NULL, NULL},
    {"std::weak_ptr<int>", NULL, NULL, "std::weak_ptr<int>(hl_gt::shared)", NULL, NULL, NULL},
    {"empty std::function", NULL, NULL, "std::function<void()>()", NULL, NULL, NULL},
    {"std::pair<int, int>", NULL, NULL, "std::pair<int, int>(1, 2)", NULL, NULL, NULL},
    {"std::pair<long, long>", NULL, NULL, "std::pair<long, long>(1, 2)", NULL, NULL, NULL},
    {"std::tuple<long, long, long>", NULL, NULL, "std::tuple<long, long, long>(1, 2, 3)", NULL, NULL, NULL},
    {"std::optional<long>", NULL, NULL, "std::optional<long>(1)", NULL, NULL, NULL},
    {"std::string_view", NULL, NULL, "std::string_view(\"abc\")", NULL, NULL, NULL},
    {"std::ref of a 32-byte struct", NULL, "hl_gt::AS32 big;", "std::ref(big)", NULL, NULL, NULL},
    {"packed struct 9 bytes", NULL, NULL, "hl_gt::F_packed9{}", NULL, NULL, NULL},
    {"packed struct 25 bytes", NULL, NULL, "hl_gt::F_packed25{}", NULL, NULL, NULL},
    /* Lambdas and class templates. */
    {"lambda [l1]", NULL, "long l1 = 1;", "[l1] { hl_gt::use(l1); }", NULL, NULL, NULL},
    {"lambda [l1, l2, l3]", NULL, "long l1 = 1, l2 = 2, l3 = 3;", "[l1, l2, l3] { hl_gt::use(l1, l2, l3); }", NULL,
     NULL, NULL},
    {"lambda [l1..l4]", NULL, "long l1 = 1, l2 = 2, l3 = 3, l4 = 4;",
     "[l1, l2, l3, l4] { hl_gt::use(l1, l2, l3, l4); }", NULL, NULL, NULL},
    {"lambda [s] std::string", NULL, "std::string s = \"abc\";", "[s] { hl_gt::use(s); }", NULL, NULL, NULL},
    {"template TH<long>", NULL, NULL, "hl_gt::TH<long>{}", NULL, NULL, NULL},
    {"template TH<std::string>", NULL, NULL, "hl_gt::TH<std::string>{}", NULL, NULL, NULL},
    {"template TF<8>", NULL, NULL, "hl_gt::TF<8>{}", NULL, NULL, NULL},
    {"template TF<9>", NULL, NULL, "hl_gt::TF<9>{}", NULL, NULL, NULL},
    {"template TF<24>", NULL, NULL, "hl_gt::TF<24>{}", NULL, NULL, NULL},
    {"template TF<25>", NULL, NULL, "hl_gt::TF<25>{}", NULL, NULL, NULL},
    {"template TMT<4> move noexcept(N < 8)", NULL, NULL, "hl_gt::TMT<4>{}", NULL, NULL, NULL},
    {"template TMT<8> move noexcept(N < 8)", NULL, NULL, "hl_gt::TMT<8>{}", NULL, NULL, NULL},
    {"template TA<16> alignas(16)", NULL, NULL, "hl_gt::TA<16>{}", NULL, NULL, NULL},
};

/* As for std::function: fits both, fits libc++ only, fits neither. */
static const store any_context_stores[] = {
    {"long", NULL, NULL, "5L", NULL, "long", "5L"},
    {"std::array<int, 4>", NULL, NULL, "std::array<int, 4>{}", NULL, "std::array<int, 4>", ""},
    {"std::array<long, 4>", NULL, NULL, "std::array<long, 4>{}", NULL, "std::array<long, 4>", ""},
};

#define COUNT(a) (sizeof(a) / sizeof *(a))

/* The std::function and std::any corpus; libstdcxx adds what only
 * libstdc++ can compile. */
static void corpus_cxx17(gen *g, int libstdcxx) {
  put(g, "// The std::function and std::any corpus (C++17).\n");
  put(g, prelude);
  align_grid_types(g);
  put(g, function_types);
  put(g, any_types);
  align_grid_sites(g, "std::function<void()>");
  char_capture_sites(g, "std::function<void()>");
  table_sites(g, "std::function", 1, function_stores, COUNT(function_stores));
  if (libstdcxx)
    table_sites(g, "std::function", 1, function_stores_libstdcxx_only, COUNT(function_stores_libstdcxx_only));
  context_sites(g, "std::function<void()>", function_contexts, COUNT(function_contexts), function_context_stores,
                COUNT(function_context_stores));
  context_sites(g, "std::function<void()>", lambda_contexts, COUNT(lambda_contexts), lambda_context_stores,
                COUNT(lambda_context_stores));
  table_sites(g, "std::any", 0, any_stores, COUNT(any_stores));
  context_sites(g, "std::any", any_contexts, COUNT(any_contexts), any_context_stores, COUNT(any_context_stores));
}

/* ---- the std::move_only_function corpus (C++23, libstdc++) ---- */

static const char mofunc_types[] =
    "namespace hl_gt {\n"
    "// Functors differing in how they move; 8 bytes unless the name says otherwise.\n"
    "struct M_plain { long x = 1; void operator()() const {} };\n"
    "struct M_move_noexcept { long x = 1; M_move_noexcept() = default; M_move_noexcept(const M_move_noexcept &) = "
    "default; M_move_noexcept(M_move_noexcept &&o) noexcept : x(o.x) {} void operator()() const {} };\n"
    "struct M_move_noexcept_false { long x = 1; M_move_noexcept_false() = default; M_move_noexcept_false(const "
    "M_move_noexcept_false &) = default; M_move_noexcept_false(M_move_noexcept_false &&o) noexcept(false) : x(o.x) {} "
    "void operator()() const {} };\n"
    "struct M_move_nospec { long x = 1; M_move_nospec() = default; M_move_nospec(const M_move_nospec &) = default; "
    "M_move_nospec(M_move_nospec &&o) : x(o.x) {} void operator()() const {} };\n"
    "struct M_move_cond_false { long x = 1; M_move_cond_false() = default; M_move_cond_false(M_move_cond_false &&o) "
    "noexcept(sizeof(int) == 8) : x(o.x) {} void operator()() const {} };\n"
    "struct M_move_cond_true { long x = 1; M_move_cond_true() = default; M_move_cond_true(M_move_cond_true &&o) "
    "noexcept(sizeof(int) == 4) : x(o.x) {} void operator()() const {} };\n"
    "struct M_move_default { long x = 1; M_move_default() = default; M_move_default(M_move_default &&) = default; void "
    "operator()() const {} };\n"
    "struct M_move_default_member_throw { M_move_nospec m; M_move_default_member_throw() = default; "
    "M_move_default_member_throw(M_move_default_member_throw &&) = default; void operator()() const {} };\n"
    "struct M_member_move_throw { M_move_nospec m; void operator()() const {} };\n"
    "struct M_copy_only_noexcept { long x = 1; M_copy_only_noexcept() = default; M_copy_only_noexcept(const "
    "M_copy_only_noexcept &o) noexcept : x(o.x) {} void operator()() const {} };\n"
    "struct M_copy_only_throw { long x = 1; M_copy_only_throw() = default; M_copy_only_throw(const M_copy_only_throw "
    "&o) : x(o.x) {} void operator()() const {} };\n"
    "struct M_move_only { long x = 1; M_move_only() = default; M_move_only(const M_move_only &) = delete; "
    "M_move_only(M_move_only &&o) noexcept : x(o.x) {} void operator()() const {} };\n"
    "struct M_move_only_throw { long x = 1; M_move_only_throw() = default; M_move_only_throw(const M_move_only_throw "
    "&) = delete; M_move_only_throw(M_move_only_throw &&o) : x(o.x) {} void operator()() const {} };\n"
    "struct M_dtor { long x = 1; ~M_dtor() {} void operator()() const {} };\n"
    "struct M_dtor_noexcept_false { long x = 1; ~M_dtor_noexcept_false() noexcept(false) {} void operator()() const {} "
    "};\n"
    "struct MDtorThrows { ~MDtorThrows() noexcept(false) {} };\n"
    "struct M_member_dtor_noexcept_false { long x = 1; MDtorThrows m; void operator()() const {} };\n"
    "struct M_virtual_16 { long x = 1; virtual void operator()() const {} };\n"
    "struct M_virtual_24 { long x[2] = {}; virtual void operator()() const {} };\n"
    "struct M_virtual_32 { long x[3] = {}; virtual void operator()() const {} };\n"
    "struct MVBase { long v = 1; };\n"
    "struct M_virtual_base : virtual MVBase { void operator()() const {} };\n"
    "struct M_copy_noexcept_24 { long x[3] = {}; M_copy_noexcept_24() = default; M_copy_noexcept_24(const "
    "M_copy_noexcept_24 &) noexcept {} void operator()() const {} };\n"
    "struct M_string_member { std::string s; void operator()() const {} };\n"
    "struct M_bits24 { unsigned long long a : 40, b : 40, c : 40; void operator()() const {} };\n"
    "} // namespace hl_gt\n"
    "\n";

static const store mofunc_stores[] = {
    {"captureless lambda", NULL, NULL, "[] {}", NULL, NULL, NULL},
    {"lambda [l1] 8 bytes", NULL, "long l1 = 1;", "[l1] { hl_gt::use(l1); }", NULL, NULL, NULL},
    {"lambda [l1, l2] 16 bytes", NULL, "long l1 = 1, l2 = 2;", "[l1, l2] { hl_gt::use(l1, l2); }", NULL, NULL, NULL},
    {"lambda [l1..l3] 24 bytes", NULL, "long l1 = 1, l2 = 2, l3 = 3;", "[l1, l2, l3] { hl_gt::use(l1, l2, l3); }", NULL,
     NULL, NULL},
    {"lambda [l1..l4] 32 bytes", NULL, "long l1 = 1, l2 = 2, l3 = 3, l4 = 4;",
     "[l1, l2, l3, l4] { hl_gt::use(l1, l2, l3, l4); }", NULL, NULL, NULL},
    {"lambda [c1, l1, l2, c2] padded to 32", NULL, "char c1 = 1, c2 = 2; long l1 = 1, l2 = 2;",
     "[c1, l1, l2, c2] { hl_gt::use(c1, l1, l2, c2); }", NULL, NULL, NULL},
    {"lambda [&l1, &l2, &l3]", NULL, "long l1 = 1, l2 = 2, l3 = 3;", "[&l1, &l2, &l3] { hl_gt::use(l1, l2, l3); }",
     NULL, NULL, NULL},
    {"lambda [&] using 4", NULL, "long l1 = 1, l2 = 2, l3 = 3, l4 = 4;", "[&] { hl_gt::use(l1, l2, l3, l4); }", NULL,
     NULL, NULL},
    {"lambda [=] using 3", NULL, "long l1 = 1, l2 = 2, l3 = 3;", "[=] { hl_gt::use(l1, l2, l3); }", NULL, NULL, NULL},
    {"lambda [this, l1, l2]", NULL, "long l1 = 1, l2 = 2;", "[this, l1, l2] { hl_gt::use(m1, l1, l2); }",
     "long m1 = 1;", NULL, NULL},
    {"lambda [*this] of 24 bytes", NULL, NULL, "[*this] { hl_gt::use(m1); }", "long m1 = 1, m2 = 2, m3 = 3;", NULL,
     NULL},
    {"lambda [*this] of 32 bytes", NULL, NULL, "[*this] { hl_gt::use(m1); }", "long m1 = 1, m2 = 2, m3 = 3, m4 = 4;",
     NULL, NULL},
    {"lambda [p = unique_ptr]", NULL, "std::unique_ptr<int> up;", "[p = std::move(up)] { hl_gt::use(p); }", NULL, NULL,
     NULL},
    {"lambda [p1, p2, l1] unique_ptrs 24 bytes", NULL, "std::unique_ptr<int> u1, u2; long l1 = 1;",
     "[p1 = std::move(u1), p2 = std::move(u2), l1] { hl_gt::use(p1, p2, l1); }", NULL, NULL, NULL},
    {"lambda [p1, p2, l1, l2] unique_ptrs 32 bytes", NULL, "std::unique_ptr<int> u1, u2; long l1 = 1, l2 = 2;",
     "[p1 = std::move(u1), p2 = std::move(u2), l1, l2] { hl_gt::use(p1, p2, l1, l2); }", NULL, NULL, NULL},
    {"lambda [sp] shared_ptr", NULL, "auto sp = hl_gt::shared;", "[sp] { hl_gt::use(sp); }", NULL, NULL, NULL},
    {"lambda [sp, l1]", NULL, "auto sp = hl_gt::shared; long l1 = 1;", "[sp, l1] { hl_gt::use(sp, l1); }", NULL, NULL,
     NULL},
    {"lambda [s] std::string", NULL, "std::string s = \"abc\";", "[s] { hl_gt::use(s); }", NULL, NULL, NULL},
    {"lambda [v] std::vector<int>", NULL, "std::vector<int> v;", "[v] { hl_gt::use(v); }", NULL, NULL, NULL},
    {"lambda [fn] std::function", NULL, "std::function<void()> fn;", "[fn] { hl_gt::use(fn); }", NULL, NULL, NULL},
    {"lambda [a16] alignas(16)", NULL, "hl_gt::A16 a16{};", "[a16] { hl_gt::use(a16); }", NULL, NULL, NULL},
    {"lambda [inner, l3] capturing a lambda", NULL,
     "long l1 = 1, l2 = 2, l3 = 3; auto inner = [l1, l2] { hl_gt::use(l1, l2); };",
     "[inner, l3] { inner(); hl_gt::use(l3); }", NULL, NULL, NULL},
    {"lambda variable moved, 32 bytes", NULL,
     "long l1 = 1, l2 = 2, l3 = 3, l4 = 4; auto lam = [l1, l2, l3, l4] { hl_gt::use(l1, l2, l3, l4); };",
     "std::move(lam)", NULL, NULL, NULL},
    {"generic lambda 24 bytes", "void(int)", "long l1 = 1, l2 = 2, l3 = 3;",
     "[l1, l2, l3](auto x) { hl_gt::use(l1, l2, l3, x); }", NULL, NULL, NULL},
    {"functor trivially copyable", NULL, NULL, "hl_gt::M_plain{}", NULL, NULL, NULL},
    {"functor move noexcept", NULL, NULL, "hl_gt::M_move_noexcept{}", NULL, NULL, NULL},
    {"functor move noexcept(false)", NULL, NULL, "hl_gt::M_move_noexcept_false{}", NULL, NULL, NULL},
    {"functor move without exception spec", NULL, NULL, "hl_gt::M_move_nospec{}", NULL, NULL, NULL},
    {"functor move noexcept(sizeof(int) == 8)", NULL, NULL, "hl_gt::M_move_cond_false{}", NULL, NULL, NULL},
    {"functor move noexcept(sizeof(int) == 4)", NULL, NULL, "hl_gt::M_move_cond_true{}", NULL, NULL, NULL},
    {"functor move defaulted", NULL, NULL, "hl_gt::M_move_default{}", NULL, NULL, NULL},
    {"functor move defaulted, member move may throw", NULL, NULL, "hl_gt::M_move_default_member_throw{}", NULL, NULL,
     NULL},
    {"functor member whose move may throw", NULL, NULL, "hl_gt::M_member_move_throw{}", NULL, NULL, NULL},
    {"functor copy noexcept, no move", NULL, NULL, "hl_gt::M_copy_only_noexcept{}", NULL, NULL, NULL},
    {"functor copy may throw, no move", NULL, NULL, "hl_gt::M_copy_only_throw{}", NULL, NULL, NULL},
    {"functor move-only, move noexcept", NULL, NULL, "hl_gt::M_move_only{}", NULL, NULL, NULL},
    {"functor move-only, move may throw", NULL, NULL, "hl_gt::M_move_only_throw{}", NULL, NULL, NULL},
    {"functor user destructor", NULL, NULL, "hl_gt::M_dtor{}", NULL, NULL, NULL},
    {"functor destructor noexcept(false)", NULL, NULL, "hl_gt::M_dtor_noexcept_false{}", NULL, NULL, NULL},
    {"functor member whose destructor is noexcept(false)", NULL, NULL, "hl_gt::M_member_dtor_noexcept_false{}", NULL,
     NULL, NULL},
    {"functor virtual 16 bytes", NULL, NULL, "hl_gt::M_virtual_16{}", NULL, NULL, NULL},
    {"functor virtual 24 bytes", NULL, NULL, "hl_gt::M_virtual_24{}", NULL, NULL, NULL},
    {"functor virtual 32 bytes", NULL, NULL, "hl_gt::M_virtual_32{}", NULL, NULL, NULL},
    {"functor virtual base", NULL, NULL, "hl_gt::M_virtual_base{}", NULL, NULL, NULL},
    {"functor copy noexcept 24 bytes", NULL, NULL, "hl_gt::M_copy_noexcept_24{}", NULL, NULL, NULL},
    {"functor std::string member", NULL, NULL, "hl_gt::M_string_member{}", NULL, NULL, NULL},
    {"functor bit-fields 3 x 40 bits", NULL, NULL, "hl_gt::M_bits24{}", NULL, NULL, NULL},
    {"template functor TF<24>", NULL, NULL, "hl_gt::TF<24>{}", NULL, NULL, NULL},
    {"template functor TF<25>", NULL, NULL, "hl_gt::TF<25>{}", NULL, NULL, NULL},
    {"template functor TH<std::string>", NULL, NULL, "hl_gt::TH<std::string>{}", NULL, NULL, NULL},
    {"template functor TH<std::vector<int>>", NULL, NULL, "hl_gt::TH<std::vector<int>>{}", NULL, NULL, NULL},
    {"template functor TMT<4> move noexcept(N < 8)", NULL, NULL, "hl_gt::TMT<4>{}", NULL, NULL, NULL},
    {"template functor TMT<8> move noexcept(N < 8)", NULL, NULL, "hl_gt::TMT<8>{}", NULL, NULL, NULL},
    {"template functor TA<16> alignas(16)", NULL, NULL, "hl_gt::TA<16>{}", NULL, NULL, NULL},
    {"std::bind with 1 bound int", NULL, NULL, "std::bind(&hl_gt::g1, 1)", NULL, NULL, NULL},
    {"std::bind with 2 bound ints", NULL, NULL, "std::bind(&hl_gt::g2, 1, 2)", NULL, NULL, NULL},
    {"std::bind with 3 bound ints", NULL, NULL, "std::bind(&hl_gt::g3, 1, 2, 3)", NULL, NULL, NULL},
    {"std::bind with 4 bound longs", NULL, NULL, "std::bind(&hl_gt::g4, 1L, 2L, 3L, 4L)", NULL, NULL, NULL},
    {"std::bind of a member function and a copy", NULL, "hl_gt::MemS ms;", "std::bind(&hl_gt::MemS::m, ms)", NULL, NULL,
     NULL},
    {"std::ref of a 48-byte functor", NULL, "hl_gt::FA8_48 big{};", "std::ref(big)", NULL, NULL, NULL},
    {"function pointer", NULL, NULL, "&hl_gt::g0", NULL, NULL, NULL},
    {"function name", NULL, NULL, "hl_gt::g0", NULL, NULL, NULL},
    {"member function pointer", "void(hl_gt::MemS &)", NULL, "&hl_gt::MemS::m", NULL, NULL, NULL},
    {"member data pointer", "long(hl_gt::MemS &)", NULL, "&hl_gt::MemS::x", NULL, NULL, NULL},
    {"a std::function", NULL, "std::function<void()> sf = [] {};", "std::move(sf)", NULL, NULL, NULL},
};

static const context mofunc_contexts[] = {
    {"direct-init", direct_init, 0},
    {"brace-init", brace_init, 0},
    {"assignment", assign, 0},
    {"argument by value", arg_by_value, 0},
    {"return", returned, 0},
    {"constructor member initializer", member_init, 0},
    {"default member initializer", default_member_init, 0},
    {"push_back", push_back, 0},
    {"emplace_back", emplace_back, 0},
    {"map emplace", map_emplace, 0},
    {"map try_emplace", map_try_emplace, 0},
    {"map subscript assignment", map_subscript, 0},
    {"for loop body", in_loop, 0},
    {"lambda body", in_lambda_body, 0},
    {"function template", in_function_template, 0},
    {"macro argument", through_macro_arg, 0},
    {"using alias", through_using, 0},
    {"std::in_place_type", in_place_type, 1},
};

/* Fits, fits (24 bytes, not trivially copyable), does not fit. */
static const store mofunc_context_stores[] = {
    {"8-byte lambda", NULL, NULL, "[x = 1L] { hl_gt::use(x); }", NULL, "hl_gt::FA8_8", ""},
    {"24-byte lambda with a unique_ptr", NULL, NULL,
     "[p = std::unique_ptr<int>(), y = 2L, z = 3L] { hl_gt::use(p, y, z); }", NULL, "hl_gt::M_copy_noexcept_24", ""},
    {"32-byte lambda", NULL, NULL, "[a = 1L, b = 2L, c = 3L, d = 4L] { hl_gt::use(a, b, c, d); }", NULL,
     "hl_gt::FA8_32", ""},
};

static void corpus_cxx23(gen *g) {
  put(g, "// The std::move_only_function corpus (C++23, libstdc++).\n");
  put(g, prelude);
  align_grid_types(g);
  put(g, mofunc_types);
  align_grid_sites(g, "std::move_only_function<void()>");
  char_capture_sites(g, "std::move_only_function<void()>");
  table_sites(g, "std::move_only_function", 1, mofunc_stores, COUNT(mofunc_stores));
  context_sites(g, "std::move_only_function<void()>", mofunc_contexts, COUNT(mofunc_contexts), mofunc_context_stores,
                COUNT(mofunc_context_stores));
}

/* ---- the templates corpus (C++17): templates, sinks and copies ---- */

/* What real code does with std::function beyond the plain store: stores in
 * class templates' members and in function templates, where the layout
 * often does not depend on the template parameter; sinks, templates that
 * store a caller's callable (the caller's line is where it should be
 * reported); lambdas capturing a shared_ptr to a function-local type; and
 * copies of a std::function, which allocate again exactly when its target
 * is on the heap. Every site says its rule (function-sbo for a
 * construction, function-copy for a copy) and the allocations recorded for
 * it on each library (templates_expected[]). */

static const char templates_prelude[] =
    "namespace hl_gt {\n"
    "void end(int line, const char *label, const char *rule, const char *cat, long expect, int store) {\n"
    "  std::printf(\"%d %lu rule=%s cat=%s expect=%ld store=%d %s\\n\", line, hl_count::allocations() - start, rule,\n"
    "              cat, expect, store, label);\n"
    "}\n"
    "} // namespace hl_gt\n"
    "\n";

#define TEND "hl_gt::end($LINE, \"$LABEL\", \"$RULE\", \"$CAT\", $EXPECT, $STORE);\n"
/* The source of a copy site: a construction, measured on its own. */
#define TSRC_END "hl_gt::end($SRCLINE, \"$LABEL (its source)\", \"function-sbo\", \"copy-source\", $SRCEXPECT, 0);\n"

/* Class-template members: the captures do not depend on T. */
static const char tm_assign[] =
    "template <class T> struct tm_$N {\n"
    "  using self = tm_$N;\n"
    "  long a = 1, b = 2, c = 3;\n"
    "  T t{};\n"
    "  $W cb;\n"
    "  void fire(int) {}\n"
    "  void arm() {\n"
    "    hl_gt::begin();\n"
    "@    cb = $EXPR;\n"
    "    " TEND
    "  }\n"
    "};\n"
    "static void site_$N() { tm_$N<int>().arm(); }\n";

static const char tm_local[] =
    "template <class T> struct tm_$N {\n"
    "  using self = tm_$N;\n"
    "  long a = 1, b = 2, c = 3;\n"
    "  T t{};\n"
    "  void fire(int) {}\n"
    "  void arm() {\n"
    "    hl_gt::begin();\n"
    "@    $W w = $EXPR;\n"
    "    " TEND
    "  }\n"
    "};\n"
    "static void site_$N() { tm_$N<int>().arm(); }\n";

static const char tm_arg[] =
    "static void take_$N($W w) { hl_gt::use(w); }\n"
    "template <class T> struct tm_$N {\n"
    "  using self = tm_$N;\n"
    "  long a = 1, b = 2, c = 3;\n"
    "  T t{};\n"
    "  void fire(int) {}\n"
    "  void arm() {\n"
    "    hl_gt::begin();\n"
    "@    take_$N($EXPR);\n"
    "    " TEND
    "  }\n"
    "};\n"
    "static void site_$N() { tm_$N<int>().arm(); }\n";

static const char tm_ctor_init[] =
    "template <class T> struct tm_$N {\n"
    "  using self = tm_$N;\n"
    "  long a = 1, b = 2, c = 3;\n"
    "  T t{};\n"
    "  $W cb;\n"
    "  void fire(int) {}\n"
    "@  tm_$N() : cb($EXPR) {}\n"
    "};\n"
    "static void site_$N() {\n"
    "  hl_gt::begin();\n"
    "  tm_$N<int> h;\n"
    "  " TEND "}\n";

/* A member function template of a plain class. */
static const char tm_member_template[] =
    "struct tm_$N {\n"
    "  using self = tm_$N;\n"
    "  long a = 1, b = 2, c = 3;\n"
    "  int t = 0;\n"
    "  $W cb;\n"
    "  void fire(int) {}\n"
    "  template <class U> void arm(U) {\n"
    "    hl_gt::begin();\n"
    "@    cb = $EXPR;\n"
    "    " TEND
    "  }\n"
    "};\n"
    "static void site_$N() { tm_$N().arm(0); }\n";

static const context tm_contexts[] = {
    {"class template member assignment", tm_assign, 0},
    {"class template member, local variable", tm_local, 0},
    {"class template member, argument by value", tm_arg, 0},
    {"class template constructor member initializer", tm_ctor_init, 0},
    {"member function template assignment", tm_member_template, 0},
};

static const store tm_stores[] = {
    {"[this] 8 bytes", NULL, NULL, "[this] { hl_gt::use(a); }", NULL, NULL, NULL},
    {"[x = a, y = b] 16 bytes", NULL, NULL, "[x = a, y = b] { hl_gt::use(x, y); }", NULL, NULL, NULL},
    {"[this, x = a, y = b] 24 bytes", NULL, NULL, "[this, x = a, y = b] { hl_gt::use(x, y); }", NULL, NULL, NULL},
    {"[this, x = a, y = b, z = c] 32 bytes", NULL, NULL, "[this, x = a, y = b, z = c] { hl_gt::use(x, y, z); }", NULL,
     NULL, NULL},
    {"[this, s = std::string] 40 bytes", NULL, NULL, "[this, s = std::string()] { hl_gt::use(s); }", NULL, NULL, NULL},
    {"[this, sp = shared_ptr] 24 bytes", NULL, NULL, "[this, sp = hl_gt::shared] { hl_gt::use(sp); }", NULL, NULL,
     NULL},
    {"std::bind(&self::fire, this, 1)", NULL, NULL, "std::bind(&self::fire, this, 1)", NULL, NULL, NULL},
    {"dependent [this, u = t, x = a] with T = int", NULL, NULL, "[this, u = t, x = a] { hl_gt::use(u, x); }", NULL,
     NULL, NULL},
};

/* Function templates and generic lambdas: by-reference captures are
 * pointers whatever the referee's type. */
static const char ft_local[] =
    "template <class T> void ft_$N(T &t, long u, long v, long w) {\n"
    "  hl_gt::begin();\n"
    "@  $W f = $EXPR;\n"
    "  " TEND
    "}\n"
    "static void site_$N() { std::vector<int> vec; ft_$N(vec, 1, 2, 3); }\n";

static const char ft_arg[] =
    "static void take_$N($W f) { hl_gt::use(f); }\n"
    "template <class T> void ft_$N(T &t, long u, long v, long w) {\n"
    "  hl_gt::begin();\n"
    "@  take_$N($EXPR);\n"
    "  " TEND
    "}\n"
    "static void site_$N() { std::vector<int> vec; ft_$N(vec, 1, 2, 3); }\n";

static const char ft_push_back[] =
    "template <class T> void ft_$N(T &t, long u, long v, long w) {\n"
    "  std::vector<$W> fs;\n"
    "  fs.reserve(2);\n"
    "  hl_gt::begin();\n"
    "@  fs.push_back($EXPR);\n"
    "  " TEND
    "}\n"
    "static void site_$N() { std::vector<int> vec; ft_$N(vec, 1, 2, 3); }\n";

static const char ft_generic_lambda[] =
    "static void site_$N() {\n"
    "  std::vector<int> vec;\n"
    "  auto outer = [](auto &t, long u, long v, long w) {\n"
    "    hl_gt::begin();\n"
    "@    $W f = $EXPR;\n"
    "    " TEND
    "  };\n"
    "  outer(vec, 1, 2, 3);\n"
    "}\n";

static const context ft_contexts[] = {
    {"function template, local variable", ft_local, 0},
    {"function template, argument by value", ft_arg, 0},
    {"function template, push_back", ft_push_back, 0},
    {"generic lambda, local variable", ft_generic_lambda, 0},
};

static const store ft_stores[] = {
    {"[&] using u, v: 16 bytes", NULL, NULL, "[&] { hl_gt::use(u, v); }", NULL, NULL, NULL},
    {"[&] using t, u, v: 24 bytes", NULL, NULL, "[&] { hl_gt::use(t.size(), u, v); }", NULL, NULL, NULL},
    {"[&] using t, u, v, w: 32 bytes", NULL, NULL, "[&] { hl_gt::use(t.size(), u, v, w); }", NULL, NULL, NULL},
    {"[&t, &u, &v] 24 bytes", NULL, NULL, "[&t, &u, &v] { hl_gt::use(t.size(), u, v); }", NULL, NULL, NULL},
    {"[&, w] using t, u, w: 24 bytes", NULL, NULL, "[&, w] { hl_gt::use(t.size(), u, w); }", NULL, NULL, NULL},
    {"[=] using u, v, w: 24 bytes", NULL, NULL, "[=] { hl_gt::use(u, v, w); }", NULL, NULL, NULL},
    {"[u, v] 16 bytes", NULL, NULL, "[u, v] { hl_gt::use(u, v); }", NULL, NULL, NULL},
    {"dependent [t] copying a std::vector<int>", NULL, NULL, "[t] { hl_gt::use(t); }", NULL, NULL, NULL},
};

/* Sinks: a template stores the caller's callable (marked '!'); heaplint
 * should report the caller's line, where the type is concrete. SINK_SITE:
 * the caller, handing its value to sink_$N. */
#define SINK_SITE             \
  "static void site_$N() {\n" \
  "  $SETUP\n"                \
  "  hl_gt::begin();\n"       \
  "@  sink_$N($EXPR);\n"      \
  "  " TEND "}\n"
static const char sink_value[] =
    "static void take_$N($W f) { hl_gt::use(f); }\n"
    "template <class F> void sink_$N(F f) {\n"
    "!  take_$N(std::move(f));\n"
    "}\n" SINK_SITE;

static const char sink_forward[] =
    "static void take_$N($W f) { hl_gt::use(f); }\n"
    "template <class F> void sink_$N(F &&f) {\n"
    "!  take_$N(std::forward<F>(f));\n"
    "}\n" SINK_SITE;

static const char sink_two_levels[] =
    "static void take_$N($W f) { hl_gt::use(f); }\n"
    "template <class F> void inner_$N(F f) {\n"
    "!  take_$N(std::move(f));\n"
    "}\n"
    "template <class F> void sink_$N(F &&f) { inner_$N(std::forward<F>(f)); }\n" SINK_SITE;

static const char sink_member[] =
    "struct reg_$N {\n"
    "  $W cb;\n"
    "  template <class F> void on(F &&f) {\n"
    "!    cb = std::forward<F>(f);\n"
    "  }\n"
    "};\n"
    "static void site_$N() {\n"
    "  $SETUP\n"
    "  reg_$N r;\n"
    "  hl_gt::begin();\n"
    "@  r.on($EXPR);\n"
    "  " TEND "}\n";

static const char sink_class_template[] =
    "template <class Sig> struct slot_$N {\n"
    "  std::vector<std::function<Sig>> v;\n"
    "  slot_$N() { v.reserve(2); }\n"
    "  template <class F> void connect(F &&f) {\n"
    "!    v.emplace_back(std::forward<F>(f));\n"
    "  }\n"
    "};\n"
    "static void site_$N() {\n"
    "  $SETUP\n"
    "  slot_$N<void()> s;\n"
    "  hl_gt::begin();\n"
    "@  s.connect($EXPR);\n"
    "  " TEND "}\n";

static const char sink_wrapping_lambda[] =
    "static void take_$N($W f) { hl_gt::use(f); }\n"
    "template <class F> void sink_$N(F f) {\n"
    "!  take_$N([f] { f(); });\n"
    "}\n" SINK_SITE;

static const char sink_bind[] =
    "static void take_$N($W f) { hl_gt::use(f); }\n"
    "template <class F> void sink_$N(F f) {\n"
    "!  take_$N(std::bind(f, 1L));\n"
    "}\n" SINK_SITE;

static const char sink_return[] =
    "template <class F> $W make_$N(F &&f) {\n"
    "!  return std::forward<F>(f);\n"
    "}\n"
    "static void site_$N() {\n"
    "  $SETUP\n"
    "  hl_gt::begin();\n"
    "@  $W w = make_$N($EXPR);\n"
    "  " TEND "}\n";

/* A pair or tuple built in the template from the caller's value: the
 * library's constructor builds the wrapper element from it. */
static const char sink_tuple[] =
    "struct queue_$N {\n"
    "  std::vector<std::tuple<int, $W>> items;\n"
    "  queue_$N() { items.reserve(2); }\n"
    "  template <class F> void enqueue(int e, F &&f) {\n"
    "!    items.push_back(std::tuple<int, $W>(e, std::forward<F>(f)));\n"
    "  }\n"
    "};\n"
    "static void site_$N() {\n"
    "  $SETUP\n"
    "  queue_$N q;\n"
    "  hl_gt::begin();\n"
    "@  q.enqueue(1, $EXPR);\n"
    "  " TEND "}\n";

static const char sink_pair[] =
    "template <class F> void sink_$N(F f) {\n"
    "!  std::pair<$W, int> p(std::move(f), 2);\n"
    "  hl_gt::use(p.first);\n"
    "}\n" SINK_SITE;

static const context sink_contexts[] = {
    {"sink by value", sink_value, 0},
    {"sink through std::forward", sink_forward, 0},
    {"sink two levels deep", sink_two_levels, 0},
    {"sink into a member", sink_member, 0},
    {"sink in a class template, emplace_back", sink_class_template, 0},
    {"sink through a lambda capturing the parameter", sink_wrapping_lambda, 0},
    {"sink through std::bind", sink_bind, 0},
    {"sink returning a std::function", sink_return, 0},
    {"sink building a std::tuple element", sink_tuple, 0},
    {"sink building a std::pair element", sink_pair, 0},
};

/* Generic lambdas, so that std::bind(f, 1L) can call them too. */
static const store sink_stores[] = {
    {"8-byte lambda", NULL, "long a = 1;", "[a](auto &&...) { hl_gt::use(a); }", NULL, NULL, NULL},
    {"24-byte lambda", NULL, "long a = 1, b = 2, c = 3;", "[a, b, c](auto &&...) { hl_gt::use(a, b, c); }", NULL, NULL,
     NULL},
    {"32-byte lambda", NULL, "long a = 1, b = 2, c = 3, d = 4;", "[a, b, c, d](auto &&...) { hl_gt::use(a, b, c, d); }",
     NULL, NULL, NULL},
    {"24-byte lambda variable (an lvalue)", NULL,
     "long a = 1, b = 2, c = 3; auto lam = [a, b, c](auto &&...) { hl_gt::use(a, b, c); };", "lam", NULL, NULL, NULL},
};

/* A shared_ptr (or a value) of a type declared in the function. */
static const char local_plain[] =
    "static void site_$N() {\n"
    "  struct Local { long v = 1; };\n"
    "  auto sp = std::make_shared<Local>();\n"
    "  $SETUP\n"
    "  hl_gt::begin();\n"
    "@  $W w = $EXPR;\n"
    "  " TEND "}\n";

static const char local_arg[] =
    "static void take_$N($W w) { hl_gt::use(w); }\n"
    "static void site_$N() {\n"
    "  struct Local { long v = 1; };\n"
    "  auto sp = std::make_shared<Local>();\n"
    "  $SETUP\n"
    "  hl_gt::begin();\n"
    "@  take_$N($EXPR);\n"
    "  " TEND "}\n";

static const context local_contexts[] = {
    {"local type, local variable", local_plain, 0},
    {"local type, argument by value", local_arg, 0},
};

static const store local_stores[] = {
    {"[sp] shared_ptr<Local>", NULL, NULL, "[sp] { hl_gt::use(sp); }", NULL, NULL, NULL},
    {"[sp, l1] shared_ptr<Local> and a long", NULL, "long l1 = 1;", "[sp, l1] { hl_gt::use(sp, l1); }", NULL, NULL,
     NULL},
    {"[sp, l1, l2] shared_ptr<Local> and two longs", NULL, "long l1 = 1, l2 = 2;",
     "[sp, l1, l2] { hl_gt::use(sp, l1, l2); }", NULL, NULL, NULL},
    {"[p = std::move(sp)]", NULL, NULL, "[p = std::move(sp)] { hl_gt::use(p); }", NULL, NULL, NULL},
    {"[wp] weak_ptr<Local>", NULL, "std::weak_ptr<Local> wp = sp;", "[wp] { hl_gt::use(wp); }", NULL, NULL, NULL},
    {"[loc] Local by value, 8 bytes", NULL, "Local loc;", "[loc] { hl_gt::use(loc); }", NULL, NULL, NULL},
};

/* Copies of a std::function: the source is constructed (and measured, '%')
 * in the site's own code, then copied ('@'). */
static const char copy_construct[] =
    "static void site_$N() {\n"
    "  $SETUP\n"
    "  hl_gt::begin();\n"
    "%  $W src = $EXPR;\n"
    "  " TSRC_END
    "  hl_gt::begin();\n"
    "@  $W w = src;\n"
    "  " TEND "}\n";

static const char copy_direct[] =
    "static void site_$N() {\n"
    "  $SETUP\n"
    "  hl_gt::begin();\n"
    "%  $W src = $EXPR;\n"
    "  " TSRC_END
    "  hl_gt::begin();\n"
    "@  $W w(src);\n"
    "  " TEND "}\n";

static const char copy_assign[] =
    "static void site_$N() {\n"
    "  $SETUP\n"
    "  $W w;\n"
    "  hl_gt::begin();\n"
    "%  $W src = $EXPR;\n"
    "  " TSRC_END
    "  hl_gt::begin();\n"
    "@  w = src;\n"
    "  " TEND "}\n";

static const char copy_arg[] =
    "static void take_$N($W w) { hl_gt::use(w); }\n"
    "static void site_$N() {\n"
    "  $SETUP\n"
    "  hl_gt::begin();\n"
    "%  $W src = $EXPR;\n"
    "  " TSRC_END
    "  hl_gt::begin();\n"
    "@  take_$N(src);\n"
    "  " TEND "}\n";

static const char copy_push_back[] =
    "static void site_$N() {\n"
    "  $SETUP\n"
    "  std::vector<$W> v;\n"
    "  v.reserve(2);\n"
    "  hl_gt::begin();\n"
    "%  $W src = $EXPR;\n"
    "  " TSRC_END
    "  hl_gt::begin();\n"
    "@  v.push_back(src);\n"
    "  " TEND "}\n";

static const char copy_capture[] =
    "static void site_$N() {\n"
    "  $SETUP\n"
    "  hl_gt::begin();\n"
    "%  $W src = $EXPR;\n"
    "  " TSRC_END
    "  hl_gt::begin();\n"
    "@  auto lam = [src] { src(); };\n"
    "  " TEND
    "  hl_gt::use(lam);\n"
    "}\n";

static const char copy_capture_default[] =
    "static void site_$N() {\n"
    "  $SETUP\n"
    "  hl_gt::begin();\n"
    "%  $W src = $EXPR;\n"
    "  " TSRC_END
    "  hl_gt::begin();\n"
    "@  auto lam = [=] { src(); };\n"
    "  " TEND
    "  hl_gt::use(lam);\n"
    "}\n";

static const char copy_in_loop[] =
    "static void site_$N() {\n"
    "  $SETUP\n"
    "  hl_gt::begin();\n"
    "%  $W src = $EXPR;\n"
    "  " TSRC_END
    "  hl_gt::begin();\n"
    "  for (int i = 0; i < 3; ++i) {\n"
    "@    $W w = src;\n"
    "  }\n"
    "  " TEND "}\n";

/* The source is a by-value parameter, moved in (no allocation there). */
static const char copy_from_value_param[] =
    "static void copy_$N($W src) {\n"
    "  hl_gt::begin();\n"
    "@  $W w = src;\n"
    "  " TEND
    "}\n"
    "static void site_$N() {\n"
    "  $SETUP\n"
    "  hl_gt::begin();\n"
    "%  $W src0 = $EXPR;\n"
    "  " TSRC_END
    "  copy_$N(std::move(src0));\n"
    "}\n";

/* The source is a member assigned in the same translation unit, returned
 * by value. */
static const char copy_member_return[] =
    "struct own_$N {\n"
    "  $W cb;\n"
    "  $W get() const {\n"
    "@    return cb;\n"
    "  }\n"
    "};\n"
    "static void site_$N() {\n"
    "  $SETUP\n"
    "  own_$N o;\n"
    "  hl_gt::begin();\n"
    "%  o.cb = $EXPR;\n"
    "  " TSRC_END
    "  hl_gt::begin();\n"
    "  $W w = o.get();\n"
    "  " TEND "}\n";

/* A copy in a class template's member. */
static const char copy_in_class_template[] =
    "template <class T> struct own_$N {\n"
    "  $W cb;\n"
    "  void dup() {\n"
    "    hl_gt::begin();\n"
    "@    $W w = cb;\n"
    "    " TEND
    "  }\n"
    "};\n"
    "static void site_$N() {\n"
    "  $SETUP\n"
    "  own_$N<int> o;\n"
    "  hl_gt::begin();\n"
    "%  o.cb = $EXPR;\n"
    "  " TSRC_END
    "  o.dup();\n"
    "}\n";

/* The source reaches the copy through a const reference: its target is not
 * visible there. */
static const char copy_from_cref_param[] =
    "static void copy_$N(const $W &src) {\n"
    "  hl_gt::begin();\n"
    "@  $W w = src;\n"
    "  " TEND
    "}\n"
    "static void site_$N() {\n"
    "  $SETUP\n"
    "  hl_gt::begin();\n"
    "%  $W src = $EXPR;\n"
    "  " TSRC_END
    "  copy_$N(src);\n"
    "}\n";

/* Not copies: a move, and a const reference. heaplint must stay silent. */
static const char copy_not_move[] =
    "static void site_$N() {\n"
    "  $SETUP\n"
    "  hl_gt::begin();\n"
    "%  $W src = $EXPR;\n"
    "  " TSRC_END
    "  hl_gt::begin();\n"
    "@  $W w = std::move(src);\n"
    "  " TEND "}\n";

static const char copy_not_cref[] =
    "static void take_$N(const $W &w) { hl_gt::use(w); }\n"
    "static void site_$N() {\n"
    "  $SETUP\n"
    "  hl_gt::begin();\n"
    "%  $W src = $EXPR;\n"
    "  " TSRC_END
    "  hl_gt::begin();\n"
    "@  take_$N(src);\n"
    "  " TEND "}\n";

static const context copy_contexts[] = {
    {"copy construction", copy_construct, 0},
    {"copy direct-init", copy_direct, 0},
    {"copy assignment", copy_assign, 0},
    {"by-value argument from an lvalue", copy_arg, 0},
    {"push_back of an lvalue", copy_push_back, 0},
    {"capture by copy [src]", copy_capture, 0},
    {"capture by copy [=]", copy_capture_default, 0},
    {"copy in a loop", copy_in_loop, 0},
    {"copy of a by-value parameter", copy_from_value_param, 0},
    {"member returned by value", copy_member_return, 0},
    {"copy in a class template member", copy_in_class_template, 0},
    {"copy of a const reference parameter", copy_from_cref_param, 0},
    {"not a copy: std::move", copy_not_move, 0},
    {"not a copy: const reference argument", copy_not_cref, 0},
};

static const store copy_stores[] = {
    {"8-byte lambda target", NULL, "long l1 = 1;", "[l1] { hl_gt::use(l1); }", NULL, NULL, NULL},
    {"24-byte lambda target", NULL, "long l1 = 1, l2 = 2, l3 = 3;", "[l1, l2, l3] { hl_gt::use(l1, l2, l3); }", NULL,
     NULL, NULL},
    {"32-byte lambda target", NULL, "long l1 = 1, l2 = 2, l3 = 3, l4 = 4;",
     "[l1, l2, l3, l4] { hl_gt::use(l1, l2, l3, l4); }", NULL, NULL, NULL},
    {"std::bind with 4 bound longs", NULL, NULL, "std::bind(&hl_gt::g4, 1L, 2L, 3L, 4L)", NULL, NULL, NULL},
};

/* The allocations each site made, measured with g++ 12 (libstdc++) and
 * clang++ 19 -stdlib=libc++ at -O0. A site missing here gets -1, which
 * compare rejects: measure it and record it. */
static const struct {
  const char *label;
  long libstdcxx, libcxx;
} templates_expected[] = {
#include "templates_expected.inc"
};

static long expected_for(const char *label, int libstdcxx) {
  for (size_t i = 0; i < COUNT(templates_expected); i++)
    if (!strcmp(templates_expected[i].label, label))
      return libstdcxx ? templates_expected[i].libstdcxx : templates_expected[i].libcxx;
  return -1;
}

static void template_sites(gen *g, int libstdcxx, const char *cat, const char *rule, const context *c, size_t nc,
                           const store *v, size_t nv) {
  for (size_t i = 0; i < nc; i++)
    for (size_t k = 0; k < nv; k++) {
      char label[200], src[240];
      snprintf(label, sizeof label, "%s, %s", c[i].name, v[k].label);
      snprintf(src, sizeof src, "%s (its source)", label);
      store st = v[k];
      st.label = label;
      g->cat = cat;
      g->rule = rule;
      g->expect = expected_for(label, libstdcxx);
      g->srcexpect = expected_for(src, libstdcxx);
      site(g, c[i].tmpl, "std::function<void()>", &st);
    }
  g->cat = g->rule = NULL;
}

static void corpus_templates(gen *g, int libstdcxx) {
  put(g, "// The templates, sinks and copies corpus (C++17).\n");
  put(g, prelude);
  put(g, templates_prelude);
  template_sites(g, libstdcxx, "template-member", "function-sbo", tm_contexts, COUNT(tm_contexts), tm_stores,
                 COUNT(tm_stores));
  template_sites(g, libstdcxx, "template-ref-lambda", "function-sbo", ft_contexts, COUNT(ft_contexts), ft_stores,
                 COUNT(ft_stores));
  template_sites(g, libstdcxx, "sink", "function-sbo", sink_contexts, COUNT(sink_contexts), sink_stores,
                 COUNT(sink_stores));
  template_sites(g, libstdcxx, "local-shared-ptr", "function-sbo", local_contexts, COUNT(local_contexts), local_stores,
                 COUNT(local_stores));
  template_sites(g, libstdcxx, "copy", "function-copy", copy_contexts, COUNT(copy_contexts), copy_stores,
                 COUNT(copy_stores));
}

static int generate(const char *which) {
  gen g = {{0}, 0, 0, NULL, NULL, 0, 0};
  put(&g, "// Generated by hl-groundtruth (tests/groundtruth/groundtruth.c); do not edit.\n");
  if (!strcmp(which, "libstdc++") || !strcmp(which, "libc++")) {
    corpus_cxx17(&g, !strcmp(which, "libstdc++"));
  } else if (!strcmp(which, "move_only_function")) {
    corpus_cxx23(&g);
  } else if (!strcmp(which, "templates-libstdc++") || !strcmp(which, "templates-libc++")) {
    corpus_templates(&g, !strcmp(which, "templates-libstdc++"));
  } else if (alloc_corpus(&g, which)) {
    fprintf(stderr,
            "hl-groundtruth: unknown corpus '%s' (libstdc++, libc++, move_only_function, templates-libstdc++, "
            "templates-libc++ or %s)\n",
            which, ALLOC_CORPORA);
    return 2;
  }
  put(&g, "\nint main() {\n");
  for (int i = 1; i <= g.nsites; i++) putf(&g, "  site_%d();\n", i);
  put(&g, "}\n");
  fwrite(g.out.s, 1, g.out.n, stdout);
  free(g.out.s);
  return fflush(stdout) == 0 ? 0 : 2;
}

/* ---- comparing the measurement with heaplint's diagnostics ---- */

typedef struct measured {
  int line;
  unsigned long count;
  char *label;
  char *rule;        /* the rule heaplint should report it under; NULL: any */
  char *cat;         /* its category; NULL: none */
  long expect;       /* the recorded count; -2: none recorded (the older corpora) */
  int store;         /* the store inside a template a sink site reaches; 0: none */
  unsigned long own; /* heap calls of the site's own allocator, not in count */
  int warned;        /* heaplint warned on the line under the site's rule */
  int wrong_rule, warned_at_store, undecided;
} measured;

typedef struct lines {
  int *v;
  size_t n, cap;
} lines;

static void lines_add(lines *l, int v) {
  if (l->n == l->cap) {
    l->cap = l->cap ? l->cap * 2 : 64;
    l->v = xrealloc(l->v, l->cap * sizeof *l->v);
  }
  l->v[l->n++] = v;
}

static char *read_line(FILE *f) {
  buf b = {0};
  int c;
  while ((c = fgetc(f)) != EOF && c != '\n') {
    char ch = (char)c;
    buf_putn(&b, &ch, 1);
  }
  if (c == EOF && b.n == 0) {
    free(b.s);
    return NULL;
  }
  if (!b.s) buf_putn(&b, "", 0);
  return b.s;
}

static char *xstrndup(const char *s, size_t n) {
  char *r = xrealloc(NULL, n + 1);
  memcpy(r, s, n);
  r[n] = '\0';
  return r;
}

/* The line number of a "path:line:col: <kind>: " diagnostic; 0 if s is not
 * one of that kind. */
static int diagnostic_line(const char *s, const char *kind) {
  char pat[32];
  snprintf(pat, sizeof pat, ": %s: ", kind);
  const char *k = strstr(s, pat);
  if (!k) return 0;
  /* Back over ":col" and ":line" (the path may itself contain colons). */
  const char *p = k;
  int field = 0;
  long num[2] = {0, 0};
  while (field < 2) {
    const char *end = p;
    while (p > s && p[-1] >= '0' && p[-1] <= '9') p--;
    if (p == end || p == s || p[-1] != ':') return 0;
    num[field++] = strtol(p, NULL, 10);
    p--;
  }
  return (int)num[1];
}

/* The rule id of a diagnostic, the last "[...]" of the line; NULL: none. */
static char *diagnostic_rule(const char *s) {
  const char *close = strrchr(s, ']');
  if (!close || close[1] != '\0') return NULL;
  const char *open = close;
  while (open > s && open[-1] != '[') open--;
  if (open == s) return NULL;
  return xstrndup(open, (size_t)(close - open));
}

static int by_line(const void *a, const void *b) {
  const measured *x = a, *y = b;
  return (x->line > y->line) - (x->line < y->line);
}

static int is_copy(const measured *m) {
  size_t n = m->rule ? strlen(m->rule) : 0;
  return n > 5 && !strcmp(m->rule + n - 5, "-copy");
}

/* Reads "<line> <count> [rule=R] [cat=C] [expect=N] [store=L] [own=N] [new=N]
 * <label>" (new=, the operator new calls alone, is for the tests' own
 * checks: not kept). */
static int parse_measurement(const char *s, measured *out) {
  int line, used = 0;
  unsigned long count;
  if (sscanf(s, "%d %lu %n", &line, &count, &used) < 2 || used == 0) return 0;
  *out = (measured){line, count, NULL, NULL, NULL, -2, 0, 0, 0, 0, 0, 0};
  const char *p = s + used;
  for (;;) {
    const char *sp = strchr(p, ' '), *eq = strchr(p, '=');
    if (!sp || !eq || eq > sp) break;
    size_t klen = (size_t)(eq - p);
    const char *v = eq + 1;
    size_t vlen = (size_t)(sp - v);
    if (klen == 4 && !strncmp(p, "rule", 4))
      out->rule = xstrndup(v, vlen);
    else if (klen == 3 && !strncmp(p, "cat", 3))
      out->cat = xstrndup(v, vlen);
    else if (klen == 6 && !strncmp(p, "expect", 6))
      out->expect = strtol(v, NULL, 10);
    else if (klen == 5 && !strncmp(p, "store", 5))
      out->store = (int)strtol(v, NULL, 10);
    else if (klen == 3 && !strncmp(p, "own", 3))
      out->own = strtoul(v, NULL, 10);
    else if (klen == 3 && !strncmp(p, "new", 3)) {
    } else
      break;
    p = sp + 1;
  }
  out->label = xstrndup(p, strlen(p));
  return 1;
}

static void print_pct(const char *what, size_t num, size_t den) {
  if (den)
    printf("%s %.1f%% (%zu/%zu)", what, 100.0 * (double)num / (double)den, num, den);
  else
    printf("%s n/a", what);
}

/* Precision and recall of one kind of site (constructions or copies). */
static void kind_summary(const char *name, const char *kind, const measured *m, size_t nm, int copies,
                         size_t extra_false) {
  size_t sites = 0, allocating = 0, hits = 0, wrong = 0, falsepos = extra_false, undecided = 0;
  for (size_t k = 0; k < nm; k++) {
    if (is_copy(&m[k]) != copies) continue;
    int allocated = m[k].count > 0;
    sites++;
    allocating += allocated;
    hits += allocated && m[k].warned;
    falsepos += !allocated && m[k].warned;
    wrong += m[k].wrong_rule;
    undecided += m[k].undecided && !m[k].warned;
  }
  if (!sites) return;
  printf("groundtruth %s: %s: %zu sites, %zu allocate; ", name, kind, sites, allocating);
  print_pct("precision", hits, hits + falsepos);
  printf(", ");
  print_pct("recall", hits, allocating);
  printf("; %zu missed, %zu undecided, %zu under another rule\n", allocating - hits, undecided, wrong);
}

/* What heaplint did per category, for the sites that have one. */
static void category_summary(const char *name, const measured *m, size_t nm) {
  for (size_t k = 0; k < nm; k++) {
    if (!m[k].cat) continue;
    int seen = 0;
    for (size_t j = 0; j < k && !seen; j++) seen = m[j].cat && !strcmp(m[j].cat, m[k].cat);
    if (seen) continue;
    size_t sites = 0, allocating = 0, hits = 0, falsepos = 0, undecided = 0;
    for (size_t j = k; j < nm; j++) {
      if (!m[j].cat || strcmp(m[j].cat, m[k].cat)) continue;
      int allocated = m[j].count > 0;
      sites++;
      allocating += allocated;
      hits += allocated && m[j].warned;
      falsepos += !allocated && m[j].warned;
      undecided += m[j].undecided && !m[j].warned;
    }
    printf("groundtruth %s: category %s: %zu sites, %zu allocate, %zu reported, %zu missed, %zu false, %zu undecided\n",
           name, m[k].cat, sites, allocating, hits, allocating - hits, falsepos, undecided);
  }
}

/* Warnings on lines that are no site, once per line, by kind. */
typedef struct strays {
  lines lines;
  size_t copies, constructions;
} strays;

static void add_stray(strays *st, int line, const char *rule) {
  for (size_t j = 0; j < st->lines.n; j++)
    if (st->lines.v[j] == line) return;
  size_t n = rule ? strlen(rule) : 0;
  if (n > 5 && !strcmp(rule + n - 5, "-copy"))
    st->copies++;
  else
    st->constructions++;
  lines_add(&st->lines, line);
}

static void credit(measured *hit, const char *rule) {
  if (!hit->rule || (rule && !strcmp(rule, hit->rule)))
    hit->warned = 1;
  else
    hit->wrong_rule = 1;
}

/* The line a note "stored at <file>:<line> as ..." names; 0: another note. */
static int stored_at_line(const char *s) {
  const char *p = strstr(s, ": note: stored at ");
  const char *as = p ? strstr(p, " as ") : NULL;
  if (!as) return 0;
  const char *q = as;
  while (q > p && q[-1] >= '0' && q[-1] <= '9') q--;
  return q < as && q[-1] == ':' ? (int)strtol(q, NULL, 10) : 0;
}

/* Reads heaplint's diagnostics and marks the sites they report. A warning
 * on a line that is no site, with a note "stored at" a site's line, is that
 * site reported where its template was instantiated (heaplint names the
 * store); a sink's store inside its template (store=) takes a remark as
 * the site's "not decided" and a warning there as on the wrong line;
 * other warnings are strays. */
static void read_diagnostics(FILE *hf, measured *m, size_t nm, strays *st) {
  int pending = 0;
  char *pending_rule = NULL;
  for (char *s; (s = read_line(hf)); free(s)) {
    /* An error (no-alloc's, in a zone) counts as a warning does. */
    int line = diagnostic_line(s, "warning");
    if (!line) line = diagnostic_line(s, "error");
    int remark = 0;
    if (!line) remark = line = diagnostic_line(s, "remark");
    int at = pending && !line ? stored_at_line(s) : 0;
    measured akey = {at, 0, NULL, NULL, NULL, -2, 0, 0, 0, 0, 0, 0};
    measured *stored = at ? bsearch(&akey, m, nm, sizeof *m, by_line) : NULL;
    if (stored && !stored->store) {
      credit(stored, pending_rule);
      pending = 0;
    }
    if (!line) continue;
    if (pending) add_stray(st, pending, pending_rule);
    pending = 0;
    free(pending_rule);
    pending_rule = NULL;
    measured key = {line, 0, NULL, NULL, NULL, -2, 0, 0, 0, 0, 0, 0};
    measured *hit = bsearch(&key, m, nm, sizeof *m, by_line);
    if (!hit) {
      for (size_t k = 0; k < nm && !hit; k++)
        if (m[k].store == line) hit = &m[k];
      if (hit) {
        if (remark)
          hit->undecided = 1;
        else
          hit->warned_at_store = 1;
        continue;
      }
    }
    if (hit && remark) {
      hit->undecided = 1;
    } else if (hit) {
      char *rule = diagnostic_rule(s);
      credit(hit, rule);
      free(rule);
    } else if (!remark) {
      pending = line;
      pending_rule = diagnostic_rule(s);
    }
  }
  if (pending) add_stray(st, pending, pending_rule);
  free(pending_rule);
}

static int compare(int argc, char **argv) {
  long min_sites = 100;
  int report_only = 0, i = 0;
  for (;;) {
    if (argc - i >= 2 && !strcmp(argv[i], "--min-sites")) {
      min_sites = strtol(argv[i + 1], NULL, 10);
      i += 2;
    } else if (argc - i >= 1 && !strcmp(argv[i], "--report-only")) {
      report_only = 1;
      i++;
    } else {
      break;
    }
  }
  if (argc - i != 3) {
    fputs("usage: hl-groundtruth compare [--min-sites N] [--report-only] <name> <measured> <heaplint output>\n",
          stderr);
    return 2;
  }
  const char *name = argv[i], *mpath = argv[i + 1], *hpath = argv[i + 2];
  FILE *mf = fopen(mpath, "r"), *hf = fopen(hpath, "r");
  if (!mf || !hf) {
    fprintf(stderr, "hl-groundtruth: cannot open %s\n", !mf ? mpath : hpath);
    if (mf) fclose(mf);
    if (hf) fclose(hf);
    return 2;
  }

  measured *m = NULL;
  size_t nm = 0, capm = 0;
  int bad = 0;
  for (char *s; (s = read_line(mf)); free(s)) {
    measured one;
    if (!parse_measurement(s, &one)) {
      fprintf(stderr, "hl-groundtruth: %s: not a measurement: '%s'\n", mpath, s);
      bad = 1;
      continue;
    }
    if (nm == capm) {
      capm = capm ? capm * 2 : 256;
      m = xrealloc(m, capm * sizeof *m);
    }
    m[nm++] = one;
  }
  fclose(mf);
  qsort(m, nm, sizeof *m, by_line);
  for (size_t k = 1; k < nm; k++)
    if (m[k].line == m[k - 1].line) {
      fprintf(stderr, "hl-groundtruth: %s: line %d was measured twice: the corpus is wrong\n", mpath, m[k].line);
      bad = 1;
    }
  /* The measurement itself is checked first: a recorded count that the
   * library no longer gives means the corpus (or the library) changed. */
  for (size_t k = 0; k < nm; k++) {
    if (m[k].expect == -2 || (m[k].expect >= 0 && (unsigned long)m[k].expect == m[k].count)) continue;
    if (m[k].expect == -1)
      printf("%s: line %d: no allocation count is recorded for the site; it made %lu [%s]\n", name, m[k].line,
             m[k].count, m[k].label);
    else
      printf("%s: line %d: allocated %lu time%s, but %ld is recorded for the site [%s]\n", name, m[k].line, m[k].count,
             m[k].count == 1 ? "" : "s", m[k].expect, m[k].label);
    bad = 1;
  }

  strays st = {{0}, 0, 0};
  read_diagnostics(hf, m, nm, &st);
  fclose(hf);

  size_t allocating = 0, disagreements = 0, undecided = 0;
  for (size_t k = 0; k < nm; k++) {
    int allocated = m[k].count > 0;
    allocating += allocated;
    undecided += m[k].undecided;
    if (allocated && !m[k].warned) {
      printf("%s: line %d: allocated %lu time%s but heaplint is silent%s%s%s [%s]\n", name, m[k].line, m[k].count,
             m[k].count == 1 ? "" : "s", m[k].undecided ? " (it left the site undecided)" : "",
             m[k].wrong_rule ? " (it warned under another rule)" : "",
             m[k].warned_at_store ? " (it warned inside the template instead)" : "", m[k].label);
      disagreements++;
    } else if (!allocated && (m[k].warned || m[k].wrong_rule)) {
      printf("%s: line %d: heaplint warns but nothing allocated%s [%s]\n", name, m[k].line,
             m[k].own ? " (only the site's own allocator did)" : "", m[k].label);
      disagreements++;
    } else if (m[k].wrong_rule) {
      printf("%s: line %d: heaplint warns under another rule than %s [%s]\n", name, m[k].line, m[k].rule, m[k].label);
      disagreements++;
    } else if (m[k].warned_at_store) {
      printf("%s: line %d: heaplint warns at line %d, inside the template, not at the site [%s]\n", name, m[k].line,
             m[k].store, m[k].label);
      disagreements++;
    } else if (m[k].undecided) {
      printf("%s: line %d: note: heaplint left the site undecided; it allocated %lu time%s [%s]\n", name, m[k].line,
             m[k].count, m[k].count == 1 ? "" : "s", m[k].label);
    }
  }
  for (size_t k = 0; k < st.lines.n; k++) {
    printf("%s: line %d: heaplint warns on a line that is not a site\n", name, st.lines.v[k]);
    disagreements++;
  }
  printf("groundtruth %s: %zu sites, %zu allocate, %zu disagreement%s, %zu undecided\n", name, nm, allocating,
         disagreements, disagreements == 1 ? "" : "s", undecided);
  kind_summary(name, "constructions", m, nm, 0, st.constructions);
  kind_summary(name, "copies", m, nm, 1, st.copies);
  category_summary(name, m, nm);
  if ((long)nm < min_sites) {
    printf("groundtruth %s: fewer than %ld sites were measured\n", name, min_sites);
    bad = 1;
  }
  for (size_t k = 0; k < nm; k++) {
    free(m[k].label);
    free(m[k].rule);
    free(m[k].cat);
  }
  free(m);
  free(st.lines.v);
  return bad || (disagreements && !report_only) ? 1 : 0;
}

/* Prints templates_expected.inc from the two libraries' measurements of the
 * templates corpus (the same sites, in the same order). */
static int record(const char *gnu_path, const char *llvm_path) {
  FILE *g = fopen(gnu_path, "r"), *l = fopen(llvm_path, "r");
  if (!g || !l) {
    fprintf(stderr, "hl-groundtruth: cannot open %s\n", !g ? gnu_path : llvm_path);
    if (g) fclose(g);
    if (l) fclose(l);
    return 2;
  }
  int bad = 0;
  for (;;) {
    char *a = read_line(g), *b = read_line(l);
    if (!a || !b) {
      bad |= a || b;
      free(a);
      free(b);
      break;
    }
    measured x, y;
    if (!parse_measurement(a, &x) || !parse_measurement(b, &y) || strcmp(x.label, y.label)) {
      fprintf(stderr, "hl-groundtruth: the measurements differ in their sites: '%s' against '%s'\n", a, b);
      bad = 1;
    } else {
      printf("    {\"%s\", %lu, %lu},\n", x.label, x.count, y.count);
    }
    if (parse_measurement(a, &x)) free(x.label), free(x.rule), free(x.cat);
    if (parse_measurement(b, &y)) free(y.label), free(y.rule), free(y.cat);
    free(a);
    free(b);
  }
  fclose(g);
  fclose(l);
  if (bad) fputs("hl-groundtruth: the two measurements do not list the same sites\n", stderr);
  return bad ? 2 : 0;
}

int main(int argc, char **argv) {
  if (argc == 3 && !strcmp(argv[1], "generate")) return generate(argv[2]);
  if (argc >= 2 && !strcmp(argv[1], "compare")) return compare(argc - 2, argv + 2);
  if (argc == 4 && !strcmp(argv[1], "record")) return record(argv[2], argv[3]);
  fputs(
      "usage: hl-groundtruth generate "
      "libstdc++|libc++|move_only_function|templates-libstdc++|templates-libc++|" ALLOC_CORPORA_BAR
      "\n"
      "       hl-groundtruth compare [--min-sites N] [--report-only] <name> <measured> <heaplint output>\n"
      "       hl-groundtruth record <measured templates-libstdc++> <measured templates-libc++>\n",
      stderr);
  return 2;
}
