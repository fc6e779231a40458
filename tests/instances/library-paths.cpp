// Paths through the library and the language that engine/inst/instances
// follows from clang's AST, so that the unit is parsed once (eventpp's
// dispatchers, queues and remover utilities, in small):
// - an implicit member used in several places in code that is no
//   template's: clang defined it at the first in the text, where the probe
//   parse's notes go on (Box's copy constructor, first required in
//   first());
// - a defaulted member on the way (std::pair's copy constructor): clang
//   notes it "first required here", which is no link of the chain;
// - a class (no closure) whose move constructor is implicit and not yet
//   declared: nothrow when its members' are (Wrapper's lambda and
//   std::shared_ptr);
// - an object seen as its base (getEvent calling a member of Event on a
//   MouseEvent): passed on, no conversion;
// - a library constructor template that takes the value as it is and
//   hands it on to an element (std::tuple<int, long>'s, reached through
//   post's call of enqueue, a conversion probe): followed to the
//   element's member initializer, a conversion to long, no wrapper.
// Each of the four alone makes the probe parse run with heaplint 4cace83.
// The findings are the probe parse's (--check-instances makes it run
// and compares), the parses are counted by a preloaded libclang wrapper.
//
// REQUIRES: instances
// RUN: rm -rf %t && mkdir -p %t
// RUN: %clangxx -x c -shared -fPIC %S/Inputs/count-parses.c -o %t/count-parses.so -ldl
// RUN: cd %t && env ASAN_OPTIONS=verify_asan_link_order=0 LD_PRELOAD=%t/count-parses.so %heaplint -j1 %s -- %libstdcxx -std=c++17 > %t/ast.out 2> %t/ast.err
// RUN: cd %t && env ASAN_OPTIONS=verify_asan_link_order=0 LD_PRELOAD=%t/count-parses.so %heaplint --check-instances -j1 %s -- %libstdcxx -std=c++17 > %t/parse.out 2> %t/parse.err
// RUN: %FileCheck %s --check-prefix=AST < %t/ast.err
// RUN: %FileCheck %s --check-prefix=PARSE < %t/parse.err
// RUN: diff %t/ast.out %t/parse.out
// RUN: %FileCheck %s --check-prefix=OUT < %t/ast.out
// The same on libc++ (its std::function keeps the 24-byte lambdas inline:
// no warning; the paths through its std::tuple and std::pair differ).
// RUN: cd %t && env ASAN_OPTIONS=verify_asan_link_order=0 LD_PRELOAD=%t/count-parses.so %heaplint -j1 %s -- %libcxx > %t/llvm-ast.out 2> %t/llvm-ast.err
// RUN: cd %t && env ASAN_OPTIONS=verify_asan_link_order=0 LD_PRELOAD=%t/count-parses.so %heaplint --check-instances -j1 %s -- %libcxx > %t/llvm-parse.out 2> %t/llvm-parse.err
// RUN: %FileCheck %s --check-prefix=AST < %t/llvm-ast.err
// RUN: %FileCheck %s --check-prefix=PARSE < %t/llvm-parse.err
// RUN: diff %t/llvm-ast.out %t/llvm-parse.out
// RUN: %FileCheck %s --check-prefix=LLVM-OUT < %t/llvm-ast.err
//
// AST: count-parses: 1 without unsaved files, 0 with
// PARSE: instances: {{.*}}: {{[1-9][0-9]*}} probes agree, 0 differ, 0 not told; 0 chains differ, 0 instances without one
// PARSE: instances: {{.*}}: {{[1-9][0-9]*}} conversions agree, 0 differ, 0 not told; 0 chains differ, 0 instances without one
// PARSE: count-parses: 1 without unsaved files, {{[1-9]}} with
// OUT: library-paths.cpp:61:8: warning: std::function<void ()> stores this lambda on the heap: 24 bytes (align 8) exceeds libstdc++'s inline buffer of 16 bytes
// OUT: library-paths.cpp:82:36: warning: std::function<void ()> stores this functor 'Wrapper<(lambda at {{.*}}library-paths.cpp:82:48)>' on the heap: 24 bytes (align 8)
// OUT: library-paths.cpp:103:70: warning: std::function<void ()> stores this lambda on the heap: 24 bytes (align 8)
// LLVM-OUT: 0 warnings in 1 file (libc++, x86_64)
#include <functional>
#include <memory>
#include <tuple>
#include <utility>
#include <vector>

template <class T> struct Node {
  T a{}, b{}, c{};
  std::function<void()> cb;
  Node() = default;
  Node(const Node &o) : a(o.a), b(o.b), c(o.c), cb([x = o.a, y = o.b, z = o.c] { (void)(x + y + z); }) {}
};
struct Holder : Node<long> {};
struct Box {
  std::pair<int, Holder> p;
};
Box first(const Box &b) { return b; }
Box second(const Box &b) {
  Box c(b);
  return c;
}

template <class F> struct Wrapper {
  F f;
  std::shared_ptr<int> data;
  void operator()() const { f(); }
};
struct List {
  std::vector<std::function<void()>> cbs;
  void append(const std::function<void()> &cb) { cbs.push_back(cb); }
};
template <class C> void add(List &l, const C &c) { l.append(c); }
template <class F> Wrapper<F> wrap(F f) { return Wrapper<F>{f, nullptr}; }
void use_wrapper(List &l, int k) { add(l, wrap([k] { (void)k; })); }

struct Event {
  int type = 1;
  int getType() const { return type; }
};
struct MouseEvent : Event {
  int x = 0, y = 0;
};
struct Policy {
  template <class E> static int getEvent(const E &e) { return e.getType(); }
};
template <class P> struct Dispatcher {
  template <class T, class F> void dispatch(T &&event, F f) { doDispatch(std::forward<T>(event), f); }
  template <class T, class F> void doDispatch(T &&event, F f) {
    if (P::getEvent(std::forward<T>(event))) {
      std::function<void()> g = f;
      g();
    }
  }
};
void use_dispatch(Dispatcher<Policy> &d, long a, long b, long c) { d.dispatch(MouseEvent(), [a, b, c] { (void)(a + b + c); }); }

struct Queue {
  std::vector<std::tuple<int, long>> items;
  template <class... A> void enqueue(int e, A &&...v) { items.push_back(std::tuple<int, long>(e, std::forward<A>(v)...)); }
};
template <class T> void post(Queue &q, T &&v) { q.enqueue(1, std::forward<T>(v)); }
void use_queue(Queue &q) { post(q, 5); }
