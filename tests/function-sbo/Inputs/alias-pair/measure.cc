// Counts the global operator new calls of use(): the values stored into
// the retyped aliases stop allocating.
#include <count_new.hpp>

#include <cstdio>

#include "client.h"

void use(Client &c, long x, long y, long z);

int main() {
  Client c;
  unsigned long before = hl_count::allocations();
  use(c, 1, 2, 3);
  unsigned long after = hl_count::allocations();
  std::printf("allocations: %lu\n", after - before);
  return c.run() > 0 ? 0 : 1;
}
