#include "walk.h"

long a(const std::vector<int> &v, long x, long y, long z) {
  long sum = 0;
  for_each_item(v, [&sum, x, y](int i) { sum += i + x + y; });
  if (maybe([x, y, z] { return x + y + z > 0; })) sum++;
  Node leaf{nullptr, nullptr, 2}, root{&leaf, nullptr, 1};
  visit(&root, [&sum, x, y](Node *n) { sum += n->value + x + y; });
  return sum;
}
