#include "shared.h"
void unit6(long a, long b, long c) {
  std::function<void()> f = [a, b, c] {};
  std::function<void()> g = [a] {};
}
