// Must not compile: a 64-aligned target in an inplace_function aligned to 16.
// With -DHL_CONTROL the target's alignment fits, proving the file is
// otherwise valid.
#include "heaplint/inplace_function.hpp"

#ifdef HL_CONTROL
struct alignas(16) wide {
#else
struct alignas(64) wide {
#endif
  char data[16];
  int operator()() const { return data[0]; }
};

int main() {
  hl::inplace_function<int(), 64, 16> f = wide{};
  return f();
}
