// A callable handed to a call that makes the library build a class from
// its arguments (a sequence's emplace_back, std::make_shared), where every
// constructor of that class taking that many arguments takes a wrapper at
// the callable's place: the library converts it to the wrapper inside,
// a store like any other (issue 12, found on taskflow, whose pipelines are
// std::vector<tf::Pipe<std::function<void(tf::Pipeflow&)>>> filled with
// emplace_back(type, lambda)). A class with a constructor template, or
// whose constructors disagree at that place, is left alone, and a wrapper
// handed on is a copy.
//
// RUN: %heaplint %s -- %libstdcxx -isystem %probes | %FileCheck %s --check-prefix=GNU --implicit-check-not=warning:
// RUN: %heaplint %s -- %libcxx -isystem %probes | %FileCheck %s --check-prefix=LLVM --implicit-check-not=warning:
//
// Measured: the program counts the global operator new calls of every store
// (with both libraries; the vectors have their room reserved, so that only
// the wrapper can allocate) and prints "<line heaplint should report>
// <count>"; heaplint must warn on exactly the lines that allocated.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %gxx %libstdcxx -O0 -w -isystem %probes %s -o %t/gnu && %t/gnu > %t/gnu.measured
// RUN: %heaplint -v %s -- %libstdcxx -isystem %probes > %t/gnu.heaplint 2>&1
// RUN: %groundtruth compare --min-sites 8 built-by-library-libstdc++ %t/gnu.measured %t/gnu.heaplint
// RUN: %clangxx %libcxx -O0 -w -isystem %probes %s -o %t/llvm && %t/llvm > %t/llvm.measured
// RUN: %heaplint -v %s -- %libcxx -isystem %probes > %t/llvm.heaplint 2>&1
// RUN: %groundtruth compare --min-sites 8 built-by-library-libc++ %t/llvm.measured %t/llvm.heaplint
#include <count_new.hpp>

#include <functional>
#include <memory>
#include <utility>
#include <vector>

#include "../support/measure.hpp"

// taskflow's tf::Pipe: a class template whose constructor takes its own
// parameter, a wrapper in this use.
template <class C> struct Pipe {
  Pipe(int d, C &&callable) : type{d}, callable{std::forward<C>(callable)} {}
  int type;
  C callable;
};
struct Handler {
  Handler(std::function<void()> f) : f(std::move(f)) {}
  std::function<void()> f;
};
// Constructors that disagree at the argument's place: left alone. A Big
// goes to Either(Big), and taking it for a std::function built from a
// 32-byte Big would be a false positive.
struct Big { long x[4]; };
struct Either {
  Either(std::function<void()> f) : f(std::move(f)) {}
  Either(Big) {}
  std::function<void()> f;
};
// A constructor template: its own member initializer is the store, judged
// per instantiation and reported here (not twice).
struct Generic {
  template <class F> Generic(F f) : f(std::move(f)) {}
  std::function<void()> f;
};

int main() {
  long a = 1, b = 2, c = 3, d = 4;
  std::vector<Pipe<std::function<void(long &)>>> pipes;
  pipes.reserve(8);
  std::vector<Handler> handlers;
  handlers.reserve(8);
  std::vector<Either> eithers;
  eithers.reserve(8);
  std::vector<Generic> generics;
  generics.reserve(8);
  // GNU: built-by-library.cpp:[[@LINE+1]]:79: warning: std::function<void (long &)> stores this lambda on the heap: 24 bytes (align 8) exceeds libstdc++'s inline buffer of 16 bytes
  MEASURE(__LINE__, "a class template's own parameter", pipes.emplace_back(1, [&](long &x) { x += a + b + c; }));
  MEASURE(__LINE__, "a class template's own parameter, small", pipes.emplace_back(1, [&](long &x) { x += a; }));
  // GNU: built-by-library.cpp:[[@LINE+2]]:60: warning: std::function<void ()> stores this lambda on the heap: 32 bytes (align 8) exceeds libstdc++'s inline buffer of 16 bytes
  // LLVM: built-by-library.cpp:[[@LINE+1]]:60: warning: std::function<void ()> stores this lambda on the heap: 32 bytes (align 8) with libc++'s 8-byte vtable pointer in front need 40 bytes, more than its inline buffer of 32 bytes
  MEASURE(__LINE__, "a plain class", handlers.emplace_back([a, b, c, d] { (void)(a + b + c + d); }));
  MEASURE(__LINE__, "a plain class, small", handlers.emplace_back([a] { (void)a; }));
  std::function<void()> held = [a] { (void)a; };
  MEASURE(__LINE__, "a wrapper handed on (a copy)", handlers.emplace_back(held));
  Handler one([a] { (void)a; });
  MEASURE(__LINE__, "an element copied in (its implicit copy constructor)", handlers.emplace_back(one));
  MEASURE(__LINE__, "constructors that disagree", eithers.emplace_back(Big{}));
  // GNU: built-by-library.cpp:[[@LINE+4]]:56: warning: std::function<void ()> stores this lambda on the heap: 32 bytes (align 8) exceeds libstdc++'s inline buffer of 16 bytes
  // GNU: built-by-library.cpp:57:39: note: stored at {{.*}}built-by-library.cpp:57 as std::function<void ()>
  // LLVM: built-by-library.cpp:[[@LINE+2]]:56: warning: std::function<void ()> stores this lambda on the heap: 32 bytes (align 8) with libc++'s 8-byte vtable pointer in front need 40 bytes, more than its inline buffer of 32 bytes
  // LLVM: built-by-library.cpp:57:39: note: stored at {{.*}}built-by-library.cpp:57 as std::function<void ()>
  MEASURE(__LINE__, "a constructor template", generics.emplace_back([a, b, c, d] { (void)(a + b + c + d); }));
  // std::make_shared allocates its own block: counted, less that one.
  // GNU: built-by-library.cpp:[[@LINE+3]]:40: warning: std::function<void ()> stores this lambda on the heap: 32 bytes (align 8) exceeds libstdc++'s inline buffer of 16 bytes
  // LLVM: built-by-library.cpp:[[@LINE+2]]:40: warning: std::function<void ()> stores this lambda on the heap: 32 bytes (align 8) with libc++'s 8-byte vtable pointer in front need 40 bytes, more than its inline buffer of 32 bytes
  unsigned long before = hl_count::allocations();
  { auto h = std::make_shared<Handler>([a, b, c, d] { (void)(a + b + c + d); }); site(__LINE__, hl_count::allocations() - before - 1, "std::make_shared"); }
  before = hl_count::allocations();
  { auto h = std::make_shared<Handler>([a] { (void)a; }); site(__LINE__, hl_count::allocations() - before - 1, "std::make_shared, small"); }
  return 0;
}
