#include "loop.h"
void b(Loop &l, long x, long y, long z) {
  l.post([x, y, z, u = y, v = z] {});
}
