// A program whose callbacks allocate: the round trip fixes it with heaplint,
// and its output must not change while the fixed stores stop allocating.
#include <count_new.hpp>
#include <cstdio>
#include <functional>
#include <map>
#include <vector>

// Each measured site reports "allocs: <site> <n>"; the program's own
// results are the "out:" lines.
#define MEASURE(site, ...)                                                  \
  do {                                                                      \
    unsigned long before_ = hl_count::allocations();                        \
    __VA_ARGS__;                                                            \
    std::printf("allocs: %s %lu\n", site, hl_count::allocations() - before_); \
  } while (0)

struct Scheduler {
  long base = 7;
  // A member of a class only this file sees.
  std::function<long(long)> scale;
  void configure(long a, long b, long c, long d) {
    scale = [this, a, b, c, d](long x) { return base + a * x + b + c + d; };
  }
};

static long total(long a, long b, long c, long d, long e) {
  long sum = 0;
  // A local callback: 40 bytes of captures.
  std::function<long()> step = [a, b, c, d, e] { return a + b + c + d + e; };
  for (int i = 0; i < 4; i++) sum += step();
  return sum;
}

// A node container filled in a loop: one node per insertion.
static long index_squares(int n) {
  std::map<int, long> index;
  for (int i = 0; i < n; i++) index[i] = static_cast<long>(i) * i;
  long sum = 0;
  for (const auto &entry : index) sum += entry.second;
  return sum;
}

int main() {
  long a = 1, b = 2, c = 3, d = 4, e = 5;
  long result = 0;
  MEASURE("local", result = total(a, b, c, d, e));
  std::printf("out: total %ld\n", result);

  std::vector<std::function<long()>> handlers;
  handlers.reserve(8);
  MEASURE("handlers", for (long i = 0; i < 8; i++) handlers.push_back([a, b, c, d, i] { return a + b + c + d + i; }));
  long sum = 0;
  for (auto &h : handlers) sum += h();
  std::printf("out: handlers %ld\n", sum);

  MEASURE("map", result = index_squares(100));
  std::printf("out: squares %ld\n", result);

  Scheduler s;
  MEASURE("member", s.configure(a, b, c, d));
  std::printf("out: scale %ld\n", s.scale(10));
  return 0;
}
