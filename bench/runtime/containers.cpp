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
#include <functional>
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

// One workload (a container kind) with one body per allocator. The
// allocators take turns, round after round, so that a change in machine
// load hits them all alike; each gets the median of its rounds.
class workload {
 public:
  explicit workload(const char* name) : name_(name) {}

  template <class Body> void add(const char* allocator, Body body) {
    cases_.push_back({allocator, std::function<void()>(body), {}});
  }

  void run() {
    for (auto& c : cases_) c.body();  // warm up: pools, caches, page faults
    for (int r = 0; r < repetitions; r++) {
      for (auto& c : cases_) {
        auto t0 = std::chrono::steady_clock::now();
        c.body();
        auto t1 = std::chrono::steady_clock::now();
        c.runs.push_back(std::chrono::duration<double, std::nano>(t1 - t0).count() / kOps);
      }
    }
    for (auto& c : cases_) {
      std::sort(c.runs.begin(), c.runs.end());
      unsigned long news = hl_count::count(c.body);
      std::printf("%s\t%s\t%.2f\t%lu\n", name_, c.allocator, c.runs[c.runs.size() / 2], news);
    }
    std::fflush(stdout);
  }

 private:
  struct entry {
    const char* allocator;
    std::function<void()> body;
    std::vector<double> runs;
  };
  const char* name_;
  std::vector<entry> cases_;
};

template <class List> void list_case(workload& w, const char* allocator, List& l) {
  w.add(allocator, [&] {
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
template <class Map> void map_hint_case(workload& w, const char* allocator, Map& m) {
  w.add(allocator, [&] {
    for (int i = 0; i < kOps; i++) m.emplace_hint(m.end(), i, i);
    escape(m);
    m.clear();
  });
}

template <class Map> void map_index_case(workload& w, const char* allocator, Map& m) {
  w.add(allocator, [&] {
    for (int i = 0; i < kOps; i++) m[i] = i;
    escape(m);
    m.clear();
  });
}

// Keys in a scrambled order, so that the tree rebalances as in real use.
template <class Set> void set_case(workload& w, const char* allocator, Set& s) {
  w.add(allocator, [&] {
    for (int i = 0; i < kOps; i++) s.insert(static_cast<int>((i * 7919u) % kOps));
    escape(s);
    s.clear();
  });
}

template <class Make> void string_case(workload& w, const char* allocator, Make make) {
  w.add(allocator, [make] {
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

  const char* names[] = {"std::allocator", "hl::pool_allocator", "hl::bound_allocator",
                         "pmr::unsynchronized_pool"};
  {
    std::list<int> a;
    hl::list<int> b;
    hl::bound::list<int> c(bound);
    std::pmr::list<int> d(&pmr);
    workload w("list<int>");
    list_case(w, names[0], a);
    list_case(w, names[1], b);
    list_case(w, names[2], c);
    list_case(w, names[3], d);
    w.run();
  }
  {
    std::map<int, int> a;
    hl::map<int, int> b;
    hl::bound::map<int, int> c(bound);
    std::pmr::map<int, int> d(&pmr);
    workload hint("map<int,int> insert at end"), index("map<int,int> operator[]");
    map_hint_case(hint, names[0], a);
    map_hint_case(hint, names[1], b);
    map_hint_case(hint, names[2], c);
    map_hint_case(hint, names[3], d);
    hint.run();
    map_index_case(index, names[0], a);
    map_index_case(index, names[1], b);
    map_index_case(index, names[2], c);
    map_index_case(index, names[3], d);
    index.run();
  }
  {
    std::set<int> a;
    hl::set<int> b;
    hl::bound::set<int> c(bound);
    std::pmr::set<int> d(&pmr);
    workload w("set<int>");
    set_case(w, names[0], a);
    set_case(w, names[1], b);
    set_case(w, names[2], c);
    set_case(w, names[3], d);
    w.run();
  }
  {
    workload w("string growth");
    string_case(w, names[0], [] { return std::string(); });
    string_case(w, names[1], [] { return hl::string(); });
    string_case(w, names[2], [&] { return hl::bound::string(bound); });
    string_case(w, names[3], [&] { return std::pmr::string(&pmr); });
    w.run();
  }
  hl_allocator_destroy(mine);
  return 0;
}
