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

double median(std::vector<double>& v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

template <class Body> double time_ns(Body body) {
  auto t0 = std::chrono::steady_clock::now();
  body();
  auto t1 = std::chrono::steady_clock::now();
  return std::chrono::duration<double, std::nano>(t1 - t0).count() / kIterations;
}

template <class Fn, std::size_t N> void construct_loop(const target<N>& t) {
  for (int i = 0; i < kIterations; i++) {
    Fn f(t);
    escape(f);
  }
}

template <class Fn> void call_loop(const Fn& f) {
  int acc = 0;
  for (int i = 0; i < kIterations; i++) {
    acc += f(i);
    asm volatile("" : "+r"(acc));
  }
}

template <class Fn, std::size_t N> unsigned long news_per_construction(const target<N>& t) {
  return hl_count::count([&] {
    Fn g(t);
    escape(g);
  });
}

// std::function and inplace_function take turns, repetition after
// repetition, so that a change in machine load hits both alike.
template <std::size_t N> void sizes() {
  using std_fn = std::function<int(int)>;
  using hl_fn = hl::inplace_function<int(int), 64>;
  target<N> t{};
  t.bytes[0] = 1;
  std_fn sf(t);
  hl_fn hf(t);
  escape(sf);
  escape(hf);
  std::vector<double> s_make, h_make, s_call, h_call;
  for (int r = 0; r < repetitions; r++) {
    s_make.push_back(time_ns([&] { construct_loop<std_fn>(t); }));
    h_make.push_back(time_ns([&] { construct_loop<hl_fn>(t); }));
    s_call.push_back(time_ns([&] { call_loop(sf); }));
    h_call.push_back(time_ns([&] { call_loop(hf); }));
  }
  std::printf("%zu std::function %.2f %.2f %lu\n", N, median(s_make), median(s_call),
              news_per_construction<std_fn>(t));
  std::printf("%zu hl::inplace_function<64> %.2f %.2f %lu\n", N, median(h_make), median(h_call),
              news_per_construction<hl_fn>(t));
  std::fflush(stdout);
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
