// hl::pool_allocator's inline node path (heaplint/detail/tcache.h), linked
// against the release runtime, where it is on: the size class computed at
// compile time is the one the allocator serves, blocks come back to their
// chunks (or, of the chunk their class carves from, to the bin), the
// statistics balance (after hl_trim gives back what waits in
// the bins), frees by another thread and the exit of a thread that still
// has blocks in its bins keep the books straight.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <list>
#include <map>
#include <thread>
#include <utility>
#include <vector>

#include "check.hpp"
#include "heaplint/containers.hpp"

static_assert(HL_TCACHE_INLINE, "this test is about the inline path of the release build");

// Class sizes, as heaplint/alloc.h lists them.
static std::size_t class_size(std::size_t index) {
  if (index < 8) return (index + 1) * 8;
  std::size_t base = std::size_t(64) << ((index - 8) / 4);
  return base + ((index - 8) % 4 + 1) * (base / 4);
}

template <std::size_t N, std::size_t A> struct alignas(A) blob {
  unsigned char bytes[N];
};

// One T through the inline path: its block is of the class computed at
// compile time, that class is the smallest the C allocator would pick for
// sizeof(T) at alignof(T) (hl_aligned_alloc's block has the same usable
// size), and the block is aligned for T.
template <class T> static void class_of_one() {
  using traits = hl::detail::node_class<T>;
  static_assert(traits::inline_path::value, "small enough for the inline path");
  hl::pool_allocator<T> a;
  T* p = a.allocate(1);
  void* q = hl_aligned_alloc(alignof(T), sizeof(T));
  std::size_t got = hl_usable_size(p);
  if (got != class_size(traits::index::value) || got != hl_usable_size(q))
    std::fprintf(stderr, "sizeof %zu alignof %zu: block %zu, class %zu, hl_aligned_alloc %zu\n", sizeof(T),
                 alignof(T), got, class_size(traits::index::value), hl_usable_size(q));
  CHECK(got == class_size(traits::index::value));
  CHECK(got == hl_usable_size(q));
  CHECK(reinterpret_cast<std::uintptr_t>(p) % alignof(T) == 0);
  hl_free(q);
  a.deallocate(p, 1);
}

template <std::size_t A> static void classes_at(std::integral_constant<std::size_t, 0>) {}
template <std::size_t A, std::size_t N> static void classes_at(std::integral_constant<std::size_t, N>) {
  class_of_one<blob<N, A>>();
  classes_at<A>(std::integral_constant<std::size_t, N - 1>());
}

static void classes_match() {
  classes_at<1>(std::integral_constant<std::size_t, 256>());
  classes_at<4>(std::integral_constant<std::size_t, 64>());
  classes_at<8>(std::integral_constant<std::size_t, 256 / 8>());
  classes_at<16>(std::integral_constant<std::size_t, 256 / 16>());
  // Beyond the inline path: larger and more aligned blocks still work.
  static_assert(!hl::detail::node_class<blob<257, 1>>::inline_path::value, "too large");
  static_assert(!hl::detail::node_class<blob<32, 32>>::inline_path::value, "too aligned");
  hl::pool_allocator<blob<32, 32>> over;
  blob<32, 32>* p = over.allocate(1);
  CHECK(reinterpret_cast<std::uintptr_t>(p) % 32 == 0);
  over.deallocate(p, 1);
}

static hl_pool_stats totals() {
  hl_trim();
  hl_pool_stats st;
  hl_totals(&st);
  return st;
}

// Fill and clear, over rounds: everything goes back (in_use), the frees
// are counted, and the chunks are reused rather than grown.
static void fill_and_clear() {
  hl_pool_stats before = totals();
  std::size_t chunks = 0;
  for (int round = 0; round < 5; round++) {
    hl::list<int> l;
    hl::map<int, long> m;
    for (int i = 0; i < 20000; i++) {
      l.push_back(i);
      m.emplace_hint(m.end(), i, i);
    }
    long sum = 0;
    for (auto& kv : m) sum += kv.second;
    CHECK(sum == 20000L * 19999 / 2);
    l.clear();
    m.clear();
    hl_pool_stats mid;
    hl_totals(&mid);
    if (round == 1) chunks = mid.chunks;
    if (round > 1) CHECK(mid.chunks <= chunks);
  }
  hl_pool_stats after = totals();
  CHECK(after.in_use == before.in_use);
  CHECK(after.allocations - before.allocations >= 5 * 40000);
  CHECK(after.frees - before.frees == after.allocations - before.allocations);
}

// The class statistics see inline frees at once, not only when the thread
// exits: in_use of the list node's class goes back after clear() (the
// blocks in the bin aside, given back by hl_trim).
struct list_node_like {
  void* prev;
  void* next;
  int value;
};

static void class_stats_see_inline_frees() {
  const std::size_t c = hl::detail::node_class<list_node_like>::index::value;
  hl_pool_stats before, full, after;
  hl_trim();
  hl_class_stats(c, &before);
  {
    hl::list<int> l;
    for (int i = 0; i < 5000; i++) l.push_back(i);
    hl_class_stats(c, &full);
    CHECK(full.in_use >= before.in_use + 5000);
  }
  hl_trim();
  hl_class_stats(c, &after);
  CHECK(after.in_use == before.in_use);
  CHECK(after.frees >= before.frees + 5000);
  CHECK(after.high_water >= before.in_use + 5000);
}

// A node freed into the chunk its class carves from goes back onto the
// thread's bin: the next node of that class is the same block, still in
// the cache; the statistics count the free and the new allocation.
static void freed_block_comes_back_first() {
  const std::size_t c = hl::detail::node_class<list_node_like>::index::value;
  hl::pool_allocator<list_node_like> a;
  hl_trim();  // empty bins: the next allocation refills from the current chunk
  hl_pool_stats before, after;
  hl_class_stats(c, &before);
  list_node_like* p = a.allocate(1);
  list_node_like* keep = a.allocate(1);
  a.deallocate(p, 1);
  list_node_like* q = a.allocate(1);
  CHECK(q == p);
  hl_class_stats(c, &after);
  CHECK(after.frees == before.frees + 1);
  CHECK(after.allocations - after.frees == before.allocations - before.frees +
                                               (after.in_use - before.in_use));
  a.deallocate(q, 1);
  a.deallocate(keep, 1);
}

// Blocks of class c that may wait in the calling thread besides the bin's
// last batch: the stack's, or the lean path's bound (HL_TCACHE_LEAN_BYTES'
// worth, taken by the bin before it goes back whole).
static std::size_t waiting(std::size_t c) {
  return HL_TCACHE_LEAN ? HL_TCACHE_LEAN_BYTES / class_size(c) : HL_TCACHE_STACK;
}

// A node of any chunk goes onto the thread's stack (up to HL_TCACHE_STACK),
// or with the lean path into the bin: freed from a chunk the class no
// longer carves from, it is still the next node of its class; those blocks
// are counted as in use until hl_trim gives them back. Without the stack
// (HEAPLINT_RUNTIME_NODE_STACK OFF, HL_TCACHE_STACK 0), only the bin's
// blocks wait in the thread.
static void any_chunk_comes_back_first() {
  const std::size_t c = hl::detail::node_class<list_node_like>::index::value;
  hl::pool_allocator<list_node_like> a;
  hl_pool_stats before, held, after;
  hl_trim();
  hl_class_stats(c, &before);
  std::vector<list_node_like*> nodes;
  for (int i = 0; i < 20000; i++) nodes.push_back(a.allocate(1));  // several chunks
  CHECK(hl_usable_size(nodes.front()) == class_size(c));
  // The first node's chunk is not the one the class carves from any more.
  CHECK((reinterpret_cast<std::uintptr_t>(nodes.front()) & hl_tcache_chunk_mask) !=
        (reinterpret_cast<std::uintptr_t>(nodes.back()) & hl_tcache_chunk_mask));
#if HL_TCACHE_STACK || HL_TCACHE_LEAN
  a.deallocate(nodes.front(), 1);
  CHECK(a.allocate(1) == nodes.front());
#endif
  for (list_node_like* p : nodes) a.deallocate(p, 1);
  // A stack's worth waits in the thread, and the bin's (at most the
  // current chunk's blocks, 64 KiB); the rest went back to their chunks.
  hl_class_stats(c, &held);
  if (held.in_use > before.in_use + waiting(c) + 65536 / class_size(c))
    std::fprintf(stderr, "held %zu, before %zu\n", held.in_use, before.in_use);
  CHECK(held.in_use <= before.in_use + waiting(c) + 65536 / class_size(c));
  hl_trim();
  hl_class_stats(c, &after);
  CHECK(after.in_use == before.in_use);
}

// Nodes made on one thread and freed on another (list moved across), and a
// thread that exits with blocks in its bins: all accounted for.
static void across_threads() {
  hl_pool_stats before = totals();
  std::vector<hl::list<int>> made(4);
  std::vector<std::thread> makers;
  for (auto& l : made)
    makers.emplace_back([&l] {
      for (int i = 0; i < 10000; i++) l.push_back(i);
      hl::map<int, int> scratch;  // leaves blocks in this thread's bins
      scratch[1] = 1;
    });
  for (auto& t : makers) t.join();
  std::thread freer([&made] {
    for (auto& l : made) {
      long sum = 0;
      for (int v : l) sum += v;
      CHECK(sum == 10000L * 9999 / 2);
      l.clear();
    }
  });
  freer.join();
  // Another thread takes over an exited thread's heap and its remote frees.
  std::thread heir([] {
    hl::list<int> l;
    for (int i = 0; i < 30000; i++) l.push_back(i);
  });
  heir.join();
  hl_pool_stats after = totals();
  CHECK(after.in_use == before.in_use);
}

// The lean path's bound (HEAPLINT_RUNTIME_NODE_LEAN): a thread that frees
// far more nodes than the bound, its own or (the event-loop pattern) only
// another thread's, keeps at most the bound's worth and the bin's last
// batch counted as in use; the rest went back to the chunks (their owner's
// for another thread's), whose memory can then be returned.
static void lean_bound_holds() {
#if HL_TCACHE_LEAN
  const std::size_t c = hl::detail::node_class<list_node_like>::index::value;
  const std::size_t n = 8 * waiting(c);
  const std::size_t most = waiting(c) + 65536 / class_size(c);
  hl::pool_allocator<list_node_like> a;
  hl_pool_stats before, held;
  hl_trim();
  hl_class_stats(c, &before);
  std::vector<list_node_like*> nodes;
  for (std::size_t i = 0; i < n; i++) nodes.push_back(a.allocate(1));
  for (list_node_like* p : nodes) a.deallocate(p, 1);
  hl_class_stats(c, &held);
  if (held.in_use > before.in_use + most) std::fprintf(stderr, "own: held %zu, before %zu\n", held.in_use, before.in_use);
  CHECK(held.in_use <= before.in_use + most);
  hl_trim();
  // Another thread's nodes only: this thread allocates, the freer never does.
  nodes.clear();
  for (std::size_t i = 0; i < n; i++) nodes.push_back(a.allocate(1));
  hl_class_stats(c, &before);
  std::thread freer([&] {
    for (list_node_like* p : nodes) a.deallocate(p, 1);
    hl_pool_stats mid;
    hl_class_stats(c, &mid);
    if (mid.in_use + n > before.in_use + most)
      std::fprintf(stderr, "remote: held %zu, before %zu\n", mid.in_use, before.in_use);
    CHECK(mid.in_use + n <= before.in_use + most);
  });
  freer.join();
  hl_trim();
#endif
}

int main() {
  classes_match();
  fill_and_clear();
  class_stats_see_inline_frees();
  freed_block_comes_back_first();
  any_chunk_comes_back_first();
  across_threads();
  lean_bound_holds();
  return hl_test::failures();
}
