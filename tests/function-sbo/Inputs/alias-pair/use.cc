#include "client.h"

// The first five values hold 24 bytes: on the heap in a std::function of
// libstdc++ (16-byte buffer), inline in hl::inplace_function<..., 24>.
void use(Client &c, long x, long y, long z) {
  c.get([x, y, z](std::size_t a, std::size_t b) { return a + b + x + y + z > 0; });
  c.post([x, y, z](std::size_t a, std::size_t b) { return a * b + x + y + z > 0; });
  c.alpha([x, y, z](int v) { return (int)(v + x + y + z); });
  c.beta([x, y, z](int v) { return (int)(v * x + y + z); });
  c.job([x, y, z] { return x + y + z; });
  long u = x * y, w = y * z;
  c.inner([x, y, z, u, w] { (void)(x + y + z + u + w); });  // 40 bytes
  c.inner([x, y, z, u, w] { (void)(x - y - z - u - w); });  // 40 bytes
  c.wrap([x] { (void)x; });                                  // 8: inline
}
