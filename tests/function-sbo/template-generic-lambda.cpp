// A class the library builds from a generic lambda inside a generic
// lambda's body (issue 12, found on taskflow's scalable pipelines: a pipe's
// [&](auto &pf) { subpipes.emplace_back(type, [&](auto &spf) { ... }); }).
// The emplace_back is resolved only per instantiation, so the rule for a
// class the library builds (built-by-library.cpp) did not see it: the
// element class is known (std::vector<Pipe<>>), and each of its
// constructors taking two arguments takes a std::function second, so the
// lambda is stored. It is reported where it is written: what instantiates
// the enclosing generic lambda is the code calling it, not the user's.
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
// RUN: %groundtruth compare --min-sites 3 template-generic-lambda-libstdc++ %t/gnu.measured %t/gnu.heaplint
// RUN: %clangxx %libcxx -O0 -w -isystem %probes %s -o %t/llvm && %t/llvm > %t/llvm.measured
// RUN: %heaplint -v %s -- %libcxx -isystem %probes > %t/llvm.heaplint 2>&1
// RUN: %groundtruth compare --min-sites 3 template-generic-lambda-libc++ %t/llvm.measured %t/llvm.heaplint
#include <count_new.hpp>

#include <functional>
#include <utility>
#include <vector>

#include "../support/measure.hpp"

struct Pipeflow {};
enum class PipeType { SERIAL, PARALLEL };
template <class C = std::function<void(Pipeflow &)>> struct Pipe {
  PipeType type;
  C callable;
  Pipe(PipeType t, C &&c) : type(t), callable(std::move(c)) {}
};

// The library calls the pipe's generic lambda.
template <class F> void drive(F &&f) {
  Pipeflow pf;
  f(pf);
}

// Counted by hand, not through MEASURE: a lambda written in a macro's
// argument is named after the macro's place.
static unsigned long count_;
static unsigned long since(unsigned long mark) { return hl_count::allocations() - mark; }

int main() {
  long a = 1, b = 2, c = 3, d = 4;
  std::vector<Pipe<>> subpipes;
  subpipes.reserve(8); // the vector's own block, before any count
  int lines[3];
  unsigned long counts[3];
  drive([&](auto &pf) {
    count_ = hl_count::allocations();
    // GNU: template-generic-lambda.cpp:[[@LINE+1]]:45: warning: std::function<void (Pipeflow &)> stores this lambda on the heap: 24 bytes (align 8) exceeds libstdc++'s inline buffer of 16 bytes
    subpipes.emplace_back(PipeType::SERIAL, [&](auto &spf) { (void)(a + b + c + sizeof(spf) + sizeof(pf)); }); lines[0] = __LINE__;
    counts[0] = since(count_);
    count_ = hl_count::allocations();
    // GNU: template-generic-lambda.cpp:[[@LINE+2]]:47: warning: std::function<void (Pipeflow &)> stores this lambda on the heap: 40 bytes (align 8) exceeds libstdc++'s inline buffer of 16 bytes
    // LLVM: template-generic-lambda.cpp:[[@LINE+1]]:47: warning: std::function<void (Pipeflow &)> stores this lambda on the heap: 40 bytes (align 8) with libc++'s 8-byte vtable pointer in front need 48 bytes, more than its inline buffer of 32 bytes
    subpipes.emplace_back(PipeType::PARALLEL, [a, b, c, d, e = a](auto &) { (void)(a + b + c + d + e); }); lines[1] = __LINE__;
    counts[1] = since(count_);
    count_ = hl_count::allocations();
    subpipes.emplace_back(PipeType::SERIAL, [&](auto &) { (void)a; }); lines[2] = __LINE__;
    counts[2] = since(count_);
  });
  site(lines[0], counts[0], "three references");
  site(lines[1], counts[1], "five copies");
  site(lines[2], counts[2], "one reference");
  return 0;
}
