#include "bus.h"

void a(Bus &bus, long x, long y, long z) {
  bus.post([x, y, z] { (void)(x + y + z); });
  bus.post([x] { (void)x; });
  bus.later([x, y, z] { return x + y + z; });
}
