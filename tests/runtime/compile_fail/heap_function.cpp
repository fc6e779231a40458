// Must not compile: a std::function stored in an inplace_function would keep
// its own heap-allocated target alive inside. With -DHL_CONTROL the callable
// itself is stored, proving the file is otherwise valid.
#include <functional>

#include "heaplint/inplace_function.hpp"

int main() {
  long a = 1, b = 2, c = 3;
  auto lambda = [a, b, c](int x) { return static_cast<int>(a + b + c) + x; };
#ifdef HL_CONTROL
  hl::inplace_function<int(int), 32> f = lambda;
#else
  std::function<int(int)> heap = lambda;
  hl::inplace_function<int(int), 32> f = heap;
#endif
  return f(0);
}
