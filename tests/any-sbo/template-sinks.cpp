// A template that stores what its caller hands it into std::any (a sink):
// judged per instantiation, at the call that made the type concrete, with a
// note at the store. A std::shared_ptr<T> is 16 bytes with a noexcept move
// whatever T is: judged once, at the store. A std::tuple or std::pair
// built in the template builds its std::any element from the value: a
// store as well.
//
// RUN: %heaplint %s -- %libstdcxx -isystem %probes | %FileCheck %s --check-prefix=GNU --implicit-check-not=warning:
// RUN: %heaplint %s -- %libcxx -isystem %probes | %FileCheck %s --check-prefix=LLVM --implicit-check-not=warning:
//
// Measured with both libraries against the counting operator new.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %gxx %libstdcxx -O0 -w -isystem %probes %s -o %t/gnu && %t/gnu > %t/gnu.measured
// RUN: %heaplint -v %s -- %libstdcxx -isystem %probes > %t/gnu.heaplint 2>&1
// RUN: %groundtruth compare --min-sites 5 any-sinks-libstdc++ %t/gnu.measured %t/gnu.heaplint
// RUN: %clangxx %libcxx -O0 -w -isystem %probes %s -o %t/llvm && %t/llvm > %t/llvm.measured
// RUN: %heaplint -v %s -- %libcxx -isystem %probes > %t/llvm.heaplint 2>&1
// RUN: %groundtruth compare --min-sites 5 any-sinks-libc++ %t/llvm.measured %t/llvm.heaplint
#include <count_new.hpp>

#include <any>
#include <cstdio>
#include <memory>
#include <tuple>
#include <utility>
#include <vector>

#include "../support/measure.hpp"

std::any slot;
template <class T> void keep(T v) { slot = std::move(v); }
template <class T> void keep_local(T v) { std::any a = std::move(v); }
// GNU: template-sinks.cpp:[[@LINE+1]]:73: warning: std::any stores this value of type 'std::shared_ptr<T>' on the heap: 16 bytes (align 8) exceeds libstdc++'s inline buffer of 8 bytes
template <class T> int keep_shared(std::shared_ptr<T> p) { std::any a = p; return __LINE__; }

struct Two { long a, b; };
struct Four { long a, b, c, d; };

struct Queue {
  std::vector<std::tuple<int, std::any>> items;
  Queue() { items.reserve(8); }
  template <class T> void enqueue(int e, T &&v) { items.push_back(std::tuple<int, std::any>(e, std::forward<T>(v))); }
};
template <class T> void keep_pair(T v) { std::pair<std::any, int> p(std::move(v), 1); }

int main() {
  MEASURE(__LINE__, "8 bytes", keep(1L));
  // GNU: template-sinks.cpp:[[@LINE+2]]:33: warning: std::any stores this value of type 'Two' on the heap: 16 bytes (align 8) exceeds libstdc++'s inline buffer of 8 bytes
  // GNU: note: stored at {{.*}}template-sinks.cpp:31 as std::any
  MEASURE(__LINE__, "16 bytes", keep(Two{1, 2}));
  // GNU: template-sinks.cpp:[[@LINE+3]]:33: warning: std::any stores this value of type 'Four' on the heap: 32 bytes (align 8) exceeds libstdc++'s inline buffer of 8 bytes
  // LLVM: template-sinks.cpp:[[@LINE+2]]:33: warning: std::any stores this value of type 'Four' on the heap: 32 bytes (align 8) exceeds libc++'s inline buffer of 24 bytes
  // LLVM: note: stored at {{.*}}template-sinks.cpp:32 as std::any
  MEASURE(__LINE__, "32 bytes", keep_local(Four{1, 2, 3, 4}));
  MEASURE(__LINE__, "4 bytes", keep_local(1));
  auto si = std::make_shared<int>(1);
  int line = 0;
  MEASURE(line, "shared_ptr<T>", line = keep_shared(si));
  keep_shared(std::make_shared<Four>());
  Queue q;
  MEASURE(__LINE__, "tuple element, 8 bytes", q.enqueue(1, 1L));
  // GNU: template-sinks.cpp:[[@LINE+2]]:50: warning: std::any stores this value of type 'Two' on the heap: 16 bytes (align 8) exceeds libstdc++'s inline buffer of 8 bytes
  // GNU: note: stored at {{.*}}template-sinks.cpp:42 as std::any
  MEASURE(__LINE__, "tuple element, 16 bytes", q.enqueue(2, Two{1, 2}));
  // GNU: template-sinks.cpp:[[@LINE+4]]:50: warning: std::any stores this value of type 'Four' on the heap: 32 bytes (align 8) exceeds libstdc++'s inline buffer of 8 bytes
  // GNU: note: stored at {{.*}}template-sinks.cpp:42 as std::any
  // LLVM: template-sinks.cpp:[[@LINE+2]]:50: warning: std::any stores this value of type 'Four' on the heap: 32 bytes (align 8) exceeds libc++'s inline buffer of 24 bytes
  // LLVM: note: stored at {{.*}}template-sinks.cpp:42 as std::any
  MEASURE(__LINE__, "tuple element, 32 bytes", q.enqueue(3, Four{1, 2, 3, 4}));
  MEASURE(__LINE__, "pair element, 4 bytes", keep_pair(1));
  // GNU: template-sinks.cpp:[[@LINE+4]]:47: warning: std::any stores this value of type 'Four' on the heap: 32 bytes (align 8) exceeds libstdc++'s inline buffer of 8 bytes
  // GNU: note: stored at {{.*}}template-sinks.cpp:44 as std::any
  // LLVM: template-sinks.cpp:[[@LINE+2]]:47: warning: std::any stores this value of type 'Four' on the heap: 32 bytes (align 8) exceeds libc++'s inline buffer of 24 bytes
  // LLVM: note: stored at {{.*}}template-sinks.cpp:44 as std::any
  MEASURE(__LINE__, "pair element, 32 bytes", keep_pair(Four{1, 2, 3, 4}));
  return 0;
}
