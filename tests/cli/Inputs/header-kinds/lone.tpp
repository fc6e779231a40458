// No unit includes it, and it parses alone.
#pragma once
#include <functional>

inline void lone_store(long a, long b, long c) {
  std::function<void()> h = [a, b, c] {};
  h();
}
