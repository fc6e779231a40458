// A third file: the big value of Mixed::cb, and the functions that copy
// their parameter.
#include "handlers.h"

std::function<void()> opaque_source() {
  long a = 1, b = 2, c = 3, d = 4;
  return [a, b, c, d] { (void)(a + b + c + d); };
}
void set_mixed_big(Mixed &m) {
  long a = 1, b = 2, c = 3, d = 4;
  m.cb = [a, b, c, d] { (void)(a + b + c + d); };
}
void run(std::function<void()> f) { f(); }
void forward_to(std::function<void()> f) { run(f); }
void later(std::function<void()> cb) {
  auto l = [cb] { cb(); };
  l();
}
