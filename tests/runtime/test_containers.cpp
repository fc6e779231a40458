// Pooled containers make zero global allocations (counted by replacing every
// global operator new): the hl:: aliases with the process-wide allocator in
// static mode (hl_configure with an arena), the hl::bound:: aliases over an
// hl::static_arena, and std::pmr containers over hl::pool_resource. Written
// in C++11 and also built at C++11 (heaplint --fix retypes C++11 code to
// these aliases); the std::pmr part needs C++17.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <stdexcept>
#include <string>
#include <type_traits>

#include "check.hpp"

#include "count.hpp"
#include "heaplint/containers.hpp"
#if __cplusplus >= 201703L
#include <memory_resource>

#include "heaplint/memory_resource.hpp"
#endif

// A container retyped from std:: to its hl:: alias keeps its iterator types
// (code that names them still compiles after heaplint --fix): the allocator
// does not enter them, and the unordered aliases hash like std::.
static_assert(std::is_same<std::map<int, int>::iterator, hl::map<int, int>::iterator>::value, "map iterators");
static_assert(std::is_same<std::unordered_map<std::string, int>::iterator,
                           hl::unordered_map<std::string, int>::iterator>::value,
              "unordered_map iterators");
static_assert(std::is_same<std::unordered_set<int>::const_iterator, hl::unordered_set<int>::const_iterator>::value,
              "unordered_set iterators");

// Runs f and checks that it made no global allocation and that the pools
// were used (allocations went up) and given everything back (in_use). In
// the release build, hl::pool_allocator takes node blocks in batches into
// the thread's bins, where they count as in use until hl_trim.
template <class F> static void zero_global(const char* what, F&& f) {
  hl_pool_stats before, after;
  hl_trim();
  hl_totals(&before);
  unsigned long n = hl_count::count(f);
  hl_trim();
  hl_totals(&after);
  if (n != 0) std::fprintf(stderr, "%s: %lu global allocations\n", what, n);
  CHECK(n == 0);
  if (after.allocations == before.allocations)
    std::fprintf(stderr, "%s: the pools were not used\n", what);
  CHECK(after.allocations > before.allocations);
  CHECK(after.in_use == before.in_use);
}

// insert, erase some, clear, insert again: the shape of a real workload.
template <class Seq> static void sequence(int n) {
  Seq c;
  for (int i = 0; i < n; i++) c.push_back(i);
  for (int i = 0; i < n / 2; i++) c.pop_front();
  c.clear();
  for (int i = 0; i < n; i++) c.push_front(i);
  CHECK(static_cast<int>(c.size()) == n);
}

template <class M> static void mapping(int n) {
  M m;
  for (int i = 0; i < n; i++) m.emplace(i, i * 2);
  for (int i = 0; i < n; i += 2) m.erase(m.find(i));
  CHECK(static_cast<int>(m.size()) == n / 2);
  m.clear();
  for (int i = 0; i < n; i++) m.emplace(i, i);
  CHECK(m.count(n - 1) == 1);
}

template <class S> static void setlike(int n) {
  S s;
  for (int i = 0; i < n; i++) s.insert(i);
  for (int i = 0; i < n; i += 3) s.erase(s.find(i));
  s.clear();
  for (int i = 0; i < n; i++) s.insert(n - i);
  CHECK(static_cast<int>(s.size()) == n);
}

static void aliases_in_static_mode() {
  zero_global("hl::list", [] { sequence<hl::list<int>>(1000); });
  zero_global("hl::deque", [] { sequence<hl::deque<long>>(5000); });
  zero_global("hl::forward_list", [] {
    hl::forward_list<int> l;
    for (int i = 0; i < 1000; i++) l.push_front(i);
    l.remove_if([](int i) { return i % 2; });
    l.clear();
    l.push_front(1);
  });
  zero_global("hl::map", [] { mapping<hl::map<int, int>>(1000); });
  zero_global("hl::multimap", [] { mapping<hl::multimap<int, int>>(1000); });
  zero_global("hl::unordered_map", [] { mapping<hl::unordered_map<int, int>>(1000); });
  zero_global("hl::unordered_multimap", [] { mapping<hl::unordered_multimap<int, int>>(1000); });
  zero_global("hl::set", [] { setlike<hl::set<int>>(1000); });
  zero_global("hl::multiset", [] { setlike<hl::multiset<int>>(1000); });
  zero_global("hl::unordered_set", [] { setlike<hl::unordered_set<int>>(1000); });
  zero_global("hl::unordered_multiset", [] { setlike<hl::unordered_multiset<int>>(1000); });
  zero_global("hl::string", [] {
    hl::string s;
    for (int i = 0; i < 3000; i++) s += static_cast<char>('a' + i % 26);
    s.erase(10, 1000);
    hl::string t = s + s;
    CHECK(t.size() == 2 * s.size());
    s.clear();
    s.shrink_to_fit();
    s.assign(100, 'x');
  });
  zero_global("hl::wstring", [] {
    hl::wstring s(500, L'w');
    s.append(s);
    CHECK(s.size() == 1000);
  });
  zero_global("hl::unordered_map<hl::string>", [] {
    hl::unordered_map<hl::string, hl::string> m;
    for (int i = 0; i < 300; i++) {
      hl::string k(40, static_cast<char>('a' + i % 26));
      k += static_cast<char>('0' + i % 10);
      k += static_cast<char>('0' + i / 10 % 10);
      k += static_cast<char>('0' + i / 100);
      m[k] = k + k;
    }
    CHECK(m.size() == 300);
    m.clear();
  });
  zero_global("hl::ostringstream", [] {
    hl::ostringstream os;
    for (int i = 0; i < 500; i++) os << "line " << i << ' ' << 3.25 * i << '\n';
    hl::string s = os.str();
    CHECK(s.size() > 5000);
  });
  zero_global("hl::stringstream/istringstream", [] {
    hl::stringstream ss;
    for (int i = 0; i < 300; i++) ss << i << ' ';
    long sum = 0;
    int v;
    while (ss >> v) sum += v;
    CHECK(sum == 299 * 300 / 2);
    hl::istringstream is(hl::string(400, '7'));
    hl::string word;
    is >> word;
    CHECK(word.size() == 400);
  });
  zero_global("hl::queue", [] {
    hl::queue<int> q;
    for (int i = 0; i < 3000; i++) q.push(i);
    while (q.size() > 10) q.pop();
    CHECK(q.front() == 2990);
  });
  zero_global("hl::stack", [] {
    hl::stack<hl::string> s;
    for (int i = 0; i < 300; i++) s.push(hl::string(50, 'x'));
    while (!s.empty()) s.pop();
  });
}

// 64 KiB chunks so that classes reach 16 KiB: an unordered_map's bucket
// array for 1000 elements is one such block.
static hl::static_arena<4 << 20, 64 * 1024> arena("bound-test", 16 * 1024);
static hl::static_arena<64 * 1024> tiny("tiny");

static hl_pool_stats arena_totals(hl_allocator* a) {
  hl_pool_stats st;
  hl_allocator_totals(a, &st);
  return st;
}

static void bound_aliases_over_a_static_arena() {
  hl_pool_stats before = arena_totals(arena.get());
  unsigned long n = hl_count::count([] {
    hl::bound::list<int> l(arena);
    for (int i = 0; i < 1000; i++) l.push_back(i);
    hl::bound::list<int> copy(l);  // the copy stays with the same arena
    CHECK(copy.get_allocator() == l.get_allocator());
    l.clear();
    hl::bound::map<int, int> m(arena);
    for (int i = 0; i < 1000; i++) m[i] = i;
    hl::bound::unordered_map<int, int> u(arena);
    for (int i = 0; i < 1000; i++) u[i] = i;
    hl::bound::set<int> s(arena);
    s.insert(3);
    hl::bound::deque<int> d(arena);
    for (int i = 0; i < 3000; i++) d.push_back(i);
    hl::bound::string str(arena);
    str.assign(2000, 'q');
    hl::bound::queue<int> q(arena.allocator<int>());
    q.push(1);
    hl::bound::forward_list<int> f(arena);
    f.push_front(1);
  });
  hl_pool_stats after = arena_totals(arena.get());
  CHECK(n == 0);
  CHECK(after.allocations > before.allocations + 4000);
  CHECK(after.in_use == before.in_use);

  // Running out throws std::bad_alloc and leaves the container usable.
  hl::bound::list<hl::bound::string> l(tiny);
  bool threw = false;
  try {
    for (;;) l.emplace_back(900, 'z', tiny.allocator<char>());
  } catch (const std::bad_alloc&) {
    threw = true;
  }
  CHECK(threw);
  CHECK(!l.empty() && l.back().size() == 900);
  l.clear();
  CHECK(arena_totals(tiny.get()).in_use == 0);
}

#if __cplusplus >= 201703L
static void pmr_adapter() {
  hl::pool_resource local(arena.get());
  hl_pool_stats before = arena_totals(arena.get());
  unsigned long n = hl_count::count([&] {
    std::pmr::list<int> a(hl::default_pool_resource());
    for (int i = 0; i < 1000; i++) a.push_back(i);
    std::pmr::map<int, std::pmr::string> m(&local);
    for (int i = 0; i < 200; i++) m[i].assign(100, 'p');
  });
  CHECK(n == 0);
  CHECK(arena_totals(arena.get()).allocations > before.allocations + 200);
  hl::pool_resource other(tiny.get()), same(arena.get());
  CHECK(local.is_equal(same));
  CHECK(!local.is_equal(other));
  CHECK(!local.is_equal(*hl::default_pool_resource()));
}
#endif

// The allocator requirements, as containers see them.
static_assert(hl::pool_allocator<int>::is_always_equal::value, "stateless");
static_assert(
    std::allocator_traits<hl::pool_allocator<int>>::propagate_on_container_move_assignment::value,
    "propagates on move assignment");
static_assert(std::is_same<std::allocator_traits<hl::pool_allocator<int>>::rebind_alloc<long>,
                           hl::pool_allocator<long>>::value,
              "rebinds");
static_assert(std::is_nothrow_default_constructible<hl::pool_allocator<int>>::value, "default");
static_assert(!hl::bound_allocator<int>::is_always_equal::value, "stateful");
static_assert(!std::allocator_traits<
                  hl::bound_allocator<int>>::propagate_on_container_copy_assignment::value,
              "stays on copy assignment");
static_assert(!std::allocator_traits<
                  hl::bound_allocator<int>>::propagate_on_container_move_assignment::value,
              "stays on move assignment");
static_assert(!std::allocator_traits<hl::bound_allocator<int>>::propagate_on_container_swap::value,
              "stays on swap");
static_assert(std::is_same<std::allocator_traits<hl::bound_allocator<int>>::rebind_alloc<char>,
                           hl::bound_allocator<char>>::value,
              "rebinds");
static_assert(!std::is_default_constructible<hl::bound_allocator<int>>::value, "no default");
static_assert(std::is_same<hl::map<int, long>::allocator_type,
                           hl::pool_allocator<std::pair<const int, long>>>::value,
              "map's allocator");
static_assert(std::is_same<hl::queue<int>::container_type, hl::deque<int>>::value, "queue over deque");

static void allocator_semantics() {
  hl::pool_allocator<int> a;
  hl::pool_allocator<double> b(a);
  CHECK(a == b && !(a != b));
  hl::bound_allocator<int> x(arena.get()), y(tiny.get());
  hl::bound_allocator<char> z(x);
  CHECK(x == z && x != y);
  CHECK(x.select_on_container_copy_construction() == x);

  struct alignas(64) wide {
    char c[64];
  };
  hl::pool_allocator<wide> w;
  wide* p = w.allocate(3);
  CHECK(reinterpret_cast<std::uintptr_t>(p) % 64 == 0);
  w.deallocate(p, 3);
  bool threw = false;
  try {
    (void)hl::pool_allocator<wide>().allocate(std::size_t(-1) / 32);
  } catch (const std::bad_array_new_length&) {
    threw = true;
  }
  CHECK(threw);
}

int main() {
  // Static mode for the whole process: every hl:: container below draws from
  // this array and nothing else, not even malloc.
  alignas(65536) static unsigned char memory[32 << 20];
  hl_allocator_config cfg;
  hl_allocator_config_default(&cfg);
  cfg.arena = memory;
  cfg.arena_size = sizeof memory;
  cfg.chunk_size = 64 * 1024;
  cfg.max_class = 16 * 1024;
  if (hl_configure(&cfg) != HL_OK) {
    std::fprintf(stderr, "hl_configure failed\n");
    return 1;
  }
  aliases_in_static_mode();
  bound_aliases_over_a_static_arena();
#if __cplusplus >= 201703L
  pmr_adapter();
#endif
  allocator_semantics();
  return hl_test::failures();
}
