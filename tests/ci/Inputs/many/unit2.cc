#include "shared.h"
void unit2(long a, long b, long c) {
  std::function<void()> f = [a, b, c] {};
  std::function<void()> g = [a] {};
}
