// Every way a callable gets converted into a std::function is a store: the
// same 24-byte lambda is flagged in each context on libstdc++ (16-byte
// buffer) and in none on libc++ (its 32-byte buffer holds a 24-byte target
// behind the 8-byte vtable pointer).
//
// RUN: %heaplint %s -- -I%src_root/runtime/include %libstdcxx 2>%t.gnu.err | %FileCheck %s --check-prefix=GNU --implicit-check-not=warning:
// RUN: %FileCheck %s --check-prefix=GNU-SUMMARY < %t.gnu.err
// RUN: %heaplint %s -- -I%src_root/runtime/include %libcxx 2>%t.llvm.err | %FileCheck %s --allow-empty --check-prefix=LLVM --implicit-check-not=warning:
// RUN: %FileCheck %s --check-prefix=LLVM-SUMMARY < %t.llvm.err
//
// GNU-SUMMARY: 26 warnings in 1 file (libstdc++, x86_64)
// LLVM-SUMMARY: 0 warnings in 1 file (libc++, x86_64)
#include <functional>
#include <map>
#include <optional>
#include <tuple>
#include <utility>
#include <vector>

struct Timer {
  long id = 0, deadline = 0;
  // GNU: contexts.cpp:[[@LINE+1]]:34: warning: std::function<void ()> stores this lambda on the heap: 24 bytes (align 8) exceeds libstdc++'s inline buffer of 16 bytes [function-sbo]
  std::function<void()> member = [this, a = 1L, b = 2L] { (void)a, (void)b; };
  std::function<void()> init;
  // GNU: contexts.cpp:[[@LINE+1]]:18: warning: {{.*}} 24 bytes (align 8) exceeds
  Timer() : init([this, x = 1L, y = 2L] { (void)x, (void)y; }) {}
  void fire(long, long) {}
  void arm() {
    // GNU: contexts.cpp:[[@LINE+3]]:32: warning: std::function<void ()> stores this lambda on the heap: 24 bytes (align 8) exceeds libstdc++'s inline buffer of 16 bytes [function-sbo]
    // GNU-NEXT: {{^}} [[@LINE+2]] |     std::function<void()> cb = [this, id = id, deadline = deadline] { fire(id, deadline); };
    // GNU-NEXT: {{^}}      |                                ^
    std::function<void()> cb = [this, id = id, deadline = deadline] { fire(id, deadline); };
    // GNU-NEXT: contexts.cpp:[[@LINE-1]]:32: note: captures: this (8), id (8), deadline (8)
    // GNU-NEXT: contexts.cpp:[[@LINE-2]]:32: note: fix: retype the declaration as hl::inplace_function<void(), 24> (<heaplint/inplace_function.hpp>), which keeps targets of up to 24 bytes inline and never allocates
    cb();
  }
};

void by_value(std::function<void()>);
void by_cref(const std::function<void()>&);

std::function<void()> returned(long a, long b, long c) {
  // GNU: contexts.cpp:[[@LINE+1]]:10: warning: {{.*}} 24 bytes (align 8) exceeds
  return [a, b, c] {};
}

void f(long a, long b, long c) {
  // GNU: contexts.cpp:[[@LINE+1]]:37: warning: {{.*}} 24 bytes (align 8) exceeds
  std::function<void()> copy_init = [a, b, c] {};
  // GNU: contexts.cpp:[[@LINE+1]]:32: warning: {{.*}} 24 bytes (align 8) exceeds
  std::function<void()> direct([a, b, c] {});
  // GNU: contexts.cpp:[[@LINE+1]]:31: warning: {{.*}} 24 bytes (align 8) exceeds
  std::function<void()> brace{[a, b, c] {}};
  // GNU: contexts.cpp:[[@LINE+1]]:15: warning: {{.*}} 24 bytes (align 8) exceeds
  copy_init = [a, b, c] {};
  // GNU: contexts.cpp:[[@LINE+1]]:12: warning: {{.*}} 24 bytes (align 8) exceeds
  by_value([a, b, c] {});
  // GNU: contexts.cpp:[[@LINE+1]]:11: warning: {{.*}} 24 bytes (align 8) exceeds
  by_cref([a, b, c] {});
  // GNU: contexts.cpp:[[@LINE+1]]:42: warning: {{.*}} 24 bytes (align 8) exceeds
  auto *heap = new std::function<void()>([a, b, c] {});
  delete heap;
  // GNU: contexts.cpp:[[@LINE+1]]:35: warning: {{.*}} 24 bytes (align 8) exceeds
  std::function<void()> arr[2] = {[a, b, c] {}, [] {}};
  struct Aggregate {
    std::function<void()> f;
    int x;
  };
  // GNU: contexts.cpp:[[@LINE+1]]:15: warning: {{.*}} 24 bytes (align 8) exceeds
  Aggregate g{[a, b, c] {}, 1};

  std::vector<std::function<void()>> v;
  // GNU: contexts.cpp:[[@LINE+1]]:15: warning: {{.*}} 24 bytes (align 8) exceeds
  v.push_back([a, b, c] {});
  // GNU: contexts.cpp:[[@LINE+1]]:18: warning: {{.*}} 24 bytes (align 8) exceeds
  v.emplace_back([a, b, c] {});
  // GNU: contexts.cpp:[[@LINE+1]]:23: warning: {{.*}} 24 bytes (align 8) exceeds
  v.insert(v.begin(), [a, b, c] {});
  // GNU: contexts.cpp:[[@LINE+1]]:24: warning: {{.*}} 24 bytes (align 8) exceeds
  v.emplace(v.begin(), [a, b, c] {});
  // Copies and moves of a wrapper store nothing new.
  v.push_back(copy_init);
  v.emplace_back(std::move(copy_init));
  v.emplace_back();

  std::map<int, std::function<void()>> m;
  // GNU: contexts.cpp:[[@LINE+1]]:16: warning: {{.*}} 24 bytes (align 8) exceeds
  m.emplace(1, [a, b, c] {});
  // GNU: contexts.cpp:[[@LINE+1]]:20: warning: {{.*}} 24 bytes (align 8) exceeds
  m.try_emplace(2, [a, b, c] {});
  // GNU: contexts.cpp:[[@LINE+1]]:10: warning: {{.*}} 24 bytes (align 8) exceeds
  m[3] = [a, b, c] {};
  // GNU: contexts.cpp:[[@LINE+1]]:25: warning: {{.*}} 24 bytes (align 8) exceeds
  m.insert_or_assign(4, [a, b, c] {});
  // Built inside std::pair, std::tuple or std::optional from the argument.
  // GNU: contexts.cpp:[[@LINE+1]]:16: warning: {{.*}} 24 bytes (align 8) exceeds
  m.insert({5, [a, b, c] {}});
  // GNU: contexts.cpp:[[@LINE+1]]:12: warning: {{.*}} 24 bytes (align 8) exceeds
  m.insert(std::make_pair(6, [a, b, c] {}));
  // GNU: contexts.cpp:[[@LINE+1]]:52: warning: {{.*}} 24 bytes (align 8) exceeds
  std::pair<const int, std::function<void()>> p{7, [a, b, c] {}};
  // GNU: contexts.cpp:[[@LINE+1]]:53: warning: {{.*}} 24 bytes (align 8) exceeds
  std::tuple<int, std::function<void()>, long> t{8, [a, b, c] {}, 9L};
  // GNU: contexts.cpp:[[@LINE+1]]:42: warning: {{.*}} 24 bytes (align 8) exceeds
  std::optional<std::function<void()>> o{[a, b, c] {}};
}

// LLVM-NOT: warning
