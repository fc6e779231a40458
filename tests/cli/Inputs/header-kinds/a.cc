#include "box.h"
#include "util.ipp"

void use(long x) {
  Box<long> b;
  b.set(1, 2, 3);
  std::function<void()> own = [x, y = x, z = x] {};
  own();
}
