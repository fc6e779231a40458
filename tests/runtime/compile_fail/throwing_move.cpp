// Must not compile: a target whose move constructor may throw (issue 11's
// example). An inplace function moves its target on every move of its own,
// and those moves are noexcept. With -DHL_CONTROL the move is noexcept.
#include "heaplint/inplace_function.hpp"

struct F {
  long v;
  F() : v(1) {}
  F(const F&) = default;
#ifdef HL_CONTROL
  F(F&& o) noexcept : v(o.v) {}
#else
  F(F&& o) noexcept(false) : v(o.v) {}
#endif
  int operator()(int x) const { return static_cast<int>(v) + x; }
};

int main() {
  hl::inplace_function<int(int), 8> f = F{};
  return f(0);
}
