// Counts the global operator new calls of use(): the values passed to the
// retyped parameters stop allocating.
#include <count_new.hpp>

#include <cstdio>

long use(long x, long y, long z);

int main() {
  unsigned long before = hl_count::allocations();
  long r = use(1, 2, 3);
  unsigned long after = hl_count::allocations();
  std::printf("allocations: %lu\n", after - before);
  return r > 0 ? 0 : 1;
}
