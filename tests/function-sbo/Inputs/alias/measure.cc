// Counts the global operator new calls of a() and b(): the values stored
// into a Callback that allocate are the ones retyping the alias removes.
#include <count_new.hpp>

#include <cstdio>

#include "bus.h"

void a(Bus &bus, long x, long y, long z);
void b(Bus &bus, const std::vector<std::string> &names, long x, long y, long z, long w);

int main() {
  Bus bus;
  std::vector<std::string> names{"a long enough name to allocate"};
  unsigned long before = hl_count::allocations();
  a(bus, 1, 2, 3);
  unsigned long after_a = hl_count::allocations();
  b(bus, names, 1, 2, 3, 4);
  unsigned long after_b = hl_count::allocations();
  std::printf("allocations: a %lu, b %lu\n", after_a - before, after_b - after_a);
  return bus.run() > 0 ? 0 : 1;
}
