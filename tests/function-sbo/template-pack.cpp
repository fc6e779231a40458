// A pack expansion is never probed (issue 12, found on taskflow): its
// Pipeline<Ps...> constructor initializes `_pipes(ps...)`, and heaplint once
// wrapped `ps...` in a conversion probe as if it were one argument. The
// probed copy of the constructor then failed to compile, the pipeline built
// from it was invalid, and nothing that pipeline would have instantiated
// was: the stores inside its pipes' generic lambdas had no answer and went
// unreported.
//
// RUN: %heaplint -v %s -- %libstdcxx -isystem %probes 2>%t.err | %FileCheck %s --check-prefix=GNU --implicit-check-not=warning:
// RUN: %FileCheck %s --check-prefix=REMARK --implicit-check-not="not decided" < %t.err
// REMARK: 2 warnings in 1 file
// RUN: %heaplint %s -- %libcxx -isystem %probes | %FileCheck %s --check-prefix=LLVM --implicit-check-not=warning:
//
// Measured: the program counts the global operator new calls of every
// store (with both libraries) and prints "<line heaplint should report>
// <count>"; heaplint must warn on exactly the lines that allocated.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %gxx %libstdcxx -O0 -w -isystem %probes %s -o %t/gnu && %t/gnu > %t/gnu.measured
// RUN: %heaplint -v %s -- %libstdcxx -isystem %probes > %t/gnu.heaplint 2>&1
// RUN: %groundtruth compare --min-sites 2 template-pack-libstdc++ %t/gnu.measured %t/gnu.heaplint
// RUN: %clangxx %libcxx -O0 -w -isystem %probes %s -o %t/llvm && %t/llvm > %t/llvm.measured
// RUN: %heaplint -v %s -- %libcxx -isystem %probes > %t/llvm.heaplint 2>&1
// RUN: %groundtruth compare --min-sites 2 template-pack-libc++ %t/llvm.measured %t/llvm.heaplint
#include <count_new.hpp>

#include <functional>
#include <tuple>
#include <utility>

#include "../support/measure.hpp"

struct Flow {
  std::function<void()> work;
  template <class C> void emplace(C &&c) { work = std::forward<C>(c); }
};

struct Pipeflow {};
template <class C> struct Pipe {
  C callable;
  Pipe(int, C c) : callable(c) {}
};
template <class C> Pipe(int, C) -> Pipe<C>;

// taskflow's shape: the pipes kept in a tuple initialized from the pack.
template <class... Ps> struct Pipeline {
  std::tuple<Ps...> pipes;
  Pipeline(int, Ps... ps) : pipes(ps...) {}
  void run() {
    Pipeflow pf;
    std::apply([&](auto &...p) { (p.callable(pf), ...); }, pipes);
  }
};

int main() {
  long a = 1, b = 2, c = 3, d = 4, e = 5;
  Flow flow;
  Pipeline pipeline(1,
                    Pipe{1, [&](auto &pf) {
                           (void)pf;
                           // GNU: template-pack.cpp:[[@LINE+1]]:71: warning: std::function<void ()> stores this lambda on the heap: 24 bytes (align 8) exceeds libstdc++'s inline buffer of 16 bytes
                           MEASURE(__LINE__, "three references", flow.emplace([&] { (void)(a + b + c); }));
                         }},
                    Pipe{1, [&](auto &pf) {
                           (void)pf;
                           // GNU: template-pack.cpp:[[@LINE+2]]:66: warning: std::function<void ()> stores this lambda on the heap: 40 bytes (align 8) exceeds libstdc++'s inline buffer of 16 bytes
                           // LLVM: template-pack.cpp:[[@LINE+1]]:66: warning: std::function<void ()> stores this lambda on the heap: 40 bytes (align 8) with libc++'s 8-byte vtable pointer in front need 48 bytes, more than its inline buffer of 32 bytes
                           MEASURE(__LINE__, "five copies", flow.emplace([a, b, c, d, e] { (void)(a + b + c + d + e); }));
                         }});
  pipeline.run();
  return 0;
}
