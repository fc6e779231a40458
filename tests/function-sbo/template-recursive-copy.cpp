// A conversion probe's copy of a call that reaches the template holding it
// (issue 38, found on BehaviorTree.CPP: registerNodeType<T>(ID, args...)
// calls registerNodeType<T>(ID, ports, args...)). For the proxy the
// variadic overload wins, with the proxy as one more argument; its body
// holds the copy again, which made another, one level deeper, to the
// compiler's depth limit, each level with errors (the proxy cannot be
// copied) whose notes name every level, each note longer by a level: the
// probe parse's diagnostics grew with the cube of the depth (on
// BehaviorTree.CPP's bt_factory.cpp over 14 GB; this unit, with a store
// beside it that engine/inst/instances does not follow, which sends a unit to
// the probe parse, 3.8 GB and 100 s at the default depth of 1024). Inside
// a function that names the probe's own proxy the copy is now the call
// again, so the probe parse does not depend on the depth limit: the same
// errors and notes at 32 and 64, counted by a preloaded libclang wrapper
// (before: 187 and 315 errors, 3707 and 10379 notes).
// --check-instances makes the probe parse run whatever
// engine/inst/instances answers.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: %clangxx -x c -shared -fPIC %S/Inputs/probe-diagnostics.c -o %t/probe-diagnostics.so -ldl
// RUN: cd %t && env ASAN_OPTIONS=verify_asan_link_order=0 LD_PRELOAD=%t/probe-diagnostics.so %heaplint --check-instances -j1 %s -- %libstdcxx -ftemplate-depth=32 > %t/32.out 2> %t/32.err
// RUN: cd %t && env ASAN_OPTIONS=verify_asan_link_order=0 LD_PRELOAD=%t/probe-diagnostics.so %heaplint --check-instances -j1 %s -- %libstdcxx -ftemplate-depth=64 > %t/64.out 2> %t/64.err
// RUN: grep '^probe-diagnostics: ' %t/32.err > %t/32.count
// RUN: grep '^probe-diagnostics: ' %t/64.err > %t/64.count
// RUN: diff %t/32.count %t/64.count
// RUN: diff %t/32.out %t/64.out
// RUN: %FileCheck %s --implicit-check-not=warning: < %t/64.out
// RUN: %FileCheck %s --check-prefix=SUMMARY < %t/64.err
//
// CHECK: template-recursive-copy.cpp:[[# @LINE + 9]]:96: warning: std::function<void ()> stores this lambda on the heap: 48 bytes (align 8) exceeds libstdc++'s inline buffer of 16 bytes
// SUMMARY: 1 warning in 1 file (libstdc++, x86_64){{$}}
#include <functional>
#include <map>
#include <string>

using Ports = std::map<std::string, std::string>;
struct Factory {
  std::function<void()> f;
  template <class T, class... A> void reg(const std::string &id, const Ports &p, A... a) { f = [p] {}; }
  template <class T, class... A> void reg(const std::string &id, A... a) { reg<T>(id, T::ports(), a...); }
};
struct Node {
  static Ports ports() { return {}; }
};
void use(Factory &f) { f.reg<Node>("x"); }
