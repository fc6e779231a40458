// hl::arena_resource and hl::pool_resource over an upstream: std::pmr
// containers on them make no global allocation beyond what the upstream is
// asked for, the upstream gets back everything it gave, reset() reuses the
// arena's memory, and a full arena without upstream throws std::bad_alloc.
#include <cstdio>
#include <list>
#include <map>
#include <memory_resource>
#include <new>
#include <string>
#include <vector>

#include "check.hpp"
#include "count_new.hpp"
#include "heaplint/memory_resource.hpp"

// Counts what it hands out, over std::pmr::new_delete_resource().
class counting_resource final : public std::pmr::memory_resource {
 public:
  int live = 0, calls = 0;
  std::size_t bytes = 0;

 private:
  void* do_allocate(std::size_t n, std::size_t align) override {
    void* p = std::pmr::new_delete_resource()->allocate(n, align);
    live++, calls++, bytes += n;
    return p;
  }
  void do_deallocate(void* p, std::size_t n, std::size_t align) override {
    live--, bytes -= n;
    std::pmr::new_delete_resource()->deallocate(p, n, align);
  }
  bool do_is_equal(const std::pmr::memory_resource& o) const noexcept override { return this == &o; }
};

static void arena_over_a_buffer() {
  alignas(std::max_align_t) static unsigned char buf[64 * 1024];
  unsigned long n = hl_count::count([] {
    hl::arena_resource frame(buf, sizeof buf, std::pmr::null_memory_resource());
    for (int round = 0; round < 3; round++) {
      {
        std::pmr::list<int> l(&frame);
        std::pmr::map<int, std::pmr::string> m(&frame);
        for (int i = 0; i < 200; i++) {
          l.push_back(i);
          m.emplace(i, "a string too long for any small-string buffer");
        }
        CHECK(l.size() == 200 && m.size() == 200);
      }
      hl_arena_stats st;
      hl_arena_stats_get(frame.get(), &st);
      CHECK(st.used > 200 * 24 && st.blocks == 0);
      frame.reset();
    }
    // Full, and no upstream to grow from.
    bool threw = false;
    try {
      void* p = frame.allocate(sizeof buf, 8);
      frame.deallocate(p, sizeof buf, 8);
    } catch (const std::bad_alloc&) {
      threw = true;
    }
    CHECK(threw);
  });
  CHECK(n == 0);
}

static void arena_grows_from_its_upstream() {
  counting_resource up;
  unsigned long n = hl_count::count([&] {
    hl::arena_resource arena(&up, 1024);
    CHECK(arena.upstream_resource() == &up && up.live == 1);
    std::pmr::vector<int> v(&arena);
    for (int i = 0; i < 10000; i++) v.push_back(i);
    int grown = up.calls;
    CHECK(grown > 1);
    arena.reset();
    std::pmr::vector<int> w(&arena);
    w.reserve(1000);
    CHECK(up.calls == grown);  // the kept block serves the next round
    CHECK(arena.is_equal(arena) && !arena.is_equal(*std::pmr::new_delete_resource()));
  });
  CHECK(up.live == 0 && up.bytes == 0);
  // The upstream's own allocations are the only global ones.
  CHECK(n == static_cast<unsigned long>(up.calls));
}

static void pool_over_an_upstream() {
  counting_resource up;
  unsigned long n = hl_count::count([&] {
    hl::pool_resource pools(128 * 1024, &up);
    CHECK(up.calls == 1 && pools.upstream_resource() == &up);
    {
      std::pmr::list<int> l(&pools);
      std::pmr::map<int, int> m(&pools);
      for (int i = 0; i < 1000; i++) l.push_back(i), m[i] = i;
      CHECK(up.calls == 1);  // every node from the pools
      // Larger than the classes: straight to upstream, and back.
      void* big = pools.allocate(100000, 16);
      CHECK(up.calls == 2 && up.live == 2);
      pools.deallocate(big, 100000, 16);
      CHECK(up.live == 1);
    }
    hl_pool_stats st;
    hl_allocator_totals(pools.get(), &st);
    CHECK(st.in_use == 0 && st.allocations >= 2000);
    hl::pool_resource other(64 * 1024, &up);
    CHECK(!pools.is_equal(other) && pools.is_equal(pools));
  });
  CHECK(up.live == 0 && up.bytes == 0);
  CHECK(n == static_cast<unsigned long>(up.calls));

  // When the pools are full, requests go to upstream too.
  counting_resource small;
  {
    hl::pool_resource pools(32 * 1024, &small);
    std::pmr::list<long> l(&pools);
    for (int i = 0; i < 5000; i++) l.push_back(i);
    CHECK(small.calls > 1 && l.size() == 5000);
  }
  CHECK(small.live == 0);
}

int main() {
  arena_over_a_buffer();
  arena_grows_from_its_upstream();
  pool_over_an_upstream();
  return hl_test::failures();
}
