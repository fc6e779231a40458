// Must not compile (C++17): a std::any in an inplace_function would keep its
// heap-allocated value alive inside, and is refused even though it is not
// callable, so that the diagnostic says why. With -DHL_CONTROL the callable
// is stored itself.
#include <any>

#include "heaplint/inplace_function.hpp"

struct big {
  char data[24];
  int operator()() const { return data[0]; }
};

int main() {
#ifdef HL_CONTROL
  hl::inplace_function<int(), 32> f = big{};
#else
  std::any heap = big{};
  hl::inplace_function<int(), 32> f = heap;
#endif
  return f();
}
