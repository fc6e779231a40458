// Included by a.cc: an inline function's store, reported here.
#pragma once
#include <functional>

inline void util_store(long a, long b, long c) {
  std::function<void()> g = [a, b, c] {};
  g();
}
