// Latency per call: how long each allocation and each free takes, read with
// the TSC around every call of a long mixed run on a heap fragmented first,
// which is what fixed-block allocation is for (constant time, no
// fragmentation) and what a mean hides.
//
//   hl_bench_latency ALLOCATOR CALLS [fenced]
//
// ALLOCATOR: std (malloc/free: glibc, or whatever run.sh preloads), pmr
// (std::pmr::unsynchronized_pool_resource over new/delete), hl (hl_malloc,
// hl_free), hl_node (hl::pool_allocator's inline node path, what a node
// container's allocate and deallocate run, for a node of the request's
// size; GCC and Clang builds), hl_pool (one hl_pool of 256-byte blocks
// over a static buffer: the fixed-block case, every request fits a block),
// hl_pool_stack (the same pool with HL_POOL_STACK: a stack of the last 128
// freed blocks' addresses, so that neither call touches the block),
// or floor (no allocator: a pointer bumped through a ring of 256-byte blocks
// of a static buffer, and a free that does nothing, through the same virtual
// call and the same timing: what the method itself reads for a call that
// costs almost nothing, its floor).
// 1. start-up: the allocator, and the record of the latencies, touched.
// 2. fragmentation: 100,000 allocations of random sizes (8 to 256 bytes),
//    then every other one freed, in random order (not timed).
// 3. the timed run: CALLS times, a random one of 20,000 slots: freed if it
//    holds a block (written to just before, as by its user), else given a
//    new one of random size; each call timed alone (rdtsc, lfence on both
//    sides), less the cost of timing nothing. The calls go through a
//    virtual function, alike for every allocator. This machine's TSC moves
//    in steps of about 10 ns: a figure of 0 or 10 is a call under 10-20 ns.
// fenced: an mfence after each of the caller's writes to a block (outside
// the timed region). The lfence around a call orders instructions, not
// stores: a write of the caller's that misses the cache is still pending
// when the next call is timed, and that call pays for the caller's line.
// With fenced, the line is the caller's, as intended; the figures are
// reported as "ALLOCATOR/fenced". Not what run.sh runs.
// Prints one tab-separated line: allocator, calls, then the median, p99,
// p99.9, p99.99 and largest latency in ns (the TSC calibrated against
// CLOCK_MONOTONIC_RAW over 50 ms).
//
// Between start-up and the end of the timed run the program makes no system
// call of its own; it marks both ends with prctl(PR_SET_NAME) so that
// `strace -f` shows which calls the allocator made in between (run.sh
// counts them for hl_pool and hl_pool_stack).
#include <sys/prctl.h>
#include <time.h>
#include <x86intrin.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory_resource>
#include <vector>

#include "heaplint/alloc.h"
#include "heaplint/pool.h"
#include "heaplint/pool_allocator.hpp"

namespace {

constexpr std::size_t kFragment = 100000;
constexpr std::size_t kSlots = 20000;
constexpr std::size_t kMaxSize = 256;
constexpr std::size_t kPoolBlocks = kFragment + kSlots;

// Sized for the pool with the stack; the plain pool is given exactly
// HL_POOL_STATIC_BYTES of it, as before the stack existed.
alignas(64) unsigned char pool_memory[HL_POOL_STATIC_BYTES_STACK(kMaxSize, kPoolBlocks)];

// xorshift64*: the same sizes and slots in every process and for every allocator.
std::uint64_t rng_state = 0x9e3779b97f4a7c15u;
std::uint64_t rng() {
  rng_state ^= rng_state >> 12;
  rng_state ^= rng_state << 25;
  rng_state ^= rng_state >> 27;
  return rng_state * 0x2545f4914f6cdd1du;
}
std::size_t random_size() { return 8 + rng() % (kMaxSize - 7); }

struct allocator {
  virtual void *alloc(std::size_t size) = 0;
  virtual void free(void *p, std::size_t size) = 0;
  virtual ~allocator() = default;
};

struct std_malloc final : allocator {
  void *alloc(std::size_t size) override { return std::malloc(size); }
  void free(void *p, std::size_t) override { std::free(p); }
};

struct pmr_pool final : allocator {
  std::pmr::unsynchronized_pool_resource r{std::pmr::new_delete_resource()};
  void *alloc(std::size_t size) override { return r.allocate(size, 8); }
  void free(void *p, std::size_t size) override { r.deallocate(p, size, 8); }
};

struct hl_process final : allocator {
  void *alloc(std::size_t size) override { return hl_malloc(size); }
  void free(void *p, std::size_t) override { hl_free(p); }
};

#if HL_TCACHE_INLINE
// hl::pool_allocator's inline node path (a pop off the thread's bin, a push
// onto the block's chunk), for a node of the request's size. A container's
// node class is a constant; here it is looked up in a table, as hl_malloc
// does, not computed (class_of at run time is a loop whose exit the branch
// predictor misses for sizes above 64, twice per call).
struct hl_node_path final : allocator {
  std::uint8_t table[kMaxSize / 8 + 1];
  hl_node_path() {
    for (std::size_t i = 0; i <= kMaxSize / 8; i++)
      table[i] = static_cast<std::uint8_t>(hl::detail::class_of(i ? i * 8 : 8));
  }
  std::size_t cls(std::size_t size) const { return table[(size + 7) / 8]; }
  void *alloc(std::size_t size) override { return hl::detail::node_allocate(cls(size)); }
  void free(void *p, std::size_t size) override { hl::detail::node_deallocate(cls(size), p); }
};
#endif

// The floor of the method: the cheapest call there is, timed as the others.
// The ring's blocks are handed out again while "live": nothing reads them.
struct floor_bump final : allocator {
  unsigned char *at = pool_memory, *end = pool_memory + kSlots * kMaxSize;
  // Start-up: the ring's pages faulted in now, as hl_pool's buffer is.
  floor_bump() { std::memset(pool_memory, 0, kSlots * kMaxSize); }
  void *alloc(std::size_t) override {
    void *p = at;
    at = at + kMaxSize == end ? pool_memory : at + kMaxSize;
    return p;
  }
  void free(void *, std::size_t) override {}
};

struct hl_static_pool final : allocator {
  hl_pool *pool = nullptr;
  explicit hl_static_pool(unsigned flags) {
    hl_pool_config cfg = {};
    cfg.name = "latency";
    cfg.block_size = kMaxSize;
    cfg.flags = flags;
    std::size_t bytes = flags & HL_POOL_STACK ? HL_POOL_STATIC_BYTES_STACK(kMaxSize, kPoolBlocks)
                                              : HL_POOL_STATIC_BYTES(kMaxSize, kPoolBlocks);
    // Start-up: the pages of the buffer, faulted in now rather than in the run.
    std::memset(pool_memory, 0, bytes);
    if (hl_pool_create_static(&pool, pool_memory, bytes, &cfg) != HL_OK) std::abort();
  }
  void *alloc(std::size_t) override { return hl_pool_alloc(pool); }
  void free(void *p, std::size_t) override { hl_pool_free(pool, p); }
};

inline std::uint64_t tsc() {
  _mm_lfence();
  std::uint64_t t = __rdtsc();
  _mm_lfence();
  return t;
}

double now_ns() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
  return ts.tv_sec * 1e9 + ts.tv_nsec;
}

// TSC ticks per ns, over 50 ms of CLOCK_MONOTONIC_RAW.
double ticks_per_ns() {
  double t0 = now_ns();
  std::uint64_t c0 = tsc();
  while (now_ns() - t0 < 50e6) {
  }
  double t1 = now_ns();
  std::uint64_t c1 = tsc();
  return static_cast<double>(c1 - c0) / (t1 - t0);
}

struct block {
  void *p;
  std::size_t size;
};

}  // namespace

int main(int argc, char **argv) {
  bool fenced = argc == 4 && std::strcmp(argv[3], "fenced") == 0;
  bool args = argc == 3 || fenced;
  double count = args ? std::strtod(argv[2], nullptr) : 0;
  allocator *a = nullptr;
  if (args && std::strcmp(argv[1], "std") == 0) a = new std_malloc;
  if (args && std::strcmp(argv[1], "pmr") == 0) a = new pmr_pool;
  if (args && std::strcmp(argv[1], "hl") == 0) a = new hl_process;
  if (args && std::strcmp(argv[1], "hl_pool") == 0) a = new hl_static_pool(0);
  if (args && std::strcmp(argv[1], "hl_pool_stack") == 0) a = new hl_static_pool(HL_POOL_STACK);
  if (args && std::strcmp(argv[1], "floor") == 0) a = new floor_bump;
#if HL_TCACHE_INLINE
  if (args && std::strcmp(argv[1], "hl_node") == 0) a = new hl_node_path;
#endif
  if (!a || count < 1) {
    std::fprintf(stderr, "usage: hl_bench_latency std|pmr|hl|hl_node|hl_pool|hl_pool_stack|floor CALLS [fenced]\n");
    return 2;
  }
  std::size_t calls = static_cast<std::size_t>(count);
  double per_ns = ticks_per_ns();
  std::vector<std::uint32_t> ticks(calls, 1);
  std::vector<block> fragment(kFragment), slots(kSlots, block{nullptr, 0});
  std::vector<std::size_t> order(kFragment);
  for (std::size_t i = 0; i < kFragment; i++) order[i] = i;
  for (std::size_t i = kFragment - 1; i > 0; i--) std::swap(order[i], order[rng() % (i + 1)]);
  // What timing nothing costs: subtracted from every call.
  std::vector<std::uint32_t> empty(10001);
  for (auto &e : empty) {
    std::uint64_t t0 = tsc();
    e = static_cast<std::uint32_t>(tsc() - t0);
  }
  std::nth_element(empty.begin(), empty.begin() + 5000, empty.end());
  std::uint32_t overhead = empty[5000];

  prctl(PR_SET_NAME, "hl-timed");
  for (auto &b : fragment) {
    b.size = random_size();
    if (!(b.p = a->alloc(b.size))) std::abort();
  }
  for (std::size_t i = 0; i < kFragment; i += 2) a->free(fragment[order[i]].p, fragment[order[i]].size);
  for (std::size_t i = 0; i < calls; i++) {
    block &s = slots[rng() % kSlots];
    std::uint64_t t0, t1;
    if (s.p) {
      // As a caller does, which used the block before freeing it: the
      // block's cache line is the caller's cost, not the allocator's.
      *static_cast<volatile unsigned char *>(s.p) = 2;
      if (fenced) _mm_mfence();
      t0 = tsc();
      a->free(s.p, s.size);
      t1 = tsc();
      s.p = nullptr;
    } else {
      std::size_t size = random_size();
      t0 = tsc();
      void *p = a->alloc(size);
      t1 = tsc();
      if (!p) std::abort();
      s = {p, size};
      static_cast<unsigned char *>(p)[0] = 1;
      if (fenced) _mm_mfence();
    }
    std::uint64_t d = t1 - t0;
    ticks[i] = static_cast<std::uint32_t>(d > overhead ? std::min<std::uint64_t>(d - overhead, UINT32_MAX) : 0);
  }
  prctl(PR_SET_NAME, "hl-done");

  std::sort(ticks.begin(), ticks.end());
  auto at = [&](double q) { return ticks[std::min(calls - 1, static_cast<std::size_t>(q * calls))] / per_ns; };
  std::printf("%s%s\t%zu\t%.1f\t%.1f\t%.1f\t%.1f\t%.1f\n", argv[1], fenced ? "/fenced" : "", calls, at(0.5), at(0.99),
              at(0.999), at(0.9999), ticks[calls - 1] / per_ns);
  return 0;
}
