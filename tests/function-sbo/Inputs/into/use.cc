#include "guard.h"

// scope_exit's values hold 24 and 32 bytes, Timer's 24, Sink's and
// Pair's 24: each on the heap in a std::function of libstdc++ (16-byte
// buffer).
long use(long x, long y, long z) {
  long r = 0;
  {
    auto g = detail::scope_exit([&] { r += x + y; });
    auto moved = std::move(g);
  }
  {
    auto g = detail::scope_exit([&] { r += x + y + z; });
  }
  Timer t([&r, x, y](int n) { r += n * x * y; });
  t.fire(2);
  Sink s([x, y, z] { return x + y + z; });
  std::function<long()> made = [x, y, z] { return x * y * z; };
  Sink other(made);
  Pair pair([x, y, z] { return x - y - z; });
  return r + s.get() + other.get() + pair.get();
}
