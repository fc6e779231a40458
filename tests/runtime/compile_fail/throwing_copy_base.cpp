// Must not compile: a target without a move constructor whose base has a
// user-provided copy constructor that may throw; it is moved by that copy.
// With -DHL_CONTROL the base's copy is noexcept.
#include "heaplint/inplace_function.hpp"

struct base {
  long v;
  base() : v(1) {}
#ifdef HL_CONTROL
  base(const base& o) noexcept : v(o.v) {}
#else
  base(const base& o) : v(o.v) {}
#endif
};

struct F : base {
  int operator()(int x) const { return static_cast<int>(v) + x; }
};

int main() {
  hl::inplace_function<int(int), 8> f = F{};
  return f(0);
}
