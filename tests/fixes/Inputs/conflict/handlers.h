#pragma once
#include <functional>
// Two translation units see different lambdas here (WIDE or not): their
// fixes want different capacities for the same declaration.
#ifdef WIDE
#define HANDLER [a, b, c, d] {}
#else
#define HANDLER [a, b, c] {}
#endif
inline void install(long a, long b, long c, long d) {
  std::function<void()> handler = HANDLER;
  handler();
}
