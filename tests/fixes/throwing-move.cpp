// hl::inplace_function rejects a target whose move may throw (it moves its
// target without throwing; docs/runtime.md), so --fix never retypes a
// declaration that such a target is stored into: the note says why, and the
// fixed file compiles with both libraries. A target that only lacks a trait
// the library wants (trivially copyable, a nothrow copy) is still retyped.
//
// RUN: cp %s %t.gnu.cpp && cp %s %t.llvm.cpp
// RUN: %heaplint --fix %t.gnu.cpp -- -I%src_root/runtime/include %libstdcxx > %t.gnu.out 2> %t.gnu.err
// RUN: %FileCheck %s --check-prefix=NOTES < %t.gnu.out
// RUN: %FileCheck %s --check-prefix=FIXED < %t.gnu.cpp
// RUN: %gxx -std=c++17 -fsyntax-only -I%src_root/runtime/include %t.gnu.cpp
// RUN: %heaplint --fix %t.llvm.cpp -- -I%src_root/runtime/include %libcxx > %t.llvm.out 2> %t.llvm.err
// RUN: %FileCheck %s --check-prefix=NOTES < %t.llvm.out
// RUN: %FileCheck %s --check-prefix=FIXED < %t.llvm.cpp
// RUN: %clangxx -std=c++17 -stdlib=libc++ -fsyntax-only -I%src_root/runtime/include %t.llvm.cpp
#include <functional>
#include <vector>

// The functor: a move that may throw (40 bytes: too big for both).
struct MoveThrows {
  long v[5] = {};
  MoveThrows() = default;
  MoveThrows(const MoveThrows &) = default;
  MoveThrows(MoveThrows &&o) noexcept(false) : v{o.v[0]} {}
  int operator()(int x) const { return x + static_cast<int>(v[0]); }
};
// No move constructor: moved by its copy, which may throw.
struct CopyThrows {
  long v[5] = {};
  CopyThrows() = default;
  CopyThrows(const CopyThrows &o) : v{o.v[0]} {}
  void operator()() const {}
};
struct ThrowingBase {
  ThrowingBase() = default;
  ThrowingBase(const ThrowingBase &) {}
};
// A base class with a user-provided copy.
struct Derived : ThrowingBase {
  long v[5] = {};
  void operator()() const {}
};
// Not trivially copyable, but its move does not throw: retyped.
struct MoveNoexcept {
  long v[5] = {};
  MoveNoexcept() = default;
  MoveNoexcept(const MoveNoexcept &o) : v{o.v[0]} {}
  MoveNoexcept(MoveNoexcept &&o) noexcept : v{o.v[0]} {}
  void operator()() const {}
};

int f(long a, long b, long c, long d, long e) {
  // FIXED: {{^}}  std::function<int(int)> move_throws = MoveThrows{};
  // NOTES: throwing-move.cpp.tmp.{{(gnu|llvm)}}.cpp:[[@LINE+1]]:41: note: use hl::inplace_function<int(int), 40> (<heaplint/inplace_function.hpp>), which keeps targets of up to 40 bytes inline and never allocates; not rewritten automatically: hl::inplace_function rejects a target whose move may throw, and MoveThrows's may: MoveThrows has a move constructor that may throw ({{.*}}:24)
  std::function<int(int)> move_throws = MoveThrows{};
  // FIXED: {{^}}  std::function<void()> copy_throws = CopyThrows{};
  // NOTES: [[@LINE+1]]:39: note: {{.*}}not rewritten automatically: hl::inplace_function rejects a target whose move may throw, and CopyThrows's may: CopyThrows is moved by its copy constructor (it declares no move constructor), and has a copy constructor that may throw ({{.*}}:31)
  std::function<void()> copy_throws = CopyThrows{};
  // FIXED: {{^}}  std::function<void()> derived = Derived{};
  // NOTES: [[@LINE+1]]:35: note: {{.*}}not rewritten automatically: hl::inplace_function rejects a target whose move may throw, and Derived's may: base ThrowingBase is moved by its copy constructor (it declares no move constructor), and has a copy constructor that may throw ({{.*}}:36)
  std::function<void()> derived = Derived{};
  // A lambda capturing a value whose copy may throw.
  CopyThrows captured;
  // FIXED: {{^}}  std::function<void()> lambda = [captured, a, b] { captured(); (void)a, (void)b; };
  // NOTES: [[@LINE+1]]:34: note: {{.*}}not rewritten automatically: hl::inplace_function rejects a target whose move may throw, and the lambda's may: capture 'captured' (CopyThrows) is moved by its copy constructor
  std::function<void()> lambda = [captured, a, b] { captured(); (void)a, (void)b; };
  // One throwing target among the stores into a container blocks its retyping.
  // FIXED: {{^}}  std::vector<std::function<void()>> handlers;
  std::vector<std::function<void()>> handlers;
  // NOTES: [[@LINE+1]]:22: note: {{.*}}not rewritten automatically: hl::inplace_function rejects a target whose move may throw, and CopyThrows's may
  handlers.push_back([a, b, c, d, e] {});
  handlers.push_back(CopyThrows{});
  // NOTES: [[@LINE+2]]:41: note: fix: retype the declaration as hl::inplace_function<void(), 40>
  // FIXED: {{^}}  hl::inplace_function<void(), 40> move_noexcept = MoveNoexcept{};
  std::function<void()> move_noexcept = MoveNoexcept{};
  move_throws(1);
  copy_throws();
  derived();
  lambda();
  for (auto &h : handlers) h();
  move_noexcept();
  return 0;
}
