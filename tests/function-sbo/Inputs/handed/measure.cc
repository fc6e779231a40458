// Counts the global operator new calls of use().
#include <count_new.hpp>

#include <cstdio>

long use(const char *s, const char *e, long x, long y, long z);

int main() {
  const char text[] = "a,bb,ccc";
  unsigned long before = hl_count::allocations();
  long r = use(text, text + sizeof text - 1, 1, 2, 3);
  unsigned long after = hl_count::allocations();
  std::printf("allocations: %lu\n", after - before);
  return r > 0 ? 0 : 1;
}
