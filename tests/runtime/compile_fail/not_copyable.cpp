// Must not compile: a move-only target in a copyable inplace_function. With
// -DHL_CONTROL it goes into an inplace_move_function.
#include <memory>

#include "heaplint/inplace_function.hpp"

struct owner {
  std::unique_ptr<int> p;
  int operator()() const { return *p; }
};

int main() {
#ifdef HL_CONTROL
  hl::inplace_move_function<int(), 8> f = owner{std::unique_ptr<int>(new int(1))};
#else
  hl::inplace_function<int(), 8> f = owner{std::unique_ptr<int>(new int(1))};
#endif
  return f();
}
