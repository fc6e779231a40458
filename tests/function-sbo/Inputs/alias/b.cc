#include "bus.h"

// Its copy constructor may throw, and it declares no move constructor: a
// move copies it.
struct Slow {
  Slow() = default;
  Slow(const Slow &o) : a(o.a), b(o.b), c(o.c) {}
  void operator()(int i) const { (void)(a + b + c + i); }
  long a = 1, b = 2, c = 3;
};

void b(Bus &bus, const std::vector<std::string> &names, long x, long y, long z, long w) {
  bus.post([x, y, z, w] { (void)(x + y + z + w); });
  bus.on(Slow());
  for (const std::string &n : names) bus.name([n](const std::string &s) { (void)(n.size() + s.size()); });
}
