#include "shared.h"
void unit5(long a, long b, long c) {
  std::function<void()> f = [a, b, c] {};
  std::function<void()> g = [a] {};
}
