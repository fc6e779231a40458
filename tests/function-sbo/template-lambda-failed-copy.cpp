// A lambda stored inside a template whose body holds a call that gets a
// conversion probe (found on CLI11: Range's constructor template assigns
// func_ = [min_val, max_val](std::string &input) { ... lexical_cast(input,
// val) ... out << min_val ... }). The probe parse copies that call with the
// argument through a proxy; when the copy does not compile (an overload
// constrained on what it is given takes no proxy), the failed statement
// makes the lambda's body, and so the whole lambda expression, fail in
// every instantiation (clang's TreeTransform fails a compound statement
// with any of its statements), and the layout probe around the lambda is
// never instantiated. The probe parse then has no answer; engine/inst/instances
// reads the instantiations from clang's AST of the unit itself, which has
// no such copies, and answers with the same numbers and chain.
//
// REQUIRES: instances
// RUN: %heaplint %s -- %libstdcxx -isystem %probes | %FileCheck %s --check-prefix=GNU --implicit-check-not=warning:
// RUN: %heaplint %s -- %libcxx -isystem %probes | %FileCheck %s --check-prefix=LLVM --implicit-check-not=warning:
//
// The probe parse alone does not answer it; the AST does, all three:
// RUN: %heaplint --check-instances %s -- %libstdcxx -isystem %probes 2>&1 >/dev/null | %FileCheck %s --check-prefix=CHECKED
// CHECKED: template-lambda-failed-copy.cpp:{{[0-9]+}}: differ: [the AST only: (lambda at {{.*}}template-lambda-failed-copy.cpp:53:13) 24 8 111, {{.*}}] [the AST only: {{.*}} 32 8 111, {{.*}}] [the AST only: {{.*}} 64 16 111, {{.*}}]
// CHECKED: template-lambda-failed-copy.cpp: 3 answers from the AST where the probe parse had none
//
// Measured: heaplint must warn on exactly the lines that allocated.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %gxx %libstdcxx -O0 -w -isystem %probes %s -o %t/gnu && %t/gnu > %t/gnu.measured
// RUN: %heaplint -v %s -- %libstdcxx -isystem %probes > %t/gnu.heaplint 2>&1
// RUN: %groundtruth compare --min-sites 3 template-lambda-failed-copy-libstdc++ %t/gnu.measured %t/gnu.heaplint
// RUN: %clangxx %libcxx -O0 -w -isystem %probes %s -o %t/llvm && %t/llvm > %t/llvm.measured
// RUN: %heaplint -v %s -- %libcxx -isystem %probes > %t/llvm.heaplint 2>&1
// RUN: %groundtruth compare --min-sites 3 template-lambda-failed-copy-libc++ %t/llvm.measured %t/llvm.heaplint
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

struct Check {
  std::function<bool()> func_;
  // list.append(...) has a dependent callee: a conversion probe, whose copy
  // (the argument through a proxy, not invocable) matches no overload.
  template <class L, class T> Check(L &list, T lo, T hi) {
    T mid = (lo + hi) / 2;
    func_ = [&list, lo, hi, mid] { return list.append([] {}) == 0 && lo < mid && mid < hi; };
  }
};

int main() {
  List list;
  // 8 + 3 * 4 bytes: 24 bytes, over libstdc++'s 16, within libc++'s 24.
  // GNU: template-lambda-failed-copy.cpp:[[@LINE+2]]:34: warning: std::function<bool ()> stores this lambda on the heap: 24 bytes (align 8) exceeds libstdc++'s inline buffer of 16 bytes
  // GNU: note: stored at {{.*}}template-lambda-failed-copy.cpp:53 as std::function<bool ()>
  MEASURE(__LINE__, "int", Check c(list, 1, 5));
  // GNU: template-lambda-failed-copy.cpp:[[@LINE+3]]:37: warning: std::function<bool ()> stores this lambda on the heap: 32 bytes (align 8) exceeds libstdc++'s inline buffer of 16 bytes
  // LLVM: template-lambda-failed-copy.cpp:[[@LINE+2]]:37: warning: std::function<bool ()> stores this lambda on the heap: 32 bytes (align 8) with libc++'s 8-byte vtable pointer in front need 40 bytes, more than its inline buffer of 32 bytes
  // LLVM: note: stored at {{.*}}template-lambda-failed-copy.cpp:53 as std::function<bool ()>
  MEASURE(__LINE__, "double", Check c(list, 1.0, 5.0));
  // GNU: template-lambda-failed-copy.cpp:[[@LINE+2]]:42: warning: std::function<bool ()> stores this lambda on the heap: 64 bytes (align 16)
  // LLVM: template-lambda-failed-copy.cpp:[[@LINE+1]]:42: warning: std::function<bool ()> stores this lambda on the heap: 64 bytes (align 16)
  MEASURE(__LINE__, "long double", Check c(list, 1.0L, 5.0L));
}
