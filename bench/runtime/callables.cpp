// Callables of 8 to 64 bytes: construct+destroy and call cost of
// std::function (inline for small trivially copyable targets, on the heap
// above) against hl::inplace_function<int(int), 64>, with the global
// allocations of one construction. Built at -O2 and at -O0 from this file.
// Prints one line per case: "size wrapper construct_ns call_ns allocations".
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <vector>

#include "count_new.hpp"
#include "heaplint/inplace_function.hpp"

namespace {

constexpr int kIterations = 200000;
int repetitions = 21;

template <class T> void escape(T& v) { asm volatile("" : : "r"(&v) : "memory"); }

// A trivially copyable target of exactly N bytes, like a lambda capturing
// N bytes by value.
template <std::size_t N> struct target {
  unsigned char bytes[N];
  int operator()(int x) const { return x + bytes[0] + bytes[N - 1]; }
};

template <class Body> double median_ns(Body body) {
  std::vector<double> runs;
  for (int r = 0; r < repetitions; r++) {
    auto t0 = std::chrono::steady_clock::now();
    body();
    auto t1 = std::chrono::steady_clock::now();
    runs.push_back(std::chrono::duration<double, std::nano>(t1 - t0).count() / kIterations);
  }
  std::sort(runs.begin(), runs.end());
  return runs[runs.size() / 2];
}

template <class Fn, std::size_t N> void measure(const char* wrapper) {
  target<N> t{};
  t.bytes[0] = 1;
  double construct = median_ns([&] {
    for (int i = 0; i < kIterations; i++) {
      Fn f(t);
      escape(f);
    }
  });
  Fn f(t);
  escape(f);
  double call = median_ns([&] {
    int acc = 0;
    for (int i = 0; i < kIterations; i++) {
      acc += f(i);
      asm volatile("" : "+r"(acc));
    }
  });
  unsigned long news = hl_count::count([&] {
    Fn g(t);
    escape(g);
  });
  std::printf("%zu %s %.2f %.2f %lu\n", N, wrapper, construct, call, news);
  std::fflush(stdout);
}

template <std::size_t N> void sizes() {
  measure<std::function<int(int)>, N>("std::function");
  measure<hl::inplace_function<int(int), 64>, N>("hl::inplace_function<64>");
}

}  // namespace

int main(int argc, char** argv) {
  if (argc > 1) repetitions = std::atoi(argv[1]);
  sizes<8>();
  sizes<16>();
  sizes<24>();
  sizes<32>();
  sizes<48>();
  sizes<64>();
  return 0;
}
