#include "walk.h"

long for_each_item(const std::vector<int> &v, const std::function<void(int)> &f) {
  long n = 0;
  for (int x : v) {
    f(x);
    n++;
  }
  return n;
}

bool maybe(std::function<bool()> pred) { return pred && pred(); }
