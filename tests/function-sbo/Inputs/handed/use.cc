#include "split.h"
long use(const char *s, const char *e, long x, long y, long z) {
  long r = 0;
  split(s, e, ',', [&r, x, y, z](const char *a, const char *b) { r += (b - a) * x * y * z; });
  each_twice(3, [&r, x, y](int i) { r += i * x * y; });
  relay(2, [&r, x, z](int i) { r += i * x * z; });
  return r;
}
