// std::move_only_function (C++23, libstdc++): 24-byte buffer, align <= 8,
// and a nothrow move constructor; copyability does not matter.
//
// RUN: %heaplint %s -- -I%src_root/runtime/include -std=c++23 | %FileCheck %s --check-prefix=GNU --implicit-check-not=warning:
#include <functional>
#include <memory>
#include <string>

struct ThrowingMove {
  long x = 0;
  ThrowingMove() = default;
  ThrowingMove(ThrowingMove &&) noexcept(false) {}
  void operator()() {}
};

void f(long a, long b, long c, long d, std::unique_ptr<int> up) {
  std::move_only_function<void()> three = [a, b, c] {};
  std::move_only_function<void()> unique = [p = std::move(up)] {};
  // GNU: move-only-function.cpp:[[@LINE+2]]:42: warning: std::move_only_function<void ()> stores this lambda on the heap: 32 bytes (align 8) exceeds libstdc++'s inline buffer of 24 bytes [function-sbo]
  // GNU: note: fix: retype the declaration as hl::inplace_move_function<void(), 32> (<heaplint/inplace_function.hpp>), which keeps targets of up to 32 bytes inline and never allocates
  std::move_only_function<void()> four = [a, b, c, d] {};
  // GNU: move-only-function.cpp:[[@LINE+2]]:44: warning: std::move_only_function<void ()> stores this functor 'ThrowingMove' on the heap: 8 bytes (align 8) would fit libstdc++'s 24-byte inline buffer, but it is not nothrow move constructible, which libstdc++ requires for inline storage [function-sbo]
  // GNU: note: not nothrow move constructible: ThrowingMove has a move constructor that may throw ({{.*}}move-only-function.cpp:12)
  std::move_only_function<void()> moving = ThrowingMove{};
}
