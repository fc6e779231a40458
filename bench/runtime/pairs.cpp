// Raw allocate/free pairs of a 24-byte block (a list<int> node), 10,000
// allocations then 10,000 frees, repeated: glibc malloc, hl_malloc (the
// process-wide pools), a private hl_allocator, and an hl_pool (no size
// class, no thread lookup), plain and with HL_POOL_STACK (hl_pool_stack:
// the last 128 frees on a stack of addresses, the rest on the list). The
// contenders take turns, round after round.
// Prints one tab-separated line per contender: name, median ns per pair.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "heaplint/alloc.h"
#include "heaplint/pool.h"

namespace {

constexpr int kBlocks = 10000;
constexpr std::size_t kSize = 24;
void* blocks[kBlocks];

struct contender {
  const char* name;
  void* (*alloc)(void* ctx);
  void (*free)(void* ctx, void* p);
  void* ctx;
  std::vector<double> runs;
};

double round_ns(const contender& c) {
  auto t0 = std::chrono::steady_clock::now();
  for (int i = 0; i < kBlocks; i++) blocks[i] = c.alloc(c.ctx);
  asm volatile("" : : "r"(blocks) : "memory");
  for (int i = 0; i < kBlocks; i++) c.free(c.ctx, blocks[i]);
  auto t1 = std::chrono::steady_clock::now();
  return std::chrono::duration<double, std::nano>(t1 - t0).count() / kBlocks;
}

}  // namespace

int main(int argc, char** argv) {
  int repetitions = argc > 1 ? std::atoi(argv[1]) : 41;
  hl_allocator* a = nullptr;
  hl_pool* pool = nullptr;
  hl_pool* stacked = nullptr;
  hl_pool_config pc{};
  pc.name = "pairs";
  pc.block_size = kSize;
  pc.align = 8;
  if (hl_allocator_create(&a, nullptr) != HL_OK || hl_pool_create(&pool, &pc) != HL_OK) return 1;
  pc.flags = HL_POOL_STACK;
  if (hl_pool_create(&stacked, &pc) != HL_OK) return 1;

  std::vector<contender> cs = {
      {"malloc", [](void*) { return std::malloc(kSize); }, [](void*, void* p) { std::free(p); },
       nullptr, {}},
      {"hl_malloc", [](void*) { return hl_malloc(kSize); }, [](void*, void* p) { hl_free(p); },
       nullptr, {}},
      {"hl_allocator", [](void* c) { return hl_allocator_malloc(static_cast<hl_allocator*>(c), kSize); },
       [](void* c, void* p) { hl_allocator_free(static_cast<hl_allocator*>(c), p); }, a, {}},
      {"hl_pool", [](void* c) { return hl_pool_alloc(static_cast<hl_pool*>(c)); },
       [](void* c, void* p) { hl_pool_free(static_cast<hl_pool*>(c), p); }, pool, {}},
      {"hl_pool_stack", [](void* c) { return hl_pool_alloc(static_cast<hl_pool*>(c)); },
       [](void* c, void* p) { hl_pool_free(static_cast<hl_pool*>(c), p); }, stacked, {}},
  };
  for (auto& c : cs) round_ns(c);
  for (int r = 0; r < repetitions; r++)
    for (auto& c : cs) c.runs.push_back(round_ns(c));
  for (auto& c : cs) {
    std::sort(c.runs.begin(), c.runs.end());
    std::printf("%s\t%.2f\n", c.name, c.runs[c.runs.size() / 2]);
  }
  hl_pool_destroy(stacked);
  hl_pool_destroy(pool);
  hl_allocator_destroy(a);
  return 0;
}
