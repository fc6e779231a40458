// The compiler instantiates a specialization once and names only the first
// call that requested it. eventpp's shape (issue 12): an event queue keyed
// by an id class whose converting constructor stores the key in a std::any.
// append(std::string) converts at the call and instantiates Id::Id<string>;
// dispatch(std::string) later converts inside the queue's own template and
// reuses that instantiation, so no probe answer names its line. heaplint
// follows the instantiated code of the project's templates from every call
// (libclang walks a specialization's instantiated body) and reports each
// call that reaches an allocating instantiation, with a note naming the
// call the compiler named.
//
// RUN: %heaplint %s -- %libstdcxx -isystem %probes | %FileCheck %s --check-prefix=GNU --implicit-check-not=warning:
// RUN: %heaplint %s -- %libcxx -isystem %probes | %FileCheck %s --check-prefix=LLVM --implicit-check-not=warning:
//
// Measured with both libraries against the counting operator new.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %gxx %libstdcxx -O0 -w -isystem %probes %s -o %t/gnu && %t/gnu > %t/gnu.measured
// RUN: %heaplint -v %s -- %libstdcxx -isystem %probes > %t/gnu.heaplint 2>&1
// RUN: %groundtruth compare --min-sites 6 any-reach-libstdc++ %t/gnu.measured %t/gnu.heaplint
// RUN: %clangxx %libcxx -O0 -w -isystem %probes %s -o %t/llvm && %t/llvm > %t/llvm.measured
// RUN: %heaplint -v %s -- %libcxx -isystem %probes > %t/llvm.heaplint 2>&1
// RUN: %groundtruth compare --min-sites 3 any-reach-libc++ %t/llvm.measured %t/llvm.heaplint
#include <count_new.hpp>

#include <any>
#include <string>
#include <utility>

#include "../support/measure.hpp"

struct Id {
  template <class T> Id(const T &v) : value(v) {}
  std::any value;
};

template <class E> struct Queue {
  template <class T> static E get(const T &t) { return t; }
  template <class T> void dispatch(T &&t) { E e = get(t); (void)e; }
  template <class T> void enqueue(T &&t) { dispatch(std::forward<T>(t)); }
  void append(const E &e) { (void)e; }
  // Reaches the constructor only inside a lambda that nobody calls: a
  // lambda's body runs when it is called, so it is not followed.
  template <class T> void later(const T &t) {
    auto f = [&t] { E e = get(t); (void)e; };
    (void)f;
  }
};

struct Four { long a, b, c, d; };

int main() {
  Queue<Id> q;
  std::string s("hi"); // inline in both libraries: only the any allocates
  // GNU: template-reach.cpp:[[@LINE+1]]:{{[0-9]+}}: warning: std::any stores this value of type 'std::basic_string<char>' on the heap: 32 bytes (align 8) exceeds libstdc++'s inline buffer of 8 bytes
  MEASURE(__LINE__, "append", q.append(s));
  // GNU: template-reach.cpp:[[@LINE+3]]:{{[0-9]+}}: warning: std::any stores this value of type 'std::basic_string<char>' on the heap
  // GNU: note: stored at {{.*}}template-reach.cpp:32 as std::any
  // GNU: note: its instantiation calls the one first requested at {{.*}}template-reach.cpp:[[@LINE-3]]
  MEASURE(__LINE__, "dispatch", q.dispatch(s));
  // Another specialization of dispatch (std::string&& against
  // std::string&), reaching the same constructor:
  // GNU: template-reach.cpp:[[@LINE+1]]:{{[0-9]+}}: warning: std::any stores this value of type 'std::basic_string<char>' on the heap
  MEASURE(__LINE__, "dispatch rvalue", q.dispatch(std::string(s)));
  // Two levels: enqueue calls dispatch, which calls get, which converts.
  // GNU: template-reach.cpp:[[@LINE+1]]:{{[0-9]+}}: warning: std::any stores this value of type 'std::basic_string<char>' on the heap
  MEASURE(__LINE__, "enqueue", q.enqueue(s));
  // GNU: template-reach.cpp:[[@LINE+2]]:{{[0-9]+}}: warning: std::any stores this value of type 'Four' on the heap: 32 bytes (align 8) exceeds libstdc++'s inline buffer of 8 bytes
  // LLVM: template-reach.cpp:[[@LINE+1]]:{{[0-9]+}}: warning: std::any stores this value of type 'Four' on the heap: 32 bytes (align 8) exceeds libc++'s inline buffer of 24 bytes
  MEASURE(__LINE__, "append Four", q.append(Four{1, 2, 3, 4}));
  // GNU: template-reach.cpp:[[@LINE+2]]:{{[0-9]+}}: warning: std::any stores this value of type 'Four' on the heap
  // LLVM: template-reach.cpp:[[@LINE+1]]:{{[0-9]+}}: warning: std::any stores this value of type 'Four' on the heap
  MEASURE(__LINE__, "dispatch Four", q.dispatch(Four{5, 6, 7, 8}));
  // GNU: template-reach.cpp:[[@LINE+2]]:{{[0-9]+}}: warning: std::any stores this value of type 'Four' on the heap
  // LLVM: template-reach.cpp:[[@LINE+1]]:{{[0-9]+}}: warning: std::any stores this value of type 'Four' on the heap
  MEASURE(__LINE__, "enqueue Four", q.enqueue(Four{5, 6, 7, 8}));
  // An int fits: neither the first call nor the later ones allocate.
  MEASURE(__LINE__, "append int", q.append(3));
  MEASURE(__LINE__, "dispatch int", q.dispatch(3));
  MEASURE(__LINE__, "later", q.later(s));
  return 0;
}
