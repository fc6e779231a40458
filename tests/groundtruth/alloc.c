/* The corpora of the rules that are not about a wrapper's buffer, each a
 * C++ program whose sites print "<line> <count> rule=<rule> cat=<category>
 * <label>" (compare reads them as groundtruth.c's):
 *
 *   string-sso  std::basic_string built from sources of compile-time
 *               length, around each library's small-string capacity, for
 *               every character type and in every context (C++20, for
 *               char8_t): the count is the heap calls of the statement;
 *   make-shared std::shared_ptr made (or reset) from new expressions, in
 *               every context, and from what else makes one (C++17): the
 *               count is the heap calls beyond make_shared's one;
 *   no-alloc    statements in no-allocation zones (every marker, every
 *               construct, calls through other functions; C++20): the count
 *               is the heap calls of the zone;
 *   shared-state promises, packaged tasks, std::async and threads made in
 *               the body of a loop, and what makes no shared state (C++17):
 *               the count is the heap calls of the iteration.
 *
 * A heap call is a call of the global operator new (any overload) or of
 * malloc (and calloc, realloc, aligned_alloc...): count_new.hpp with
 * HL_COUNT_MALLOC, as the issue asks (libstdc++ allocates a thrown exception
 * with malloc, not operator new). What a site's own allocator makes
 * (malloc_alloc, a class's operator new: the user's choice, as a pool would
 * be) is printed apart as own=N and left out of the count; those sites are
 * in the category own-allocator. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen.h"

#define COUNT(a) (sizeof(a) / sizeof *(a))

/* The end of every measured window. */
#define END "  hl_gt::end($LINE, \"$LABEL\", \"$RULE\", \"$CAT\");\n"

/* ---- string-sso ---- */

static const char string_prelude[] =
    "#define HL_COUNT_MALLOC\n"
    "#include <count_new.hpp>\n"
    "\n"
    "#include <cstdio>\n"
    "#include <string>\n"
    "#include <string_view>\n"
    "\n"
    "using namespace std::literals;\n"
    "\n"
    "namespace hl_gt {\n"
    "unsigned long start;\n"
    "void begin() { start = hl_count::heap_calls(); }\n"
    "void end(int line, const char *label, const char *rule, const char *cat) {\n"
    "  std::printf(\"%d %lu rule=%s cat=%s %s\\n\", line, hl_count::heap_calls() - start, rule, cat, label);\n"
    "}\n"
    "template <class T> void use(const T &) {}\n"
    "void take(const std::string &) {}\n"
    "void take(const std::wstring &) {}\n"
    "void take(const std::u8string &) {}\n"
    "void take(const std::u16string &) {}\n"
    "void take(const std::u32string &) {}\n"
    "// An empty lvalue: a piece of unknown length, 0 characters at run time.\n"
    "std::string empty;\n"
    "} // namespace hl_gt\n"
    "\n"
    "#define HLGT_LITERAL_30 \"012345678901234567890123456789\"\n"
    "\n";

/* Where the string is built ($W its type, $EXPR the source). */
static const char s_copy_init[] =
    "void site_$N() {\n"
    "  hl_gt::begin();\n"
    "@  $W s = $EXPR;\n" END
    "  hl_gt::use(s);\n"
    "}\n";
static const char s_direct_init[] =
    "void site_$N() {\n"
    "  hl_gt::begin();\n"
    "@  $W s($EXPR);\n" END
    "  hl_gt::use(s);\n"
    "}\n";
static const char s_brace_init[] =
    "void site_$N() {\n"
    "  hl_gt::begin();\n"
    "@  $W s{$EXPR};\n" END
    "  hl_gt::use(s);\n"
    "}\n";
static const char s_argument[] =
    "void site_$N() {\n"
    "  hl_gt::begin();\n"
    "@  hl_gt::take($EXPR);\n" END "}\n";
static const char s_cast[] =
    "void site_$N() {\n"
    "  hl_gt::begin();\n"
    "@  auto n = $W($EXPR).size();\n" END
    "  hl_gt::use(n);\n"
    "}\n";
static const char s_returned[] =
    "static $W make_$N() {\n"
    "@  return $EXPR;\n"
    "}\n"
    "void site_$N() {\n"
    "  hl_gt::begin();\n"
    "  $W s = make_$N();\n" END
    "  hl_gt::use(s);\n"
    "}\n";
static const char s_member_default[] =
    "struct holder_$N {\n"
    "@  $W s = $EXPR;\n"
    "};\n"
    "void site_$N() {\n"
    "  hl_gt::begin();\n"
    "  holder_$N h;\n" END
    "  hl_gt::use(h);\n"
    "}\n";
static const char s_member_init[] =
    "struct holder_$N {\n"
    "  $W s;\n"
    "  holder_$N()\n"
    "@      : s($EXPR) {}\n"
    "};\n"
    "void site_$N() {\n"
    "  hl_gt::begin();\n"
    "  holder_$N h;\n" END
    "  hl_gt::use(h);\n"
    "}\n";
static const char s_in_loop[] =
    "void site_$N() {\n"
    "  hl_gt::begin();\n"
    "  for (int i = 0; i < 1; i++) {\n"
    "@    $W s = $EXPR;\n"
    "    hl_gt::use(s);\n"
    "  }\n" END "}\n";
static const char s_assign[] =
    "void site_$N() {\n"
    "  $W s;\n"
    "  hl_gt::begin();\n"
    "@  s = $EXPR;\n" END
    "  hl_gt::use(s);\n"
    "}\n";
static const char s_assign_member[] =
    "void site_$N() {\n"
    "  $W s;\n"
    "  hl_gt::begin();\n"
    "@  s.assign($EXPR);\n" END
    "  hl_gt::use(s);\n"
    "}\n";
static const char s_setup_copy_init[] =
    "void site_$N() {\n"
    "  $SETUP\n"
    "  hl_gt::begin();\n"
    "@  $W s = $EXPR;\n" END
    "  hl_gt::use(s);\n"
    "}\n";
static const char s_setup_direct_init[] =
    "void site_$N() {\n"
    "  $SETUP\n"
    "  hl_gt::begin();\n"
    "@  $W s($EXPR);\n" END
    "  hl_gt::use(s);\n"
    "}\n";

typedef struct place {
  const char *name, *tmpl;
} place;

static const place string_places[] = {
    {"copy-init", s_copy_init},
    {"direct-init", s_direct_init},
    {"brace-init", s_brace_init},
    {"argument", s_argument},
    {"functional cast", s_cast},
    {"returned", s_returned},
    {"member default", s_member_default},
    {"member init", s_member_init},
    {"in a loop", s_in_loop},
    {"assigned", s_assign},
    {"assign()", s_assign_member},
};

typedef struct char_kind {
  const char *type, *prefix, *cat;
  int lengths[6]; /* around both libraries' capacities; 0 ends */
} char_kind;

static const char_kind char_kinds[] = {
    {"std::string", "", "char", {15, 16, 22, 23, 0}},        {"std::wstring", "L", "wchar_t", {3, 4, 5, 0}},
    {"std::u8string", "u8", "char8_t", {15, 16, 22, 23, 0}}, {"std::u16string", "u", "char16_t", {7, 8, 10, 11, 0}},
    {"std::u32string", "U", "char32_t", {3, 4, 5, 0}},
};

/* "0123456789012..." of n characters, as a literal with prefix. */
static char *literal(const char *prefix, int n) {
  buf b = {0};
  buf_printf(&b, "%s\"", prefix);
  for (int i = 0; i < n; i++) buf_putn(&b, &"0123456789"[i % 10], 1);
  buf_puts(&b, "\"");
  return b.s;
}

static void typed_site(gen *g, const char *tmpl, const char *type, const char *label, const char *setup,
                       const char *expr) {
  store st = {label, NULL, setup, expr, NULL, NULL, NULL};
  site(g, tmpl, type, &st);
}

/* Every context, with literals around the capacities; every character
 * type in copy-init and as an argument. */
static void string_literal_sites(gen *g) {
  for (size_t k = 0; k < COUNT(char_kinds); k++) {
    const char_kind *c = &char_kinds[k];
    g->cat = c->cat;
    for (size_t p = 0; p < COUNT(string_places); p++) {
      if (k > 0 && p > 3) break;
      for (int i = 0; c->lengths[i]; i++) {
        char *lit = literal(c->prefix, c->lengths[i]);
        char label[128];
        snprintf(label, sizeof label, "%s, %s literal of %d", string_places[p].name, c->type, c->lengths[i]);
        typed_site(g, string_places[p].tmpl, c->type, label, NULL, lit);
        free(lit);
      }
    }
  }
}

/* The other sources of a known length, in copy-init (or direct-init). */
typedef struct source {
  const char *label, *setup, *expr;
  int direct;
} source;

static const source string_sources[] = {
    {"fill of 15", NULL, "std::string(15, 'x')", 0},
    {"fill of 16", NULL, "std::string(16, 'x')", 0},
    {"fill of 22", NULL, "std::string(22, 'x')", 0},
    {"fill of 23", NULL, "std::string(23, 'x')", 0},
    {"fill of a constexpr count of 30", "constexpr int n = 30;", "n, 'y'", 1},
    {"pointer and count of 16", NULL, "HLGT_LITERAL_30, 16", 1},
    {"pointer and count of 23", NULL, "HLGT_LITERAL_30, 23", 1},
    {"pointer and count of 15, a NUL inside", NULL, "\"0123456\\0abcdefghijklmnop\", 15", 1},
    {"literal with a NUL after 7", NULL, "\"0123456\\0abcdefghijklmnopqrstuvwxyz\"", 0},
    {"raw literal of 16", NULL, "R\"(0123456789012345)\"", 0},
    {"raw literal of 23", NULL, "R\"(01234567890123456789012)\"", 0},
    {"macro literal of 30", NULL, "HLGT_LITERAL_30", 0},
    {"literal of 30 in two pieces", NULL, "\"012345678901234\" \"567890123456789\"", 0},
    {"s-suffixed literal of 15", NULL, "\"012345678901234\"s", 0},
    {"s-suffixed literal of 16", NULL, "\"0123456789012345\"s", 0},
    {"s-suffixed literal of 23", NULL, "\"01234567890123456789012\"s", 0},
    {"constexpr string_view of 15", "constexpr std::string_view v = \"012345678901234\";", "v", 1},
    {"constexpr string_view of 16", "constexpr std::string_view v = \"0123456789012345\";", "v", 1},
    {"constexpr string_view of 23", "constexpr std::string_view v = \"01234567890123456789012\";", "v", 1},
    {"const sv-suffixed string_view of 16", "const std::string_view v = \"0123456789012345\"sv;", "v", 1},
    {"string_view of a literal and a count of 20", "constexpr std::string_view v(HLGT_LITERAL_30, 20);", "v", 1},
    {"concatenation of 3 and 12", NULL, "std::string(\"abc\") + \"012345678901\"", 0},
    {"concatenation of 3 and 13", NULL, "std::string(\"abc\") + \"0123456789012\"", 0},
    {"concatenation of 3 and 20", NULL, "std::string(\"abc\") + \"01234567890123456789\"", 0},
    {"concatenation of a literal and a string", NULL, "\"0123456789\" + std::string(\"0123456789\")", 0},
    {"concatenation of three pieces, 16", NULL, "std::string(\"0123456789\") + \"01234\" + \"x\"", 0},
    {"concatenation of three pieces, 23", NULL, "std::string(\"0123456789\") + \"0123456789\" + \"xyz\"", 0},
    {"concatenation with a char, 16", NULL, "std::string(\"012345678901234\") + 'c'", 0},
    {"concatenation with a char, 23", NULL, "std::string(\"0123456789012345678901\") + 'c'", 0},
    {"concatenation of a fill and a literal", NULL, "std::string(20, 'x') + \"abc\"", 0},
    {"concatenation of an empty string and 16", NULL, "hl_gt::empty + \"0123456789012345\"", 0},
    {"concatenation of an empty string and 23", NULL, "hl_gt::empty + \"01234567890123456789012\"", 0},
    {"short literal", NULL, "\"abc\"", 0},
    {"empty literal", NULL, "\"\"", 0},
};

static void string_source_sites(gen *g) {
  g->cat = "source";
  for (size_t i = 0; i < COUNT(string_sources); i++) {
    const source *s = &string_sources[i];
    const char *tmpl = s->direct ? s_setup_direct_init : s_setup_copy_init;
    typed_site(g, tmpl, "std::string", s->label, s->setup ? s->setup : "", s->expr);
  }
}

static void corpus_string_sso(gen *g) {
  put(g, "// The string-sso corpus (C++20).\n");
  put(g, string_prelude);
  g->rule = "string-sso";
  string_literal_sites(g);
  string_source_sites(g);
}

/* ---- make-shared ---- */

/* A site prints the heap calls beyond the one block std::make_shared
 * needs for an object and its control block: new + the control block is
 * one too many; make_shared, a shared_ptr adopting an object made before
 * the window, or std::allocate_shared over malloc are none. The calls of
 * the site's own allocator (allocate_shared's malloc_alloc, a class's
 * operator new) are printed apart (own=N) and are not in the count. */
static const char shared_prelude[] =
    "#define HL_COUNT_MALLOC\n"
    "#include <count_new.hpp>\n"
    "\n"
    "#include <cstdio>\n"
    "#include <cstdlib>\n"
    "#include <memory>\n"
    "#include <new>\n"
    "\n"
    "namespace hl_gt {\n" MALLOC_ALLOC_CPP
    "unsigned long start, own_start;\n"
    "void begin() {\n"
    "  own_start = own_calls;\n"
    "  start = hl_count::heap_calls();\n"
    "}\n"
    "void end(int line, const char *label, const char *rule, const char *cat) {\n"
    "  unsigned long own = own_calls - own_start, n = hl_count::heap_calls() - start - own;\n"
    "  std::printf(\"%d %lu rule=%s cat=%s own=%lu %s\\n\", line, n > 1 ? n - 1 : 0, rule, cat, own, label);\n"
    "}\n"
    "template <class T> void use(const T &) {}\n"
    "struct W {\n"
    "  long a = 0, b = 0;\n"
    "  W() = default;\n"
    "  explicit W(long x) : a(x) {}\n"
    "  W(long x, const char *) : a(x) {}\n"
    "  virtual ~W() = default;\n"
    "};\n"
    "struct D : W {\n"
    "  using W::W;\n"
    "};\n"
    "struct Agg {\n"
    "  int x, y;\n"
    "};\n"
    "class Hidden {\n"
    "  Hidden() = default;\n"
    "public:\n"
    "  static std::shared_ptr<Hidden> make();\n"
    "};\n"
    "struct Own {\n"
    "  static void *operator new(std::size_t n) {\n"
    "    own_calls++;\n"
    "    return std::malloc(n);\n"
    "  }\n"
    "  static void operator delete(void *p) { std::free(p); }\n"
    "};\n"
    "void take(std::shared_ptr<W>) {}\n"
    "void drop(W *w) { delete w; }\n"
    "} // namespace hl_gt\n"
    "\n";

/* $EXPR is the new expression (or what replaces it), $W the pointer type. */
static const char m_direct[] =
    "void site_$N() {\n"
    "  $SETUP\n"
    "  hl_gt::begin();\n"
    "@  $W p($EXPR);\n" END
    "  hl_gt::use(p);\n"
    "}\n";
static const char m_brace[] =
    "void site_$N() {\n"
    "  hl_gt::begin();\n"
    "@  $W p{$EXPR};\n" END
    "  hl_gt::use(p);\n"
    "}\n";
static const char m_cast[] =
    "void site_$N() {\n"
    "  hl_gt::begin();\n"
    "@  auto p = $W($EXPR);\n" END
    "  hl_gt::use(p);\n"
    "}\n";
static const char m_argument[] =
    "void site_$N() {\n"
    "  hl_gt::begin();\n"
    "@  hl_gt::take($W($EXPR));\n" END "}\n";
static const char m_reset[] =
    "void site_$N() {\n"
    "  $W p;\n"
    "  hl_gt::begin();\n"
    "@  p.reset($EXPR);\n" END
    "  hl_gt::use(p);\n"
    "}\n";
static const char m_assign[] =
    "void site_$N() {\n"
    "  $W p;\n"
    "  hl_gt::begin();\n"
    "@  p = $W($EXPR);\n" END
    "  hl_gt::use(p);\n"
    "}\n";
static const char m_returned[] =
    "static $W make_$N() {\n"
    "@  return $W($EXPR);\n"
    "}\n"
    "void site_$N() {\n"
    "  hl_gt::begin();\n"
    "  auto p = make_$N();\n" END
    "  hl_gt::use(p);\n"
    "}\n";
static const char m_member[] =
    "struct holder_$N {\n"
    "  $W p;\n"
    "  holder_$N()\n"
    "@      : p($EXPR) {}\n"
    "};\n"
    "void site_$N() {\n"
    "  hl_gt::begin();\n"
    "  holder_$N h;\n" END
    "  hl_gt::use(h);\n"
    "}\n";
static const char m_loop[] =
    "void site_$N() {\n"
    "  hl_gt::begin();\n"
    "  for (int i = 0; i < 1; i++) {\n"
    "@    $W p($EXPR);\n"
    "    hl_gt::use(p);\n"
    "  }\n" END "}\n";

static const place shared_places[] = {
    {"direct-init", m_direct}, {"brace-init", m_brace},   {"functional cast", m_cast},
    {"argument", m_argument},  {"reset", m_reset},        {"assigned", m_assign},
    {"returned", m_returned},  {"member init", m_member}, {"in a loop", m_loop},
};

static const source shared_sources[] = {
    {"new W(1)", NULL, "new hl_gt::W(1)", 0},
    {"new W()", NULL, "new hl_gt::W()", 0},
    {"new W", NULL, "new hl_gt::W", 0},
};

typedef struct shared_site {
  const char *label, *type, *setup, *expr;
  const char *cat; /* NULL: source */
} shared_site;

/* Direct-init only: what else a shared_ptr is made from. */
static const shared_site shared_others[] = {
    {"new of two arguments", "std::shared_ptr<hl_gt::W>", NULL, "new hl_gt::W(2, \"two\")", NULL},
    {"new D into a shared_ptr to the base", "std::shared_ptr<hl_gt::W>", NULL, "new hl_gt::D(3)", NULL},
    {"new int", "std::shared_ptr<int>", NULL, "new int(4)", NULL},
    {"new const W", "std::shared_ptr<const hl_gt::W>", NULL, "new hl_gt::W(5)", NULL},
    {"new aggregate with braces", "std::shared_ptr<hl_gt::Agg>", NULL, "new hl_gt::Agg{1, 2}", NULL},
    {"new W with braces", "std::shared_ptr<hl_gt::W>", NULL, "new hl_gt::W{6}", NULL},
    {"new with a class operator new", "std::shared_ptr<hl_gt::Own>", NULL, "new hl_gt::Own", "own-allocator"},
    {"new with a deleter function", "std::shared_ptr<hl_gt::W>", NULL, "new hl_gt::W(7), hl_gt::drop", NULL},
    {"new with a deleter lambda", "std::shared_ptr<hl_gt::W>", NULL, "new hl_gt::W(8), [](hl_gt::W *w) { delete w; }",
     NULL},
    {"new array with default_delete", "std::shared_ptr<hl_gt::W>", NULL,
     "new hl_gt::W[2], std::default_delete<hl_gt::W[]>()", NULL},
    {"new array into shared_ptr of an array", "std::shared_ptr<hl_gt::W[]>", NULL, "new hl_gt::W[2]", NULL},
    {"make_shared", "std::shared_ptr<hl_gt::W>", NULL, "std::make_shared<hl_gt::W>(9)", NULL},
    {"allocate_shared over malloc", "std::shared_ptr<hl_gt::W>", NULL,
     "std::allocate_shared<hl_gt::W>(hl_gt::malloc_alloc<hl_gt::W>(), 10)", "own-allocator"},
    {"a unique_ptr moved in", "std::shared_ptr<hl_gt::W>", "auto u = std::make_unique<hl_gt::W>(11);", "std::move(u)",
     NULL},
    {"a pointer made before", "std::shared_ptr<hl_gt::W>", "auto *raw = new hl_gt::W(12);", "raw", NULL},
    {"nullptr", "std::shared_ptr<hl_gt::W>", NULL, "nullptr", NULL},
    {"a copy", "std::shared_ptr<hl_gt::W>", "auto other = std::make_shared<hl_gt::W>(13);", "other", NULL},
};

/* A private constructor, reached from a member function: no make_shared. */
static const char m_private[] =
    "std::shared_ptr<hl_gt::Hidden> hl_gt::Hidden::make() {\n"
    "@  return std::shared_ptr<Hidden>(new Hidden);\n"
    "}\n"
    "void site_$N() {\n"
    "  hl_gt::begin();\n"
    "  auto p = hl_gt::Hidden::make();\n" END
    "  hl_gt::use(p);\n"
    "}\n";

static void corpus_make_shared(gen *g) {
  put(g, "// The make-shared corpus (C++17).\n");
  put(g, shared_prelude);
  g->rule = "make-shared";
  g->cat = "context";
  for (size_t p = 0; p < COUNT(shared_places); p++)
    for (size_t i = 0; i < COUNT(shared_sources); i++) {
      char label[128];
      snprintf(label, sizeof label, "%s, %s", shared_places[p].name, shared_sources[i].label);
      typed_site(g, shared_places[p].tmpl, "std::shared_ptr<hl_gt::W>", label, NULL, shared_sources[i].expr);
    }
  for (size_t i = 0; i < COUNT(shared_others); i++) {
    const shared_site *s = &shared_others[i];
    g->cat = s->cat ? s->cat : "source";
    typed_site(g, m_direct, s->type, s->label, s->setup ? s->setup : "", s->expr);
  }
  g->cat = "source";
  typed_site(g, m_private, "", "new of a private constructor in a member", NULL, "");
}

/* ---- no-alloc ---- */

/* Every site is a statement in a zone, measured around the zone's call
 * with both counters: operator new and malloc (libstdc++ and libc++abi
 * allocate a thrown exception with malloc). */
static const char zone_prelude[] =
    "#define HL_COUNT_MALLOC\n"
    "#include <count_new.hpp>\n"
    "\n"
    "#include <any>\n"
    "#include <coroutine>\n"
    "#include <cstdio>\n"
    "#include <cstdlib>\n"
    "#include <deque>\n"
    "#include <functional>\n"
    "#include <future>\n"
    "#include <list>\n"
    "#include <map>\n"
    "#include <memory>\n"
    "#include <new>\n"
    "#include <string>\n"
    "#include <unordered_map>\n"
    "#include <vector>\n"
    "\n"
    "#include <heaplint/noalloc.h>\n"
    "\n"
    "namespace hl_gt {\n"
    "unsigned long start;\n"
    "void begin() { start = hl_count::heap_calls(); }\n"
    "void end(int line, const char *label, const char *rule, const char *cat) {\n"
    "  unsigned long n = hl_count::heap_calls() - start;\n"
    "  std::printf(\"%d %lu rule=%s cat=%s %s\\n\", line, n, rule, cat, label);\n"
    "}\n"
    "template <class T> void use(const T &) {}\n"
    "struct W {\n"
    "  long a = 0, b = 0;\n"
    "};\n"
    "struct task {\n"
    "  struct promise_type {\n"
    "    task get_return_object() { return {}; }\n"
    "    std::suspend_never initial_suspend() { return {}; }\n"
    "    std::suspend_never final_suspend() noexcept { return {}; }\n"
    "    void return_void() {}\n"
    "    void unhandled_exception() {}\n"
    "  };\n"
    "};\n"
    "task coroutine(int x) {\n"
    "  use(x);\n"
    "  co_return;\n"
    "}\n"
    "W *make_w() { return new W; }\n"
    "W *make_w_twice() { return make_w(); }\n"
    "int plain(int x) { return x + 1; }\n"
    "int plain_twice(int x) { return plain(x) + 1; }\n"
    "std::string long_name() { return \"0123456789012345678901234567890\"; }\n"
    "int countdown(int n) { return n > 0 ? countdown(n - 1) : plain(n); }\n"
    "std::function<void()> handler;\n"
    "void arm(long a, long b, long c) { handler = [a, b, c] { use(a + b + c); }; }\n"
    "} // namespace hl_gt\n"
    "\n";

/* $W the zone's marker, $SELF its parameters, $SETUP what the caller
 * prepares, $ARGS what it passes; $EXPR the statement measured. */
static const char z_statement[] =
    "$W void zone_$N($SELF) {\n"
    "@  $EXPR;\n"
    "}\n"
    "void site_$N() {\n"
    "  $SETUP\n"
    "  hl_gt::begin();\n"
    "  zone_$N($ARGS);\n" END "}\n";
/* The marker after the declarator (clang's attributes go there). */
static const char z_trailing[] =
    "void zone_$N($SELF) $W {\n"
    "@  $EXPR;\n"
    "}\n"
    "void site_$N() {\n"
    "  $SETUP\n"
    "  hl_gt::begin();\n"
    "  zone_$N($ARGS);\n" END "}\n";
/* A lambda as the zone. */
static const char z_lambda[] =
    "void site_$N() {\n"
    "  auto zone = []() $W {\n"
    "@    $EXPR;\n"
    "  };\n"
    "  hl_gt::begin();\n"
    "  zone();\n" END "}\n";
/* A rethrow in a zone that runs inside a handler: the exception exists. */
static const char z_rethrow[] =
    "$W void zone_$N() {\n"
    "@  try { throw; } catch (...) {}\n"
    "}\n"
    "void site_$N() {\n"
    "  try {\n"
    "    throw 1;\n"
    "  } catch (...) {\n"
    "    hl_gt::begin();\n"
    "    zone_$N();\n"
    "  " END
    "  }\n"
    "}\n";
/* Matched by the config's no-alloc-functions: ["hl_zone::*"]. */
static const char z_glob[] =
    "namespace hl_zone {\n"
    "void zone_$N($SELF) {\n"
    "@  $EXPR;\n"
    "}\n"
    "} // namespace hl_zone\n"
    "void site_$N() {\n"
    "  $SETUP\n"
    "  hl_gt::begin();\n"
    "  hl_zone::zone_$N($ARGS);\n" END "}\n";

typedef struct zone_site {
  const char *label, *params, *setup, *expr, *args;
} zone_site;

static const zone_site zone_sites[] = {
    {"new", "", "", "hl_gt::use(new hl_gt::W)", ""},
    {"new of an array", "", "", "hl_gt::use(new hl_gt::W[3])", ""},
    {"nothrow new", "", "", "hl_gt::use(new (std::nothrow) hl_gt::W)", ""},
    {"placement new", "void *buf", "alignas(hl_gt::W) char buf[sizeof(hl_gt::W)];", "hl_gt::use(new (buf) hl_gt::W)",
     "buf"},
    {"throw", "", "", "try { throw 1; } catch (int) {}", ""},
    {"malloc", "", "", "std::free(std::malloc(16))", ""},
    {"make_unique", "", "", "hl_gt::use(std::make_unique<hl_gt::W>())", ""},
    {"make_shared", "", "", "hl_gt::use(std::make_shared<hl_gt::W>())", ""},
    {"shared_ptr from new", "", "", "std::shared_ptr<hl_gt::W> p(new hl_gt::W)", ""},
    {"vector push_back", "std::vector<int> &v", "std::vector<int> v;", "v.push_back(1)", "v"},
    {"vector emplace_back", "std::vector<int> &v", "std::vector<int> v;", "v.emplace_back(1)", "v"},
    {"vector resize", "std::vector<int> &v", "std::vector<int> v;", "v.resize(8)", "v"},
    {"string append", "std::string &s", "std::string s;", "s.append(40, 'x')", "s"},
    {"string +=", "std::string &s", "std::string s;", "s += \"0123456789012345678901234567890\"", "s"},
    {"list push_back", "std::list<int> &l", "std::list<int> l;", "l.push_back(1)", "l"},
    {"map operator[]", "std::map<int, int> &m", "std::map<int, int> m;", "m[1] = 2", "m"},
    {"map emplace", "std::map<int, int> &m", "std::map<int, int> m;", "m.emplace(1, 2)", "m"},
    {"unordered_map insert", "std::unordered_map<int, int> &m", "std::unordered_map<int, int> m;", "m.insert({1, 2})",
     "m"},
    {"string from a long literal", "", "", "std::string s = \"0123456789012345678901234567890\"", ""},
    {"function with a big lambda", "long a, long b, long c", "long a = 1, b = 2, c = 3;",
     "std::function<void()> f = [a, b, c] { hl_gt::use(a + b + c); }", "a, b, c"},
    {"any with a big value", "", "", "std::any x = hl_gt::W{}", ""},
    {"promise", "", "", "std::promise<int> p", ""},
    {"async deferred", "", "", "std::async(std::launch::deferred, hl_gt::plain, 1).get()", ""},
    {"call of a function that news", "", "", "hl_gt::use(hl_gt::make_w())", ""},
    {"call two levels down", "", "", "hl_gt::use(hl_gt::make_w_twice())", ""},
    {"call of a function that builds a long string", "", "", "hl_gt::use(hl_gt::long_name())", ""},
    {"call of a function storing a big lambda", "", "", "hl_gt::arm(1, 2, 3)", ""},
    {"call of a coroutine", "", "", "hl_gt::coroutine(1)", ""},
    {"call of a function that does not allocate", "", "", "hl_gt::use(hl_gt::plain_twice(1))", ""},
    {"recursive call that does not allocate", "", "", "hl_gt::use(hl_gt::countdown(3))", ""},
    {"arithmetic", "int x", "int x = 3;", "hl_gt::use(x * 2 + 1)", "x"},
    {"vector read", "const std::vector<int> &v", "std::vector<int> v(4);", "hl_gt::use(v[2] + v.size())", "v"},
    {"string copy into a short string", "std::string &s", "std::string s;", "s = \"short\"", "s"},
    {"map find", "const std::map<int, int> &m", "std::map<int, int> m{{1, 2}};", "hl_gt::use(m.find(1))", "m"},
};

static void zone_site_at(gen *g, const char *tmpl, const char *marker, const zone_site *z, const char *how) {
  char label[160];
  snprintf(label, sizeof label, "%s, %s", z->label, how);
  store st = {label, NULL, z->setup, z->expr, z->params, "", z->args};
  site(g, tmpl, marker, &st);
}

static void corpus_no_alloc(gen *g) {
  put(g, "// The no-alloc corpus (C++20).\n");
  put(g, zone_prelude);
  g->rule = "no-alloc";
  g->cat = "HEAPLINT_NO_ALLOC";
  for (size_t i = 0; i < COUNT(zone_sites); i++)
    zone_site_at(g, z_statement, "HEAPLINT_NO_ALLOC", &zone_sites[i], "marked HEAPLINT_NO_ALLOC");
  static const zone_site lambda_sites[] = {
      {"new", "", "", "hl_gt::use(new hl_gt::W)", ""},
      {"call of a function that news", "", "", "hl_gt::use(hl_gt::make_w())", ""},
      {"arithmetic", "", "", "hl_gt::use(1 + 2)", ""},
  };
  g->cat = "lambda";
  for (size_t i = 0; i < COUNT(lambda_sites); i++)
    zone_site_at(g, z_lambda, "HEAPLINT_NO_ALLOC", &lambda_sites[i], "a lambda marked HEAPLINT_NO_ALLOC");
  /* g++ does not know clang's attribute and ignores it (-w): the zone is
   * heaplint's all the same. */
  g->cat = "nonblocking";
  for (size_t i = 0; i < 3; i++)
    zone_site_at(g, z_trailing, "[[clang::nonblocking]]", &zone_sites[i], "marked [[clang::nonblocking]]");
  for (size_t i = 0; i < 3; i++)
    zone_site_at(g, z_trailing, "[[clang::nonallocating]]", &zone_sites[i], "marked [[clang::nonallocating]]");
  g->cat = "glob";
  zone_site_at(g, z_glob, "", &zone_sites[0], "listed in no-alloc-functions");
  zone_site_at(g, z_glob, "", &zone_sites[COUNT(zone_sites) - 4], "listed in no-alloc-functions");
  g->cat = "rethrow";
  static const zone_site rethrow = {"rethrow in a handler", "", "", "", ""};
  zone_site_at(g, z_rethrow, "HEAPLINT_NO_ALLOC", &rethrow, "marked HEAPLINT_NO_ALLOC");
}

/* ---- shared-state ---- */

/* Each site runs once in the body of a loop; the count is the heap calls
 * (operator new and malloc) of that iteration; the calls of the site's own
 * allocator (malloc_alloc) are printed apart (own=N), not counted. The
 * operator new calls alone (new=N) are what the profiles state (what
 * calibrate measures), which the tests compare: glibc may add a malloc to
 * a thread's start (the TLS of a new stack, when none is free in its cache:
 * libc++'s std::async detaches its thread, which may still be ending when
 * the next site starts a thread), which changes no verdict. */
static const char shared_state_prelude[] =
    "#define HL_COUNT_MALLOC\n"
    "#include <count_new.hpp>\n"
    "\n"
    "#include <cstdio>\n"
    "#include <cstdlib>\n"
    "#include <future>\n"
    "#include <memory>\n"
    "#include <new>\n"
    "#include <thread>\n"
    "\n"
    "namespace hl_gt {\n" MALLOC_ALLOC_CPP
    "unsigned long start, own_start, new_start;\n"
    "void begin() {\n"
    "  own_start = own_calls;\n"
    "  new_start = hl_count::allocations();\n"
    "  start = hl_count::heap_calls();\n"
    "}\n"
    "void end(int line, const char *label, const char *rule, const char *cat) {\n"
    "  unsigned long own = own_calls - own_start, news = hl_count::allocations() - new_start;\n"
    "  std::printf(\"%d %lu rule=%s cat=%s own=%lu new=%lu %s\\n\", line, hl_count::heap_calls() - start - own, rule,\n"
    "              cat, own, news, label);\n"
    "}\n"
    "template <class T> void use(const T &) {}\n"
    "int work(int x) { return x; }\n"
    "struct Big {\n"
    "  char b[64] = {};\n"
    "  int operator()() const { return b[0]; }\n"
    "};\n"
    "} // namespace hl_gt\n"
    "\n";

static const char ss_loop[] =
    "void site_$N() {\n"
    "  $SETUP\n"
    "  hl_gt::begin();\n"
    "  for (int i = 0; i < 1; i++) {\n"
    "@    $EXPR;\n"
    "  }\n" END "}\n";

typedef struct shared_case {
  const char *label, *cat, *setup, *expr;
} shared_case;

static const shared_case shared_cases[] = {
    {"promise of int", "std::promise", "", "std::promise<int> p; hl_gt::use(p)"},
    {"promise of void", "std::promise", "", "std::promise<void> p; hl_gt::use(p)"},
    {"packaged_task of a function", "std::packaged_task", "",
     "std::packaged_task<int(int)> t(hl_gt::work); hl_gt::use(t)"},
    {"packaged_task of a lambda", "std::packaged_task", "",
     "std::packaged_task<int()> t([] { return 1; }); hl_gt::use(t)"},
    {"async with launch::async", "std::async", "", "std::async(std::launch::async, hl_gt::work, i).get()"},
    {"async with the default policy", "std::async", "", "std::async(hl_gt::work, i).get()"},
    {"async with launch::deferred", "std::async-deferred", "",
     "std::async(std::launch::deferred, hl_gt::work, i).get()"},
    {"thread of a function", "std::thread", "", "std::thread t(hl_gt::work, i); t.join()"},
    {"thread of a lambda", "std::thread", "", "std::thread t([] {}); t.join()"},
    {"thread of a big functor", "std::thread", "", "std::thread t(hl_gt::Big{}); t.join()"},
    /* Silent: no shared state made in the loop. */
    {"future share", "none", "std::promise<int> p; auto f = p.get_future();", "hl_gt::use(f.share())"},
    {"shared_future copy", "none", "std::promise<int> p; auto s = p.get_future().share();",
     "auto c = s; hl_gt::use(c)"},
    {"promise with a malloc allocator", "own-allocator", "",
     "std::promise<int> p(std::allocator_arg, hl_gt::malloc_alloc<int>()); hl_gt::use(p)"},
    {"promise moved", "none", "std::promise<int> q;", "std::promise<int> p(std::move(q)); hl_gt::use(p)"},
    {"default packaged_task", "none", "", "std::packaged_task<int()> t; hl_gt::use(t)"},
    {"default thread", "none", "", "std::thread t; hl_gt::use(t)"},
    {"thread moved", "none", "std::thread th([] {});", "std::thread t(std::move(th)); t.join()"},
    {"set_value and get", "none", "std::promise<int> p; auto f = p.get_future();",
     "p.set_value(1); hl_gt::use(f.get())"},
};

static void corpus_shared_state(gen *g) {
  put(g, "// The shared-state corpus (C++17).\n");
  put(g, shared_state_prelude);
  g->rule = "shared-state";
  /* A first thread, before any site: its one-time setup is not a site's. */
  put(g, "static int warm = (std::thread([] {}).join(), 0);\n");
  for (size_t i = 0; i < COUNT(shared_cases); i++) {
    g->cat = shared_cases[i].cat;
    typed_site(g, ss_loop, "", shared_cases[i].label, shared_cases[i].setup, shared_cases[i].expr);
  }
}

int alloc_corpus(gen *g, const char *which) {
  if (!strcmp(which, "string-sso"))
    corpus_string_sso(g);
  else if (!strcmp(which, "make-shared"))
    corpus_make_shared(g);
  else if (!strcmp(which, "no-alloc"))
    corpus_no_alloc(g);
  else if (!strcmp(which, "shared-state"))
    corpus_shared_state(g);
  else
    return -1;
  return 0;
}
