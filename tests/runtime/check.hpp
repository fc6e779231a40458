// CHECK for the C++ runtime tests: reports a failed condition with its line
// and carries on, so one run shows every failure; main returns failures().
#ifndef HEAPLINT_TESTS_RUNTIME_CHECK_HPP
#define HEAPLINT_TESTS_RUNTIME_CHECK_HPP

#include <cstdio>

namespace hl_test {
// A function's static rather than an inline variable: C++11 tests use it too.
inline int& failed() {
  static int n = 0;
  return n;
}

inline int failures() {
  if (failed()) std::fprintf(stderr, "%d check(s) failed\n", failed());
  return failed() ? 1 : 0;
}
}  // namespace hl_test

#define CHECK(cond)                                                                           \
  do {                                                                                        \
    if (!(cond)) {                                                                            \
      std::fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond);           \
      hl_test::failed()++;                                                                      \
    }                                                                                         \
  } while (0)

#endif
