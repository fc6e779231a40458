// A store in a loop body allocates on every iteration; a store in the
// loop's init statement, in a lambda merely defined in the loop, or in a
// "loop" whose condition is always false, does not.
//
// RUN: %heaplint %s -- %libstdcxx | %FileCheck %s --check-prefix=GNU --implicit-check-not=warning:
#include <functional>
#include <vector>

void loops(long a, long b, long c, const std::vector<int> &items) {
  std::vector<std::function<void()>> handlers;
  handlers.reserve(items.size());
  for (int item : items) {
    // GNU: loops.cpp:[[@LINE+1]]:27: warning: std::function<void ()> stores this lambda on the heap on every iteration of the enclosing loop: 24 bytes (align 8) exceeds libstdc++'s inline buffer of 16 bytes [function-sbo]
    handlers.emplace_back([a, b, item] { (void)(a + b + item); });
  }
  int i = 0;
  while (i++ < 3) {
    // GNU: loops.cpp:[[@LINE+1]]:31: warning: {{.*}} on every iteration of the enclosing loop:
    std::function<void()> f = [a, b, c] {};
  }
  do {
    // GNU: loops.cpp:[[@LINE+1]]:31: warning: {{.*}} on every iteration of the enclosing loop:
    std::function<void()> f = [a, b, c] {};
  } while (--i > 0);
  // GNU: loops.cpp:[[@LINE+1]]:34: warning: {{.*}}this lambda on the heap: 24 bytes
  for (std::function<void()> f = [a, b, c] {}; i < 3; i++) {
    // A lambda defined in the loop runs its body when called, not per
    // iteration: the store inside it is not in the loop.
    // GNU: loops.cpp:[[@LINE+1]]:56: warning: std::function<void ()> stores this lambda on the heap: 24 bytes
    auto later = [a, b, c] { std::function<void()> g = [a, b, c] {}; };
    later();
  }
}

// A body that runs at most once is no loop: the macro idiom
// do { ... } while (0), and while (false); one inside a real loop still is.
#define ONCE(...) do { __VA_ARGS__ } while (0)
void once(long a, long b, long c, int n) {
  do {
    // GNU: loops.cpp:[[@LINE+1]]:31: warning: std::function<void ()> stores this lambda on the heap: 24 bytes
    std::function<void()> f = [a, b, c] {};
  } while (0);
  while (false) {
    // GNU: loops.cpp:[[@LINE+1]]:31: warning: std::function<void ()> stores this lambda on the heap: 24 bytes
    std::function<void()> f = [a, b, c] {};
  }
  // GNU: loops.cpp:[[@LINE+1]]:34: warning: std::function<void ()> stores this lambda on the heap: 24 bytes
  ONCE(std::function<void()> f = [a, b, c] {}; f(););
  for (int i = 0; i < n; i++) {
    // GNU: loops.cpp:[[@LINE+1]]:36: warning: {{.*}} on every iteration of the enclosing loop:
    do { std::function<void()> f = [a, b, c] {}; } while (0);
  }
}
