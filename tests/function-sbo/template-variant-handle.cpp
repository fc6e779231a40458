// A callable handed through the code's own templates into a std::variant
// whose alternatives are std::function objects (taskflow's Node builds
// its std::variant handle from an Async whose constructor builds a
// std::variant<std::function<...>...> from the callable). The variant's
// converting constructor, a library template, chooses the std::function
// alternative and builds it from the callable: that store allocates on
// libstdc++. engine/inst/instances does not follow a library constructor that
// takes the value as it is, so it leaves the conversion probe to the probe
// parse, which finds it (before, the AST answered "to std::variant" and
// the store was silent).
//
// REQUIRES: instances
// RUN: %heaplint %s -- %libstdcxx -isystem %probes | %FileCheck %s --check-prefix=GNU --implicit-check-not=warning:
// RUN: %heaplint %s -- %libcxx -isystem %probes | %FileCheck %s --check-prefix=LLVM --implicit-check-not=warning:
// RUN: %heaplint --check-instances %s -- %libstdcxx -isystem %probes 2>&1 >/dev/null | %FileCheck %s --check-prefix=CHECKED
// CHECKED: template-variant-handle.cpp:{{[0-9]+}}: not told: a library constructor that may convert it further
// CHECKED: template-variant-handle.cpp: 0 conversions agree, 0 differ, 1 not told
//
// Measured: heaplint must warn on exactly the lines that allocated.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %gxx %libstdcxx -O0 -w -isystem %probes %s -o %t/gnu && %t/gnu > %t/gnu.measured
// RUN: %heaplint -v %s -- %libstdcxx -isystem %probes > %t/gnu.heaplint 2>&1
// RUN: %groundtruth compare --min-sites 2 template-variant-handle-libstdc++ %t/gnu.measured %t/gnu.heaplint
// RUN: %clangxx %libcxx -O0 -w -isystem %probes %s -o %t/llvm && %t/llvm > %t/llvm.measured
// RUN: %heaplint -v %s -- %libcxx -isystem %probes > %t/llvm.heaplint 2>&1
// RUN: %groundtruth compare --min-sites 2 template-variant-handle-libc++ %t/llvm.measured %t/llvm.heaplint
#include <count_new.hpp>

#include <functional>
#include <utility>
#include <variant>

#include "../support/measure.hpp"

struct Async {
  template <class C> Async(C &&c) : work{std::forward<C>(c)} {}
  std::variant<std::function<void()>, std::function<void(int)>> work;
};
struct Node {
  template <class... A> Node(A &&...a) : handle{std::forward<A>(a)...} {}
  std::variant<std::monostate, Async> handle;
};
struct Exec {
  template <class... A> void sched(int state, A &&...a) {
    Node n(std::forward<A>(a)...);
    (void)state;
  }
};
template <class T> void run_async(Exec &e, T a, T b, T c) {
  e.sched(0, std::in_place_type_t<Async>{}, [a, b, c] { (void)(a + b + c); });
}

int main() {
  Exec e;
  // 3 * 8 bytes: over libstdc++'s 16, within libc++'s 24.
  // GNU: template-variant-handle.cpp:[[@LINE+2]]:29: warning: std::function<void ()> stores this lambda on the heap: 24 bytes (align 8) exceeds libstdc++'s inline buffer of 16 bytes
  // GNU: note: stored at {{.*}}template-variant-handle.cpp:50 as std::function<void ()>
  MEASURE(__LINE__, "long", run_async(e, 1L, 2L, 3L));
  // GNU: template-variant-handle.cpp:[[@LINE+2]]:36: warning: std::function<void ()> stores this lambda on the heap: 48 bytes (align 16)
  // LLVM: template-variant-handle.cpp:[[@LINE+1]]:36: warning: std::function<void ()> stores this lambda on the heap: 48 bytes (align 16)
  MEASURE(__LINE__, "long double", run_async(e, 1.0L, 2.0L, 3.0L));
}
