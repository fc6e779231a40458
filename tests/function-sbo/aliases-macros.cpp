// Through type aliases, typedefs and macros: the warning lands at the
// expansion site in the user's file.
//
// RUN: %heaplint %s -- %libstdcxx | %FileCheck %s --check-prefix=GNU --implicit-check-not=warning:
#include <functional>

using Callback = std::function<void(int)>;
typedef std::function<void()> Task;
template <class Sig> using Fn = std::function<Sig>;
#define MAKE_TASK(x) Task([x, y = 1L, z = 2L] { (void)x, (void)y, (void)z; })
#define STORE(var, ...) var = __VA_ARGS__

void f(long a, long b, long c) {
  // GNU: aliases-macros.cpp:[[@LINE+1]]:17: warning: std::function<void (int)> stores this lambda on the heap: 24 bytes
  Callback cb = [a, b, c](int) {};
  // GNU: aliases-macros.cpp:[[@LINE+1]]:12: warning: std::function<void ()> stores this lambda on the heap: 24 bytes
  Task t = MAKE_TASK(a);
  // GNU: aliases-macros.cpp:[[@LINE+1]]:12: warning: std::function<void ()> stores this lambda on the heap: 24 bytes
  STORE(t, [a, b, c] {});
  // GNU: aliases-macros.cpp:[[@LINE+1]]:22: warning: std::function<long ()> stores this lambda on the heap: 24 bytes
  Fn<long()> alias = [a, b, c] { return a + b + c; };
}
