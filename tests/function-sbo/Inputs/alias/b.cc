#include "bus.h"

void b(Bus &bus, const std::vector<std::string> &names, long x, long y, long z, long w) {
  bus.post([x, y, z, w] { (void)(x + y + z + w); });
  for (const std::string &n : names) bus.on([n](int i) { (void)(n.size() + i); });
}
