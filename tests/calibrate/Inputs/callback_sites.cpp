// Stores into my::Callback (callback.h), each one on one line and counted
// against the global operator new: run, the program prints "<line>
// <allocations> <label>" per store, which hl-groundtruth compares with
// heaplint's warnings under the profile 'heaplint calibrate' measured.
#include <count_new.hpp>

#include <cstdio>
#include <memory>
#include <string>

#include "callback.h"

static unsigned long before;
static void begin() { before = hl_count::allocations(); }
static void end(int line, const char *label) {
  std::printf("%d %lu %s\n", line, hl_count::allocations() - before, label);
}
template <class... T> void use(const T &...) {}

struct alignas(16) Wide16 { char c[16]; void operator()() const {} };
struct alignas(32) Wide32 { char c[32]; void operator()() const {} };
struct MoveMayThrow {
  long x = 1;
  MoveMayThrow() = default;
  MoveMayThrow(const MoveMayThrow &) = default;
  MoveMayThrow(MoveMayThrow &&o) noexcept(false) : x(o.x) {}
  void operator()() const {}
};
struct CopyMayThrow {
  long x = 1;
  CopyMayThrow() = default;
  CopyMayThrow(const CopyMayThrow &o) noexcept(false) : x(o.x) {}
  CopyMayThrow(CopyMayThrow &&o) noexcept : x(o.x) {}
  void operator()() const {}
};
static void f0() {}

int main() {
  long a = 1, b = 2, c = 3, d = 4;
  std::string s = "short";
  { begin(); my::Callback<void()> cb = [a] { use(a); }; end(__LINE__, "8-byte lambda"); }
  { begin(); my::Callback<void()> cb = [a, b, c] { use(a, b, c); }; end(__LINE__, "24-byte lambda"); }
  { begin(); my::Callback<void()> cb = [a, b, c, d] { use(a, b, c, d); }; end(__LINE__, "32-byte lambda"); }
  { begin(); my::Callback<void()> cb = [s] { use(s); }; end(__LINE__, "lambda capturing a std::string"); }
  { begin(); my::Callback<void()> cb = [p = std::unique_ptr<int>()] { use(p); }; end(__LINE__, "move-only lambda"); }
  { begin(); my::Callback<void()> cb = Wide16{}; end(__LINE__, "alignas(16) functor"); }
  { begin(); my::Callback<void()> cb = Wide32{}; end(__LINE__, "alignas(32) functor"); }
  { begin(); my::Callback<void()> cb = MoveMayThrow{}; end(__LINE__, "functor whose move may throw"); }
  { begin(); my::Callback<void()> cb = CopyMayThrow{}; end(__LINE__, "functor whose copy may throw"); }
  { begin(); my::Callback<void()> cb = &f0; end(__LINE__, "function pointer"); }
  { my::Callback<void()> cb; begin(); cb = [a, b, c, d] { use(a, b, c, d); }; end(__LINE__, "assigned 32-byte lambda"); }
  { my::Callback<void()> cb; begin(); cb = [a] { use(a); }; end(__LINE__, "assigned 8-byte lambda"); }
  { auto big = [a, b, c, d] { use(a, b, c, d); }; begin(); my::Callback<void()> cb(big); end(__LINE__, "copy of a 32-byte lambda"); }
}
