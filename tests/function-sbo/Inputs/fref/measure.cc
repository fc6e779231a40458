// Counts the global operator new calls of a(): the callables it hands to
// for_each_item(), maybe() and visit(), 24 bytes each, over libstdc++'s 16.
#include <count_new.hpp>

#include <cstdio>
#include <vector>

long a(const std::vector<int> &v, long x, long y, long z);

int main() {
  std::vector<int> v{1, 2, 3};
  unsigned long before = hl_count::allocations();
  long r = a(v, 1, 2, 3);
  std::printf("allocations: a %lu\n", hl_count::allocations() - before);
  return r > 0 ? 0 : 1;
}
