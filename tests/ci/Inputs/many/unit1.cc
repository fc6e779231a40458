#include "shared.h"
void unit1(long a, long b, long c) {
  std::function<void()> f = [a, b, c] {};
  std::function<void()> g = [a] {};
}
