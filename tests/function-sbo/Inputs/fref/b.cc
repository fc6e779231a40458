#include "walk.h"

void b(long x, long y, long z) { elsewhere([x, y, z](long w) { (void)(x + y + z + w); }); }

long c(Node *n, long x, long y) {
  long sum = 0;
  visit_all(n, [&sum, x, y](Node *m) { sum += m->value * x * y; });
  return sum;
}
