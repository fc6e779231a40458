// Counts the global operator new calls of add_a() and add_b(): the values
// stored into Hooks::hooks_ that allocate are the ones retyping it removes.
#include <count_new.hpp>

#include <cstdio>

#include "hooks.h"

int main() {
  Hooks h;
  unsigned long before = hl_count::allocations();
  h.add_a(1, 2, 3);
  unsigned long after_a = hl_count::allocations();
  h.add_b(1, 2, 3, 4);
  unsigned long after_b = hl_count::allocations();
  std::printf("allocations: add_a %lu, add_b %lu\n", after_a - before, after_b - after_a);
  return h.fire("x") == 2 ? 0 : 1;
}
