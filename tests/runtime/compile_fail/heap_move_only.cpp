// Must not compile (C++23, where the library has std::move_only_function): it
// may hold its target on the heap. With -DHL_CONTROL the callable is stored
// itself.
#include <functional>

#include "heaplint/inplace_function.hpp"

int main() {
  auto lambda = [](int x) { return x; };
#ifdef HL_CONTROL
  hl::inplace_move_function<int(int), 32> f = lambda;
#else
  std::move_only_function<int(int)> heap = lambda;
  hl::inplace_move_function<int(int), 32> f = std::move(heap);
#endif
  return f(0);
}
