#include "shared.h"
// A local only called: the fix retypes it.
void u1(long a, long b, long c) {
  std::function<void()> cb = [a, b, c] {};
  cb();
}
