// Must not compile: a 96-byte target in a 32-byte inplace_function. With
// -DHL_CONTROL the target fits, proving the file is otherwise valid.
#include "heaplint/inplace_function.hpp"

struct big {
#ifdef HL_CONTROL
  char data[32];
#else
  char data[96];
#endif
  int operator()() const { return data[0]; }
};

int main() {
  hl::inplace_function<int(), 32> f = big{};
  return f();
}
