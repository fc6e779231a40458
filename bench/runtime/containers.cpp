// Node containers: 10,000 inserts then clear, repeated, with std::allocator
// (glibc malloc), hl::pool_allocator (the process-wide pools), an hl::bound
// allocator over a private single-threaded hl_allocator, and
// std::pmr::unsynchronized_pool_resource, all in the same run. Prints one
// tab-separated line per case: container, allocator, ns per op, global news.
//
// An "op" is one insert plus its share of the clear; for strings it is one
// push_back into a fresh string that grows to 10,000 characters.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <list>
#include <map>
#include <memory_resource>
#include <set>
#include <string>
#include <vector>

#include "count_new.hpp"
#include "heaplint/containers.hpp"

namespace {

constexpr int kOps = 10000;

int repetitions = 41;

// Keeps the optimiser from dropping the work on c.
template <class T> void escape(T& c) { asm volatile("" : : "r"(&c) : "memory"); }

template <class Body> double median_ns_per_op(Body body) {
  std::vector<double> runs;
  for (int r = 0; r < repetitions; r++) {
    auto t0 = std::chrono::steady_clock::now();
    body();
    auto t1 = std::chrono::steady_clock::now();
    runs.push_back(std::chrono::duration<double, std::nano>(t1 - t0).count() / kOps);
  }
  std::sort(runs.begin(), runs.end());
  return runs[runs.size() / 2];
}

void report(const char* container, const char* allocator, double ns, unsigned long news) {
  std::printf("%s\t%s\t%.2f\t%lu\n", container, allocator, ns, news);
  std::fflush(stdout);
}

// Runs body's workload once to warm up, then measures it, and counts the
// global operator new calls of one more round.
template <class Body> void measure(const char* container, const char* allocator, Body body) {
  body();
  double ns = median_ns_per_op(body);
  unsigned long news = hl_count::count(body);
  report(container, allocator, ns, news);
}

template <class List> void bench_list(const char* allocator, List& l) {
  measure("list<int>", allocator, [&] {
    for (int i = 0; i < kOps; i++) l.push_back(i);
    escape(l);
    l.clear();
  });
}

// Two ways to fill a map. At the end hint, the tree work per insert is O(1)
// and the allocation dominates; with operator[] every insert first descends
// the tree (lower_bound), which no allocator speeds up. Not emplace:
// libstdc++'s map::emplace takes the lower_bound-then-hint shortcut only for
// std::allocator, which would compare two algorithms instead of two
// allocators (operator[] and try_emplace take it for every allocator).
template <class Map> void bench_map(const char* allocator, Map& m) {
  measure("map<int,int> insert at end", allocator, [&] {
    for (int i = 0; i < kOps; i++) m.emplace_hint(m.end(), i, i);
    escape(m);
    m.clear();
  });
  measure("map<int,int> operator[]", allocator, [&] {
    for (int i = 0; i < kOps; i++) m[i] = i;
    escape(m);
    m.clear();
  });
}

template <class Set> void bench_set(const char* allocator, Set& s) {
  // Keys in a scrambled order, so that the tree rebalances as in real use.
  measure("set<int>", allocator, [&] {
    for (int i = 0; i < kOps; i++) s.insert(static_cast<int>((i * 7919u) % kOps));
    escape(s);
    s.clear();
  });
}

template <class Make> void bench_string(const char* allocator, Make make) {
  measure("string growth", allocator, [&] {
    auto s = make();
    for (int i = 0; i < kOps; i++) s.push_back(static_cast<char>('a' + i % 26));
    escape(s);
  });
}

}  // namespace

int main(int argc, char** argv) {
  if (argc > 1) repetitions = std::atoi(argv[1]);

  hl_allocator* mine = nullptr;
  if (hl_allocator_create(&mine, nullptr) != HL_OK) return 1;
  hl::bound_allocator<int> bound(mine);
  std::pmr::unsynchronized_pool_resource pmr;

  {
    std::list<int> a;
    hl::list<int> b;
    hl::bound::list<int> c(bound);
    std::pmr::list<int> d(&pmr);
    bench_list("std::allocator", a);
    bench_list("hl::pool_allocator", b);
    bench_list("hl::bound_allocator", c);
    bench_list("pmr::unsynchronized_pool", d);
  }
  {
    std::map<int, int> a;
    hl::map<int, int> b;
    hl::bound::map<int, int> c(bound);
    std::pmr::map<int, int> d(&pmr);
    bench_map("std::allocator", a);
    bench_map("hl::pool_allocator", b);
    bench_map("hl::bound_allocator", c);
    bench_map("pmr::unsynchronized_pool", d);
  }
  {
    std::set<int> a;
    hl::set<int> b;
    hl::bound::set<int> c(bound);
    std::pmr::set<int> d(&pmr);
    bench_set("std::allocator", a);
    bench_set("hl::pool_allocator", b);
    bench_set("hl::bound_allocator", c);
    bench_set("pmr::unsynchronized_pool", d);
  }
  bench_string("std::allocator", [] { return std::string(); });
  bench_string("hl::pool_allocator", [] { return hl::string(); });
  bench_string("hl::bound_allocator", [&] { return hl::bound::string(bound); });
  bench_string("pmr::unsynchronized_pool", [&] { return std::pmr::string(&pmr); });

  hl_allocator_destroy(mine);
  return 0;
}
