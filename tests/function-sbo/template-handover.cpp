// Where a store inside templates is reported (issue 12, found on taskflow):
// at the first call outward from the store that hands a value over, not at
// a call that passes on what its own function was given.
//
// - A library function with a deduced return type (taskflow's
//   `auto Executor::async(F&&)`) is instantiated as soon as it is called,
//   and clang queues the templates its body calls until the end of the
//   unit: the errors of a store there name no caller beyond that queued
//   call. heaplint relays: it probes that call's arguments in one more
//   parse and follows their answers out to the user's call.
// - A lambda written in a function template's body (a test's
//   `template <class P> void run()`) is handed over there: reported at
//   that line once, with a note naming the first instantiation. So is a
//   parameter of the file's own template handed to the library as data
//   (`fill_sync(T val)` calling `fill(val)`), whose chain clang leaves
//   with a gap (fill's call, made while fill_sync's queued instantiation
//   ran, is missing): relayed too.
// - The library is in a header (Inputs/handover-lib.hpp): there, any value
//   built from what the caller gave is passed on.
// - What is stored may be the library's own lambda around the user's: the
//   warning names where that lambda is written.
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
// RUN: %groundtruth compare --min-sites 7 template-handover-libstdc++ %t/gnu.measured %t/gnu.heaplint
// RUN: %clangxx %libcxx -O0 -w -isystem %probes %s -o %t/llvm && %t/llvm > %t/llvm.measured
// RUN: %heaplint -v %s -- %libcxx -isystem %probes > %t/llvm.heaplint 2>&1
// RUN: %groundtruth compare --min-sites 7 template-handover-libc++ %t/llvm.measured %t/llvm.heaplint
#include <count_new.hpp>

#include <functional>
#include <type_traits>
#include <utility>
#include <vector>

#include "../support/measure.hpp"

#include "Inputs/handover-lib.hpp"

// A test's own function template handing a lambda written there to the
// library, capturing the function's own values (one of a dependent type,
// not built from a parameter): counted per line over both instantiations.
static unsigned long in_run_;
static int run_line_;
template <class P> void run(long a, long b, long c) {
  std::vector<P> own(3);
  unsigned long before = hl_count::allocations();
  // GNU: template-handover.cpp:[[@LINE+5]]:7: warning: std::function<void ()> stores this lambda on the heap: 32 bytes (align 8) exceeds libstdc++'s inline buffer of 16 bytes
  // GNU: template-handover.cpp:{{[0-9]+}}:{{[0-9]+}}: note: in the instantiation requested at {{.*}}template-handover.cpp:[[@LINE+43]]
  // LLVM: template-handover.cpp:[[@LINE+3]]:7: warning: std::function<void ()> stores this lambda on the heap: 32 bytes (align 8) with libc++'s 8-byte vtable pointer in front need 40 bytes, more than its inline buffer of 32 bytes
  // LLVM: template-handover.cpp:{{[0-9]+}}:{{[0-9]+}}: note: in the instantiation requested at {{.*}}template-handover.cpp:[[@LINE+41]]
  // (the measured program's own allocations are the vector's, outside)
  sch.sched([&] { (void)(a + b + c + own.size()); }); run_line_ = __LINE__;
  in_run_ += hl_count::allocations() - before;
}

// A test's own function template handing its parameter, data, to the
// library, which stores its own lambda copying it: handed over there.
static unsigned long in_fill_;
static int fill_line_;
template <class T> void fill_sync(T val) {
  unsigned long before = hl_count::allocations();
  // GNU: template-handover.cpp:[[@LINE+3]]:3: warning: std::function<void ()> stores the lambda made at handover-lib.hpp:46 on the heap: 24 bytes (align 8) exceeds libstdc++'s inline buffer of 16 bytes
  // GNU: note: stored at {{.*}}handover-lib.hpp:14 as std::function<void ()>
  // GNU: template-handover.cpp:{{[0-9]+}}:{{[0-9]+}}: note: in the instantiation requested at {{.*}}template-handover.cpp:[[@LINE+30]]
  fill(val); fill_line_ = __LINE__;
  in_fill_ += hl_count::allocations() - before;
}

int main() {
  long a = 1, b = 2, c = 3, d = 4, e = 5;
  // GNU: template-handover.cpp:[[@LINE+2]]:39: warning: std::function<void ()> stores this lambda on the heap: 24 bytes (align 8) exceeds libstdc++'s inline buffer of 16 bytes
  // GNU: note: stored at {{.*}}handover-lib.hpp:14 as std::function<void ()>
  MEASURE(__LINE__, "post, 24 bytes", post([a, b, c] { (void)(a + b + c); }));
  // GNU: template-handover.cpp:[[@LINE+4]]:39: warning: std::function<void ()> stores this lambda on the heap: 40 bytes (align 8) exceeds libstdc++'s inline buffer of 16 bytes
  // GNU: note: stored at {{.*}}handover-lib.hpp:14 as std::function<void ()>
  // LLVM: template-handover.cpp:[[@LINE+2]]:39: warning: std::function<void ()> stores this lambda on the heap: 40 bytes (align 8) with libc++'s 8-byte vtable pointer in front need 48 bytes, more than its inline buffer of 32 bytes
  // LLVM: note: stored at {{.*}}handover-lib.hpp:14 as std::function<void ()>
  MEASURE(__LINE__, "post, 40 bytes", post([a, b, c, d, e] { (void)(a + b + c + d + e); }));
  MEASURE(__LINE__, "post, 8 bytes", post([a] { (void)a; }));
  // GNU: template-handover.cpp:[[@LINE+2]]:45: warning: std::function<void ()> stores the lambda made at handover-lib.hpp:24 on the heap: 24 bytes (align 8) exceeds libstdc++'s inline buffer of 16 bytes
  // GNU: note: stored at {{.*}}handover-lib.hpp:14 as std::function<void ()>
  MEASURE(__LINE__, "the library's lambda", async_wrap([&a] { (void)a; }));
  // GNU: template-handover.cpp:[[@LINE+4]]:35: warning: std::function<void ()> stores the lambda made at handover-lib.hpp:24 on the heap: 48 bytes (align 8) exceeds libstdc++'s inline buffer of 16 bytes
  // GNU: note: stored at {{.*}}handover-lib.hpp:14 as std::function<void ()>
  // LLVM: template-handover.cpp:[[@LINE+2]]:35: warning: std::function<void ()> stores the lambda made at handover-lib.hpp:24 on the heap: 48 bytes (align 8) with libc++'s 8-byte vtable pointer in front need 56 bytes, more than its inline buffer of 32 bytes
  // LLVM: note: stored at {{.*}}handover-lib.hpp:14 as std::function<void ()>
  MEASURE(__LINE__, "two levels", async([a, b, c, d] { (void)(a + b + c + d); }));
  // GNU: template-handover.cpp:[[@LINE+2]]:30: warning: std::function<void ()> stores the lambda made at handover-lib.hpp:40 on the heap: 16 bytes (align 8) would fit libstdc++'s 16-byte inline buffer, but it is not trivially copyable
  // GNU: note: stored at {{.*}}handover-lib.hpp:14 as std::function<void ()>
  MEASURE(__LINE__, "a box", async_box([a] { (void)a; }));
  run<int>(a, b, c);
  run<long>(a, b, c);
  site(run_line_, in_run_, "a lambda written in a function template");
  fill_sync(1);
  fill_sync(2L);
  site(fill_line_, in_fill_, "data handed over in a function template");
  return 0;
}
