// A conversion probe's copy of a call that does not compile must not take
// the call down with it (issue 12, found on taskflow): the copy passes the
// argument through a proxy, and an overload constrained on what it is
// given (taskflow's `TaskParamsLike P`, here is_invocable) takes no proxy.
// Inside the call's own expression the failed copy made the statement
// invalid: in a function with a deduced return type, the return type, the
// function and everything it would have instantiated after (the store
// below it went unreported, or was reported at the library's call). In a
// function's body the copy is now a statement of its own before the
// call's; where a statement cannot go with the same names in scope (a for
// header, after else, a ternary, a declarator list) it stays in the
// expression.
//
// RUN: %heaplint %s -- %libstdcxx -isystem %probes | %FileCheck %s --check-prefix=GNU --implicit-check-not=warning:
// RUN: %heaplint %s -- %libcxx -isystem %probes | %FileCheck %s --check-prefix=LLVM --implicit-check-not=warning:
//
// Measured: the program counts the global operator new calls of every
// store (with both libraries) and prints "<line heaplint should report>
// <count>"; heaplint must warn on exactly the lines that allocated.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %gxx %libstdcxx -O0 -w -isystem %probes %s -o %t/gnu && %t/gnu > %t/gnu.measured
// RUN: %heaplint -v %s -- %libstdcxx -isystem %probes > %t/gnu.heaplint 2>&1
// RUN: %groundtruth compare --min-sites 3 template-conversion-statement-libstdc++ %t/gnu.measured %t/gnu.heaplint
// RUN: %clangxx %libcxx -O0 -w -isystem %probes %s -o %t/llvm && %t/llvm > %t/llvm.measured
// RUN: %heaplint -v %s -- %libcxx -isystem %probes > %t/llvm.heaplint 2>&1
// RUN: %groundtruth compare --min-sites 3 template-conversion-statement-libc++ %t/llvm.measured %t/llvm.heaplint
#include <count_new.hpp>

#include <functional>
#include <type_traits>
#include <utility>

#include "../support/measure.hpp"

struct List {
  std::function<void()> work;
  template <class F, std::enable_if_t<std::is_invocable_v<F &>, int> = 0> int append(F &&f) {
    work = std::forward<F>(f);
    return 0;
  }
};

// A dependent callee: each call gets a conversion probe.
template <class L, class F> auto add(L &list, F &&f) {
  // a comment (with a parenthesis
  return list.append(std::forward<F>(f));
}
template <class L, class F> int loop(L &list, F &&f) {
  int n = 0;
  for (int i = 0; i < list.append(f); i++) n++;
  if (n) return list.append(f); else return list.append(f) + 1;
}
template <class L, class F> auto later(L &list, F &&f) {
  auto r = add(list, std::forward<F>(f)), s = r;
  return r + s;
}

int main() {
  long a = 1, b = 2, c = 3;
  List list;
  // GNU: template-conversion-statement.cpp:[[@LINE+1]]:37: warning: std::function<void ()> stores this lambda on the heap: 24 bytes (align 8) exceeds libstdc++'s inline buffer of 16 bytes
  MEASURE(__LINE__, "auto, return", add(list, [a, b, c] { (void)(a + b + c); }));
  // GNU: template-conversion-statement.cpp:[[@LINE+1]]:38: warning: std::function<void ()> stores this lambda on the heap: 24 bytes (align 8) exceeds libstdc++'s inline buffer of 16 bytes
  MEASURE(__LINE__, "for, if, else", loop(list, [a, b, c] { (void)(a + b + c); }));
  // GNU: template-conversion-statement.cpp:[[@LINE+2]]:35: warning: std::function<void ()> stores this lambda on the heap: 32 bytes (align 8) exceeds libstdc++'s inline buffer of 16 bytes
  // LLVM: template-conversion-statement.cpp:[[@LINE+1]]:35: warning: std::function<void ()> stores this lambda on the heap: 32 bytes (align 8) with libc++'s 8-byte vtable pointer in front need 40 bytes, more than its inline buffer of 32 bytes
  MEASURE(__LINE__, "two levels", later(list, [a, b, c, d = a] { (void)(a + b + c + d); }));
  MEASURE(__LINE__, "8 bytes", add(list, [a] { (void)a; }));
  return 0;
}
