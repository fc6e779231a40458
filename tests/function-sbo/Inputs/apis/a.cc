#include "loop.h"
void a(Loop &l, long x, long y, long z) {
  l.post([x, y, z] {});
  l.post([x] {});
  l.call_after(5, [x, y, z, w = x] {});
}
