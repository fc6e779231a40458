/* hl-fixcorpus: the measured round trip of heaplint --fix over every kind of
 * stored type the rules judge, in every C++ standard heaplint supports. A
 * fix that does not compile, or a rewritten site that still allocates, is
 * a broken build or a broken promise in a user's project; this finds both.
 *
 *   hl-fixcorpus generate c++11 | c++14 | c++17 | c++20
 *       Writes the corpus, a C++ program in that standard, on stdout: sites
 *       that store callables into std::function (lambdas, functors whose
 *       copy or move may throw, bases and members with user-provided copies,
 *       over-aligned functors, std::bind, function and member pointers,
 *       std::ref, nested captures) in the contexts heaplint retypes, and
 *       node containers filled in loops. Run, the program prints
 *       "<site> <allocations> <label>" for each site. Sites are numbered,
 *       not located by line: a fix inserts #include lines.
 *
 *   hl-fixcorpus counter
 *       Writes the translation unit that replaces the global operator new
 *       (count_new.hpp, which needs C++17) and exports its count, so that
 *       a corpus of any standard can link against it.
 *
 *   hl-fixcorpus compare [--min-rewritten N] <name> <before> <after> <fixed source>
 *       Compares the program's output before and after the fix. A site is
 *       rewritten when the fixed source's text between its marker and the
 *       next one names hl::. Every rewritten site must allocate 0 times;
 *       every other site as many times as before. Fails on a disagreement or
 *       when fewer than N sites (default 1) were rewritten.
 *
 * The measured window of a site covers the store, the calls through it and
 * its destruction; values captured are prepared before it and need no heap
 * memory of their own (strings stay within the small-string buffer). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if defined(__GNUC__)
#define FX_PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
#define FX_PRINTF(f, a)
#endif

#define COUNT(a) (sizeof(a) / sizeof *(a))

/* ---- a growing string ---- */

typedef struct buf {
  char *s;
  size_t n, cap;
} buf;

static void *xrealloc(void *p, size_t n) {
  void *r = realloc(p, n);
  if (!r) {
    fputs("hl-fixcorpus: out of memory\n", stderr);
    exit(2);
  }
  return r;
}

static void buf_putn(buf *b, const char *s, size_t n) {
  if (b->n + n + 1 > b->cap) {
    b->cap = (b->n + n + 1) * 2;
    b->s = xrealloc(b->s, b->cap);
  }
  memcpy(b->s + b->n, s, n);
  b->n += n;
  b->s[b->n] = '\0';
}

static void buf_puts(buf *b, const char *s) { buf_putn(b, s, strlen(s)); }

/* ---- the corpus ---- */

/* One stored thing. */
typedef struct store {
  const char *label; /* printed by the program: no quotes or backslashes */
  int min_std;       /* the first standard it compiles in: 11, 14, 17, 20 */
  const char *sig;   /* the std::function's signature; NULL: void() */
  const char *args;  /* the arguments of a call through it; NULL: none */
  const char *setup; /* statements before the measured window; NULL: none */
  const char *expr;  /* the stored expression */
  const char *self;  /* members of the class whose member function holds
                        the site (for this captures); NULL: a free function */
} store;

/* The stores, each in a local variable initialized by it (or, for this
 * captures, a local variable of a member function). */
static const store stores[] = {
    /* Lambdas by size. */
    {"lambda [l1, l2, l3] 24 bytes", 11, NULL, NULL, "long l1 = 1, l2 = 2, l3 = 3;",
     "[l1, l2, l3] { hl_fx::use(l1, l2, l3); }", NULL},
    {"lambda [l1..l4] 32 bytes", 11, NULL, NULL, "long l1 = 1, l2 = 2, l3 = 3, l4 = 4;",
     "[l1, l2, l3, l4] { hl_fx::use(l1, l2, l3, l4); }", NULL},
    {"lambda [l1..l5] 40 bytes", 11, NULL, NULL, "long l1 = 1, l2 = 2, l3 = 3, l4 = 4, l5 = 5;",
     "[l1, l2, l3, l4, l5] { hl_fx::use(l1, l2, l3, l4, l5); }", NULL},
    {"lambda [=] using 3", 11, NULL, NULL, "long l1 = 1, l2 = 2, l3 = 3;", "[=] { hl_fx::use(l1, l2, l3); }", NULL},
    {"lambda [&] using 4", 11, NULL, NULL, "long l1 = 1, l2 = 2, l3 = 3, l4 = 4;",
     "[&] { hl_fx::use(l1, l2, l3, l4); }", NULL},
    {"lambda int(int) 24 bytes", 11, "int(int)", "1", "long l1 = 1, l2 = 2, l3 = 3;",
     "[l1, l2, l3](int x) { return x + static_cast<int>(l1 + l2 + l3); }", NULL},
    /* Lambdas by the traits of their captures. */
    {"lambda [s] std::string", 11, NULL, NULL, "std::string s = \"abc\";", "[s] { hl_fx::use(s); }", NULL},
    {"lambda [sp] shared_ptr", 11, NULL, NULL, "std::shared_ptr<int> sp = hl_fx::shared;", "[sp] { hl_fx::use(sp); }",
     NULL},
    {"lambda [sp, l1, l2] shared_ptr", 11, NULL, NULL, "std::shared_ptr<int> sp = hl_fx::shared; long l1 = 1, l2 = 2;",
     "[sp, l1, l2] { hl_fx::use(sp, l1, l2); }", NULL},
    {"lambda [c] copy noexcept", 11, NULL, NULL, "hl_fx::CopyNoexcept c;", "[c] { hl_fx::use(c); }", NULL},
    {"lambda [c, l1, l2] copy noexcept", 11, NULL, NULL, "hl_fx::CopyNoexcept c; long l1 = 1, l2 = 2;",
     "[c, l1, l2] { hl_fx::use(c, l1, l2); }", NULL},
    {"lambda [c] copy may throw", 11, NULL, NULL, "hl_fx::CopyThrow c;", "[c] { hl_fx::use(c); }", NULL},
    {"lambda [c, l1, l2] copy may throw", 11, NULL, NULL, "hl_fx::CopyThrow c; long l1 = 1, l2 = 2;",
     "[c, l1, l2] { hl_fx::use(c, l1, l2); }", NULL},
    {"lambda [m] move may throw", 11, NULL, NULL, "hl_fx::MoveThrow m;", "[m] { hl_fx::use(m); }", NULL},
    {"lambda [a16] alignas(16)", 11, NULL, NULL, "hl_fx::A16 a16;", "[a16] { hl_fx::use(a16); }", NULL},
    {"lambda [a32] alignas(32)", 11, NULL, NULL, "hl_fx::A32 a32;", "[a32] { hl_fx::use(a32); }", NULL},
    {"lambda [fn] std::function", 11, NULL, NULL, "std::function<void()> fn;", "[fn] { if (fn) fn(); }", NULL},
    /* Nested captures. */
    {"lambda [inner, l3] capturing a lambda", 11, NULL, NULL,
     "long l1 = 1, l2 = 2, l3 = 3; auto inner = [l1, l2] { hl_fx::use(l1, l2); };",
     "[inner, l3] { inner(); hl_fx::use(l3); }", NULL},
    {"lambda capturing a lambda capturing a string", 11, NULL, NULL,
     "std::string s = \"abc\"; auto inner = [s] { hl_fx::use(s); };", "[inner] { inner(); }", NULL},
    {"lambda capturing a lambda whose copy may throw", 11, NULL, NULL,
     "hl_fx::CopyThrow c; auto inner = [c] { hl_fx::use(c); };", "[inner] { inner(); }", NULL},
    {"lambda capturing a lambda whose move may throw", 11, NULL, NULL,
     "hl_fx::MoveThrow m; auto inner = [m] { hl_fx::use(m); };", "[inner] { inner(); }", NULL},
    {"lambda variable copied", 11, NULL, NULL,
     "long l1 = 1, l2 = 2, l3 = 3, l4 = 4; auto lam = [l1, l2, l3, l4] { hl_fx::use(l1, l2, l3, l4); };", "lam", NULL},
    {"lambda variable moved", 11, NULL, NULL,
     "long l1 = 1, l2 = 2, l3 = 3, l4 = 4; auto lam = [l1, l2, l3, l4] { hl_fx::use(l1, l2, l3, l4); };",
     "std::move(lam)", NULL},
    /* Captures of this. */
    {"lambda [this, l1, l2]", 11, NULL, NULL, "long l1 = 1, l2 = 2;", "[this, l1, l2] { hl_fx::use(m1, l1, l2); }",
     "long m1 = 1;"},
    {"lambda [=] using this and 2", 11, NULL, NULL, "long l1 = 1, l2 = 2;", "[=] { hl_fx::use(m1, l1, l2); }",
     "long m1 = 1;"},
    /* C++14 on. */
    {"generic lambda 24 bytes", 14, "void(int)", "1", "long l1 = 1, l2 = 2, l3 = 3;",
     "[l1, l2, l3](auto x) { hl_fx::use(l1, l2, l3, x); }", NULL},
    {"init captures 24 bytes", 14, NULL, NULL, "long l1 = 1, l2 = 2, l3 = 3;",
     "[a = l1, b = l2, c = l3] { hl_fx::use(a, b, c); }", NULL},
    {"init capture std::array<char, 40>", 14, NULL, NULL, NULL,
     "[a = std::array<char, 40>{}, n = 1L] { hl_fx::use(a, n); }", NULL},
    {"init capture copy may throw", 14, NULL, NULL, NULL, "[c = hl_fx::CopyThrow()] { hl_fx::use(c); }", NULL},
    /* C++17 on. */
    {"lambda [*this] of 24 bytes", 17, NULL, NULL, NULL, "[*this] { hl_fx::use(m1); }", "long m1 = 1, m2 = 2, m3 = 3;"},
    /* C++20 on. */
    {"template lambda 24 bytes", 20, "void(int)", "1", "long l1 = 1, l2 = 2, l3 = 3;",
     "[l1, l2, l3]<class T>(T x) { hl_fx::use(l1, l2, l3, x); }", NULL},
    {"lambda [=, this] using 3", 20, NULL, NULL, "long l1 = 1, l2 = 2;", "[=, this] { hl_fx::use(m1, l1, l2); }",
     "long m1 = 1;"},
    /* Functors by size and alignment. */
    {"functor 24 bytes", 11, NULL, NULL, NULL, "hl_fx::F24{}", NULL},
    {"functor 40 bytes", 11, NULL, NULL, NULL, "hl_fx::F40{}", NULL},
    {"functor int(int) 24 bytes", 11, "int(int)", "1", NULL, "hl_fx::F_int{}", NULL},
    {"functor alignas(16) 16 bytes", 11, NULL, NULL, NULL, "hl_fx::F_a16{}", NULL},
    {"functor alignas(32) 32 bytes", 11, NULL, NULL, NULL, "hl_fx::F_a32{}", NULL},
    {"functor alignas(64) 64 bytes", 11, NULL, NULL, NULL, "hl_fx::F_a64{}", NULL},
    {"template functor TF<24>", 11, NULL, NULL, NULL, "hl_fx::TF<24>{}", NULL},
    {"template functor TF<40>", 11, NULL, NULL, NULL, "hl_fx::TF<40>{}", NULL},
    /* Functors by their copy and move. */
    {"functor move noexcept(false)", 11, NULL, NULL, NULL, "hl_fx::F_move_throw{}", NULL},
    {"functor move noexcept(false), int(int)", 11, "int(int)", "1", NULL, "hl_fx::F_move_throw_int{}", NULL},
    {"functor 40 bytes, move noexcept(false)", 11, NULL, NULL, NULL, "hl_fx::F40_move_throw{}", NULL},
    {"functor move without exception spec", 11, NULL, NULL, NULL, "hl_fx::F_move_nospec{}", NULL},
    {"functor move noexcept, copy may throw", 11, NULL, NULL, NULL, "hl_fx::F_move_noexcept_copy_throw{}", NULL},
    {"functor copy may throw, no move", 11, NULL, NULL, NULL, "hl_fx::F_copy_throw{}", NULL},
    {"functor copy noexcept, no move", 11, NULL, NULL, NULL, "hl_fx::F_copy_noexcept{}", NULL},
    {"functor base with a copy that may throw", 11, NULL, NULL, NULL, "hl_fx::F_base_copy_throw{}", NULL},
    {"functor base with a noexcept copy", 11, NULL, NULL, NULL, "hl_fx::F_base_copy_noexcept{}", NULL},
    {"functor member whose copy may throw", 11, NULL, NULL, NULL, "hl_fx::F_member_copy_throw{}", NULL},
    {"functor member whose move may throw", 11, NULL, NULL, NULL, "hl_fx::F_member_move_throw{}", NULL},
    {"functor user destructor", 11, NULL, NULL, NULL, "hl_fx::F_dtor{}", NULL},
    {"functor virtual", 11, NULL, NULL, NULL, "hl_fx::F_virtual{}", NULL},
    {"template functor TMT<4> move noexcept(N < 8)", 11, NULL, NULL, NULL, "hl_fx::TMT<4>{}", NULL},
    {"template functor TMT<8> move noexcept(N < 8)", 11, NULL, NULL, NULL, "hl_fx::TMT<8>{}", NULL},
    {"functor variable copied, move may throw", 11, NULL, NULL, "hl_fx::F_move_throw f;", "f", NULL},
    /* Library callables. */
    {"std::bind with 3 bound ints", 11, NULL, NULL, NULL, "std::bind(&hl_fx::g3, 1, 2, 3)", NULL},
    {"std::bind with 4 bound longs", 11, NULL, NULL, NULL, "std::bind(&hl_fx::g4, 1L, 2L, 3L, 4L)", NULL},
    {"std::bind of a member function and a copy", 11, NULL, NULL, "hl_fx::MemS ms;", "std::bind(&hl_fx::MemS::m, ms)",
     NULL},
    {"std::bind with a placeholder", 11, "int(int)", "1", NULL, "std::bind(&hl_fx::g1, std::placeholders::_1)", NULL},
    {"std::bind of a functor whose copy may throw", 11, NULL, NULL, NULL, "std::bind(hl_fx::F_copy_throw())", NULL},
    {"std::ref of a 48-byte functor", 11, NULL, NULL, "hl_fx::TF<48> big;", "std::ref(big)", NULL},
    {"std::cref of a 48-byte functor", 11, NULL, NULL, "hl_fx::TF<48> big;", "std::cref(big)", NULL},
    {"function pointer", 11, NULL, NULL, NULL, "&hl_fx::g0", NULL},
    {"function name", 11, NULL, NULL, NULL, "hl_fx::g0", NULL},
    {"member function pointer", 11, "void(hl_fx::MemS &)", "ms", "hl_fx::MemS ms;", "&hl_fx::MemS::m", NULL},
    {"member data pointer", 11, "long(hl_fx::MemS &)", "ms", "hl_fx::MemS ms;", "&hl_fx::MemS::x", NULL},
};

/* Each context is tried with these: too big everywhere, too big with a move
 * that may throw, over-aligned. */
static const store context_stores[] = {
    {"40-byte lambda", 11, NULL, NULL, "long l1 = 1, l2 = 2, l3 = 3, l4 = 4, l5 = 5;",
     "[l1, l2, l3, l4, l5] { hl_fx::use(l1, l2, l3, l4, l5); }", NULL},
    {"40-byte functor move noexcept(false)", 11, NULL, NULL, NULL, "hl_fx::F40_move_throw{}", NULL},
    {"functor alignas(32)", 11, NULL, NULL, NULL, "hl_fx::F_a32{}", NULL},
};

/* Where the store happens. $N is the site's number, $W the wrapper, $CALL a
 * call through w; the measured window is between begin() and end(). */
static const char local_init[] =
    "static void site_$N() {\n"
    "  $SETUP\n"
    "  hl_fx::begin();\n"
    "  {\n"
    "    $W w = $EXPR;\n"
    "    $CALL;\n"
    "  }\n"
    "  hl_fx::end($N, \"$LABEL\");\n"
    "}\n";

static const char in_member[] =
    "struct self_$N {\n"
    "  $SELF\n"
    "  void run() {\n"
    "    $SETUP\n"
    "    hl_fx::begin();\n"
    "    {\n"
    "      $W w = $EXPR;\n"
    "      $CALL;\n"
    "    }\n"
    "    hl_fx::end($N, \"$LABEL\");\n"
    "  }\n"
    "};\n"
    "static void site_$N() { self_$N().run(); }\n";

static const char direct_init[] =
    "static void site_$N() {\n"
    "  $SETUP\n"
    "  hl_fx::begin();\n"
    "  {\n"
    "    $W w($EXPR);\n"
    "    $CALL;\n"
    "  }\n"
    "  hl_fx::end($N, \"$LABEL\");\n"
    "}\n";

static const char brace_init[] =
    "static void site_$N() {\n"
    "  $SETUP\n"
    "  hl_fx::begin();\n"
    "  {\n"
    "    $W w{$EXPR};\n"
    "    $CALL;\n"
    "  }\n"
    "  hl_fx::end($N, \"$LABEL\");\n"
    "}\n";

static const char assigned[] =
    "static void site_$N() {\n"
    "  $SETUP\n"
    "  hl_fx::begin();\n"
    "  {\n"
    "    $W w;\n"
    "    w = $EXPR;\n"
    "    if (w) $CALL;\n"
    "  }\n"
    "  hl_fx::end($N, \"$LABEL\");\n"
    "}\n";

static const char in_loop[] =
    "static void site_$N() {\n"
    "  $SETUP\n"
    "  hl_fx::begin();\n"
    "  for (int i = 0; i < 3; ++i) {\n"
    "    $W w = $EXPR;\n"
    "    $CALL;\n"
    "  }\n"
    "  hl_fx::end($N, \"$LABEL\");\n"
    "}\n";

static const char in_lambda_body[] =
    "static void site_$N() {\n"
    "  auto outer = [] {\n"
    "    $SETUP\n"
    "    $W w = $EXPR;\n"
    "    $CALL;\n"
    "  };\n"
    "  hl_fx::begin();\n"
    "  outer();\n"
    "  hl_fx::end($N, \"$LABEL\");\n"
    "}\n";

/* The vector reserves before the window: only the elements are measured. */
static const char vector_push_back[] =
    "static void site_$N() {\n"
    "  $SETUP\n"
    "  std::vector<$W> v;\n"
    "  v.reserve(4);\n"
    "  hl_fx::begin();\n"
    "  for (int i = 0; i < 3; ++i) v.push_back($EXPR);\n"
    "  for (auto &w : v) $CALL;\n"
    "  v.clear();\n"
    "  hl_fx::end($N, \"$LABEL\");\n"
    "}\n";

static const char vector_emplace_back[] =
    "static void site_$N() {\n"
    "  $SETUP\n"
    "  std::vector<$W> v;\n"
    "  v.reserve(4);\n"
    "  hl_fx::begin();\n"
    "  v.emplace_back($EXPR);\n"
    "  v[0]();\n"
    "  v.clear();\n"
    "  hl_fx::end($N, \"$LABEL\");\n"
    "}\n";

/* A member of a class only this file sees, assigned in one member function
 * and called in another. */
static const char member_assigned[] =
    "struct holder_$N {\n"
    "  $W w;\n"
    "  void set() {\n"
    "    $SETUP\n"
    "    w = $EXPR;\n"
    "  }\n"
    "  void run() { $CALL; }\n"
    "};\n"
    "static void site_$N() {\n"
    "  hl_fx::begin();\n"
    "  {\n"
    "    holder_$N h;\n"
    "    h.set();\n"
    "    h.run();\n"
    "  }\n"
    "  hl_fx::end($N, \"$LABEL\");\n"
    "}\n";

typedef struct context {
  const char *name;
  const char *tmpl;
} context;

static const context contexts[] = {
    {"direct-init", direct_init},
    {"brace-init", brace_init},
    {"assignment", assigned},
    {"for loop body", in_loop},
    {"lambda body", in_lambda_body},
    {"vector push_back", vector_push_back},
    {"vector emplace_back", vector_emplace_back},
    {"member assigned", member_assigned},
};

/* Node containers filled in a loop: declared, filled and iterated inside
 * the window. */
typedef struct node_site {
  const char *label;
  const char *body;
} node_site;

static const node_site node_sites[] = {
    {"std::map subscript",
     "std::map<int, long> m;\n    for (int i = 0; i < 4; ++i) m[i] = i;\n"
     "    long s = 0;\n    for (const auto &e : m) s += e.second;\n    hl_fx::use(s);"},
    {"std::map emplace",
     "std::map<int, long> m;\n    for (int i = 0; i < 4; ++i) m.emplace(i, 2L * i);\n"
     "    hl_fx::use(m.size());"},
    {"std::map with a comparator",
     "std::map<int, long, std::greater<int>> m;\n"
     "    for (int i = 0; i < 4; ++i) m.insert(std::make_pair(i, 1L));\n"
     "    hl_fx::use(m.size());"},
    {"std::map with std::string keys",
     "std::map<std::string, int> m;\n"
     "    for (int i = 0; i < 4; ++i) m[std::to_string(i)] = i;\n"
     "    hl_fx::use(m.size());"},
    {"std::multimap insert",
     "std::multimap<int, int> m;\n"
     "    for (int i = 0; i < 4; ++i) m.insert(std::make_pair(i % 2, i));\n"
     "    hl_fx::use(m.size());"},
    {"std::set insert", "std::set<int> s;\n    for (int i = 0; i < 4; ++i) s.insert(i);\n    hl_fx::use(s.size());"},
    {"std::multiset insert",
     "std::multiset<long> s;\n    for (int i = 0; i < 4; ++i) s.insert(i % 2);\n    hl_fx::use(s.size());"},
    {"std::list push_back",
     "std::list<long> l;\n    for (int i = 0; i < 4; ++i) l.push_back(i);\n"
     "    long s = 0;\n    for (long x : l) s += x;\n    hl_fx::use(s);"},
    {"std::forward_list push_front",
     "std::forward_list<long> l;\n    for (int i = 0; i < 4; ++i) l.push_front(i);\n    hl_fx::use(l.empty());"},
    {"std::unordered_map emplace",
     "std::unordered_map<int, long> m;\n"
     "    for (int i = 0; i < 4; ++i) m.emplace(i, 1L);\n    hl_fx::use(m.size());"},
    {"std::unordered_set insert",
     "std::unordered_set<int> s;\n    for (int i = 0; i < 4; ++i) s.insert(i);\n"
     "    hl_fx::use(s.size());"},
    {"std::set filled in a range-for",
     "std::array<int, 4> src = {{1, 2, 3, 4}};\n    std::set<int> s;\n"
     "    for (int x : src) s.insert(x);\n    hl_fx::use(s.size());"},
    {"std::list filled in a while loop",
     "std::list<int> l;\n    int i = 0;\n    while (i < 4) l.push_back(i++);\n"
     "    hl_fx::use(l.size());"},
};

static const char node_tmpl[] =
    "static void site_$N() {\n"
    "  hl_fx::begin();\n"
    "  {\n"
    "    $BODY\n"
    "  }\n"
    "  hl_fx::end($N, \"$LABEL\");\n"
    "}\n";

static const char prelude[] =
    "#include <array>\n"
    "#include <cstdio>\n"
    "#include <forward_list>\n"
    "#include <functional>\n"
    "#include <list>\n"
    "#include <map>\n"
    "#include <memory>\n"
    "#include <set>\n"
    "#include <string>\n"
    "#include <unordered_map>\n"
    "#include <unordered_set>\n"
    "#include <utility>\n"
    "#include <vector>\n"
    "\n"
    "// The counting global operator new lives in another translation unit\n"
    "// (hl-fixcorpus counter), built as C++17.\n"
    "unsigned long hl_fx_allocations();\n"
    "\n"
    "namespace hl_fx {\n"
    "static unsigned long start;\n"
    "static void begin() { start = hl_fx_allocations(); }\n"
    "static void end(int site, const char *label) {\n"
    "  std::printf(\"%d %lu %s\\n\", site, hl_fx_allocations() - start, label);\n"
    "}\n"
    "// Odr-uses its arguments, so that [=] and [&] capture them.\n"
    "template <class... T> void use(const T &...) {}\n"
    "\n"
    "// Made before any site runs: the sites copy it.\n"
    "std::shared_ptr<int> shared = std::make_shared<int>(1);\n"
    "\n"
    "void g0() {}\n"
    "int g1(int x) { return x; }\n"
    "void g3(int, int, int) {}\n"
    "void g4(long, long, long, long) {}\n"
    "struct MemS {\n"
    "  long x = 1;\n"
    "  void m() {}\n"
    "};\n"
    "\n"
    "// Captured by value.\n"
    "struct alignas(16) A16 { char c[16]; };\n"
    "struct alignas(32) A32 { char c[32]; };\n"
    "struct CopyThrow { long v = 1; CopyThrow() {} CopyThrow(const CopyThrow &o) : v(o.v) {} };\n"
    "struct CopyNoexcept { long v = 1; CopyNoexcept() {} CopyNoexcept(const CopyNoexcept &o) noexcept : v(o.v) {} };\n"
    "struct MoveThrow {\n"
    "  long v = 1;\n"
    "  MoveThrow() {}\n"
    "  MoveThrow(const MoveThrow &) = default;\n"
    "  MoveThrow(MoveThrow &&o) noexcept(false) : v(o.v) {}\n"
    "};\n"
    "\n"
    "// Functors, 8 bytes unless the name says otherwise.\n"
    "struct F24 { long a = 1, b = 2, c = 3; void operator()() const {} };\n"
    "struct F40 { long a[5] = {}; void operator()() const {} };\n"
    "struct F_int { long a = 1, b = 2, c = 3; int operator()(int x) const { return x + static_cast<int>(a); } };\n"
    "struct alignas(16) F_a16 { char b[16]; void operator()() const {} };\n"
    "struct alignas(32) F_a32 { char b[32]; void operator()() const {} };\n"
    "struct alignas(64) F_a64 { char b[64]; void operator()() const {} };\n"
    "template <int N> struct TF { char b[N]; void operator()() const {} };\n"
    "template <int N> struct TMT {\n"
    "  char b[N];\n"
    "  TMT() {}\n"
    "  TMT(const TMT &) = default;\n"
    "  TMT(TMT &&o) noexcept(N < 8) { for (int i = 0; i < N; i++) b[i] = o.b[i]; }\n"
    "  void operator()() const {}\n"
    "};\n"
    "struct F_move_throw {\n"
    "  long v = 1;\n"
    "  F_move_throw() {}\n"
    "  F_move_throw(const F_move_throw &) = default;\n"
    "  F_move_throw(F_move_throw &&o) noexcept(false) : v(o.v) {}\n"
    "  void operator()() const {}\n"
    "};\n"
    "struct F40_move_throw {\n"
    "  long v[5] = {};\n"
    "  F40_move_throw() {}\n"
    "  F40_move_throw(const F40_move_throw &) = default;\n"
    "  F40_move_throw(F40_move_throw &&o) noexcept(false) : v{o.v[0]} {}\n"
    "  void operator()() const {}\n"
    "};\n"
    "struct F_move_throw_int {\n"
    "  long v = 1;\n"
    "  F_move_throw_int() {}\n"
    "  F_move_throw_int(const F_move_throw_int &) = default;\n"
    "  F_move_throw_int(F_move_throw_int &&o) noexcept(false) : v(o.v) {}\n"
    "  int operator()(int x) const { return x + static_cast<int>(v); }\n"
    "};\n"
    "struct F_move_nospec {\n"
    "  long v = 1;\n"
    "  F_move_nospec() {}\n"
    "  F_move_nospec(const F_move_nospec &) = default;\n"
    "  F_move_nospec(F_move_nospec &&o) : v(o.v) {}\n"
    "  void operator()() const {}\n"
    "};\n"
    "struct F_move_noexcept_copy_throw {\n"
    "  long v = 1;\n"
    "  F_move_noexcept_copy_throw() {}\n"
    "  F_move_noexcept_copy_throw(const F_move_noexcept_copy_throw &o) : v(o.v) {}\n"
    "  F_move_noexcept_copy_throw(F_move_noexcept_copy_throw &&o) noexcept : v(o.v) {}\n"
    "  void operator()() const {}\n"
    "};\n"
    "struct F_copy_throw { long v = 1; F_copy_throw() {} F_copy_throw(const F_copy_throw &o) : v(o.v) {} void "
    "operator()() const {} };\n"
    "struct F_copy_noexcept { long v = 1; F_copy_noexcept() {} F_copy_noexcept(const F_copy_noexcept &o) noexcept : "
    "v(o.v) {} void operator()() const {} };\n"
    "struct F_base_copy_throw : CopyThrow { void operator()() const {} };\n"
    "struct F_base_copy_noexcept : CopyNoexcept { void operator()() const {} };\n"
    "struct F_member_copy_throw { CopyThrow m; void operator()() const {} };\n"
    "struct F_member_move_throw { MoveThrow m; void operator()() const {} };\n"
    "struct F_dtor { long v = 1; ~F_dtor() {} void operator()() const {} };\n"
    "struct F_virtual { long v = 1; virtual void operator()() const {} };\n"
    "} // namespace hl_fx\n"
    "\n";

typedef struct gen {
  buf out;
  int nsites;
} gen;

/* Writes one site from a template: "$NAME" placeholders become the site's
 * number, its store's text, or the context's; a multi-line $BODY keeps the
 * template's indentation. */
static void site(gen *g, const char *tmpl, const char *label, const store *s, const char *body) {
  g->nsites++;
  for (const char *p = label; *p; p++)
    if (*p == '"' || *p == '\\') {
      fprintf(stderr, "hl-fixcorpus: label '%s' must not contain quotes or backslashes\n", label);
      exit(2);
    }
  char num[32];
  snprintf(num, sizeof num, "%d", g->nsites);
  buf wrapper = {0}, call = {0};
  if (s) {
    buf_puts(&wrapper, "std::function<");
    buf_puts(&wrapper, s->sig ? s->sig : "void()");
    buf_puts(&wrapper, ">");
    buf_puts(&call, "w(");
    buf_puts(&call, s->args ? s->args : "");
    buf_puts(&call, ")");
  }
  buf_puts(&g->out, "// ---- site ");
  buf_puts(&g->out, num);
  buf_puts(&g->out, ": ");
  buf_puts(&g->out, label);
  buf_puts(&g->out, "\n");
  for (const char *p = tmpl; *p;) {
    if (*p != '$') {
      buf_putn(&g->out, p++, 1);
      continue;
    }
    size_t len = 0;
    while ((p[1 + len] >= 'A' && p[1 + len] <= 'Z') || p[1 + len] == '_') len++;
    const char *name = p + 1, *v = NULL;
#define IS(lit) (len == sizeof lit - 1 && !memcmp(name, lit, len))
    if (IS("N"))
      v = num;
    else if (IS("LABEL"))
      v = label;
    else if (IS("BODY"))
      v = body;
    else if (s && IS("W"))
      v = wrapper.s;
    else if (s && IS("CALL"))
      v = call.s;
    else if (s && IS("EXPR"))
      v = s->expr;
    else if (s && IS("SETUP"))
      v = s->setup ? s->setup : "";
    else if (s && IS("SELF"))
      v = s->self ? s->self : "";
#undef IS
    if (!v) {
      fprintf(stderr, "hl-fixcorpus: site '%s': unknown placeholder $%.*s\n", label, (int)len, name);
      exit(2);
    }
    buf_puts(&g->out, v);
    p += len + 1;
  }
  free(wrapper.s);
  free(call.s);
}

static int generate(const char *standard) {
  static const struct {
    const char *name;
    int std;
  } standards[] = {{"c++11", 11}, {"c++14", 14}, {"c++17", 17}, {"c++20", 20}};
  int std = 0;
  for (size_t i = 0; i < COUNT(standards); i++)
    if (!strcmp(standard, standards[i].name)) std = standards[i].std;
  if (!std) {
    fprintf(stderr, "hl-fixcorpus: unknown standard '%s' (c++11, c++14, c++17 or c++20)\n", standard);
    return 2;
  }
  gen g = {{0}, 0};
  buf_puts(&g.out, "// Generated by hl-fixcorpus (tests/fixcorpus/fixcorpus.c) for ");
  buf_puts(&g.out, standard);
  buf_puts(&g.out, "; do not edit.\n");
  buf_puts(&g.out, prelude);
  for (size_t i = 0; i < COUNT(stores); i++)
    if (stores[i].min_std <= std) site(&g, stores[i].self ? in_member : local_init, stores[i].label, &stores[i], NULL);
  for (size_t c = 0; c < COUNT(contexts); c++)
    for (size_t i = 0; i < COUNT(context_stores); i++) {
      char label[160];
      snprintf(label, sizeof label, "%s, %s", contexts[c].name, context_stores[i].label);
      site(&g, contexts[c].tmpl, label, &context_stores[i], NULL);
    }
  for (size_t i = 0; i < COUNT(node_sites); i++) site(&g, node_tmpl, node_sites[i].label, NULL, node_sites[i].body);
  buf_puts(&g.out, "\nint main() {\n");
  for (int i = 1; i <= g.nsites; i++) {
    char line[64];
    snprintf(line, sizeof line, "  site_%d();\n", i);
    buf_puts(&g.out, line);
  }
  buf_puts(&g.out, "}\n");
  fwrite(g.out.s, 1, g.out.n, stdout);
  free(g.out.s);
  return fflush(stdout) == 0 ? 0 : 2;
}

static int counter(void) {
  fputs(
      "// Generated by hl-fixcorpus counter; do not edit.\n"
      "#include <count_new.hpp>\n"
      "unsigned long hl_fx_allocations() { return hl_count::allocations(); }\n",
      stdout);
  return fflush(stdout) == 0 ? 0 : 2;
}

/* ---- comparing ---- */

typedef struct result {
  unsigned long before, after;
  int seen_before, seen_after, rewritten;
  char *label;
} result;

static char *read_file(const char *path, size_t *n) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  buf b = {0};
  char chunk[65536];
  size_t got;
  while ((got = fread(chunk, 1, sizeof chunk, f)) > 0) buf_putn(&b, chunk, got);
  int bad = ferror(f);
  fclose(f);
  if (bad) {
    free(b.s);
    return NULL;
  }
  if (!b.s) buf_putn(&b, "", 0);
  *n = b.n;
  return b.s;
}

/* Reads "<site> <allocations> <label>" lines into r[1..nsites]. */
static int read_measured(const char *path, result *r, int nsites, int after) {
  size_t n;
  char *text = read_file(path, &n);
  if (!text) {
    fprintf(stderr, "hl-fixcorpus: cannot read %s\n", path);
    return -1;
  }
  int bad = 0;
  for (char *line = text, *next; *line; line = next) {
    next = strchr(line, '\n');
    if (next)
      *next++ = '\0';
    else
      next = line + strlen(line);
    int site, used = 0;
    unsigned long count;
    if (sscanf(line, "%d %lu %n", &site, &count, &used) < 2 || used == 0 || site < 1 || site > nsites) {
      fprintf(stderr, "hl-fixcorpus: %s: not a measurement: '%s'\n", path, line);
      bad = 1;
      continue;
    }
    result *x = &r[site];
    if (after ? x->seen_after : x->seen_before) {
      fprintf(stderr, "hl-fixcorpus: %s: site %d was measured twice\n", path, site);
      bad = 1;
    }
    if (after) {
      x->after = count;
      x->seen_after = 1;
    } else {
      x->before = count;
      x->seen_before = 1;
      buf lb = {0};
      buf_puts(&lb, line + used);
      free(x->label);
      x->label = lb.s;
    }
  }
  free(text);
  return bad ? -1 : 0;
}

/* Marks the sites whose text in the fixed source names hl::. Returns the
 * number of sites, or -1. */
static int read_fixed(const char *path, result **out) {
  size_t n;
  char *text = read_file(path, &n);
  if (!text) {
    fprintf(stderr, "hl-fixcorpus: cannot read %s\n", path);
    return -1;
  }
  static const char marker[] = "// ---- site ";
  int nsites = 0;
  for (const char *p = text; (p = strstr(p, marker)); p += sizeof marker - 1) nsites++;
  result *r = xrealloc(NULL, ((size_t)nsites + 1) * sizeof *r);
  memset(r, 0, ((size_t)nsites + 1) * sizeof *r);
  int k = 0;
  for (char *p = strstr(text, marker); p; k++) {
    int site = atoi(p + sizeof marker - 1);
    char *next = strstr(p + 1, marker);
    /* The last site ends where main() begins. */
    char *end = next ? next : strstr(p, "\nint main()");
    if (site != k + 1 || !end) {
      fprintf(stderr, "hl-fixcorpus: %s: the site markers are out of order (a fix edited them?)\n", path);
      free(r);
      free(text);
      return -1;
    }
    char saved = *end;
    *end = '\0';
    r[site].rewritten = strstr(p, "hl::") != NULL;
    *end = saved;
    p = next;
  }
  free(text);
  *out = r;
  return nsites;
}

static int compare(int argc, char **argv) {
  long min_rewritten = 1;
  int i = 0;
  if (argc >= 2 && !strcmp(argv[0], "--min-rewritten")) {
    min_rewritten = strtol(argv[1], NULL, 10);
    i = 2;
  }
  if (argc - i != 4) {
    fputs("usage: hl-fixcorpus compare [--min-rewritten N] <name> <before> <after> <fixed source>\n", stderr);
    return 2;
  }
  const char *name = argv[i];
  result *r = NULL;
  int nsites = read_fixed(argv[i + 3], &r);
  if (nsites < 0) return 2;
  int bad = read_measured(argv[i + 1], r, nsites, 0) || read_measured(argv[i + 2], r, nsites, 1);
  int rewritten = 0, allocating = 0, kept = 0, disagreements = 0;
  for (int s = 1; s <= nsites; s++) {
    result *x = &r[s];
    const char *label = x->label ? x->label : "?";
    if (!x->seen_before || !x->seen_after) {
      printf("%s: site %d: not measured %s the fix [%s]\n", name, s, x->seen_before ? "after" : "before", label);
      disagreements++;
      continue;
    }
    allocating += x->before > 0;
    rewritten += x->rewritten;
    if (x->rewritten && x->after > 0) {
      printf("%s: site %d: rewritten, but allocates %lu time%s (%lu before) [%s]\n", name, s, x->after,
             x->after == 1 ? "" : "s", x->before, label);
      disagreements++;
    } else if (!x->rewritten && x->after != x->before) {
      printf("%s: site %d: not rewritten, but allocates %lu times instead of %lu [%s]\n", name, s, x->after, x->before,
             label);
      disagreements++;
    } else if (!x->rewritten && x->before > 0) {
      kept++;
    }
  }
  printf("fixcorpus %s: %d sites, %d allocate, %d rewritten, %d left allocating, %d disagreement%s\n", name, nsites,
         allocating, rewritten, kept, disagreements, disagreements == 1 ? "" : "s");
  if (rewritten < min_rewritten) {
    printf("fixcorpus %s: fewer than %ld sites were rewritten\n", name, min_rewritten);
    bad = 1;
  }
  for (int s = 0; s <= nsites; s++) free(r[s].label);
  free(r);
  return bad || disagreements ? 1 : 0;
}

int main(int argc, char **argv) {
  if (argc == 3 && !strcmp(argv[1], "generate")) return generate(argv[2]);
  if (argc == 2 && !strcmp(argv[1], "counter")) return counter();
  if (argc >= 2 && !strcmp(argv[1], "compare")) return compare(argc - 2, argv + 2);
  fputs(
      "usage: hl-fixcorpus generate c++11|c++14|c++17|c++20\n"
      "       hl-fixcorpus counter\n"
      "       hl-fixcorpus compare [--min-rewritten N] <name> <before> <after> <fixed source>\n",
      stderr);
  return 2;
}
