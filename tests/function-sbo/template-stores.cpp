// Stores inside templates (issue 12). A layout that does not depend on the
// template's parameters is judged in the template, once: `this`, pointers,
// a [&] lambda's by-reference captures, std::bind of a member pointer, this
// and an int. A sink (a template that stores what its caller hands it, one
// or two levels deep, through std::move and std::forward) is judged per
// instantiation by a probe the compiler answers, and reported at the call
// that made the type concrete, with a note at the store.
//
// RUN: %heaplint %s -- %libstdcxx -isystem %probes | %FileCheck %s --check-prefix=GNU --implicit-check-not=warning:
// RUN: %heaplint %s -- %libcxx -isystem %probes | %FileCheck %s --check-prefix=LLVM --implicit-check-not=warning:
//
// Measured: the program counts the global operator new calls of every store
// (with both libraries) and prints "<line heaplint should report> <count>";
// heaplint must warn on exactly the lines that allocated.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %gxx %libstdcxx -O0 -w -isystem %probes %s -o %t/gnu && %t/gnu > %t/gnu.measured
// RUN: %heaplint -v %s -- %libstdcxx -isystem %probes > %t/gnu.heaplint 2>&1
// RUN: %groundtruth compare --min-sites 21 template-stores-libstdc++ %t/gnu.measured %t/gnu.heaplint
// RUN: %clangxx %libcxx -O0 -w -isystem %probes %s -o %t/llvm && %t/llvm > %t/llvm.measured
// RUN: %heaplint -v %s -- %libcxx -isystem %probes > %t/llvm.heaplint 2>&1
// RUN: %groundtruth compare --min-sites 21 template-stores-libc++ %t/llvm.measured %t/llvm.heaplint
#include <count_new.hpp>

#include <cstdio>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "../support/measure.hpp"

void take(std::function<void()> f) { f(); }

// One level: the caller's lambda decides.
template <class F> void wrap(F f) { take(std::move(f)); }

// Two levels, through std::forward.
template <class F> void fwd2(F &&f) { take(std::forward<F>(f)); }
template <class F> void fwd1(F &&f) { fwd2(std::forward<F>(f)); }

template <class T> struct Task {
  long a = 1, b = 2;
  std::function<void()> cb;
  // GNU: template-stores.cpp:[[@LINE+2]]:21: warning: std::function<void ()> stores this lambda on the heap: 24 bytes (align 8) exceeds libstdc++'s inline buffer of 16 bytes
  // GNU: note: captures: this (8), x (8), y (8)
  void arm() { cb = [this, x = a, y = b] { (void)(x + y); }; } static constexpr int arm_line = __LINE__;
  // GNU: template-stores.cpp:[[@LINE+2]]:69: warning: std::function<void ()> stores this std::bind result on the heap: 32 bytes (align 8) exceeds libstdc++'s inline buffer of 16 bytes; it is not trivially copyable
  // LLVM: template-stores.cpp:[[@LINE+1]]:69: warning: std::function<void ()> stores this std::bind result on the heap: 32 bytes (align 8) with libc++'s 8-byte vtable pointer in front need 40 bytes, more than its inline buffer of 32 bytes
  void arm2(int k) { auto g = std::bind(&Task::fire, this, k); take(g); } static constexpr int arm2_line = __LINE__;
  void fire(int) {}
};

// Three references: 24 bytes and trivially copyable, whatever T is.
template <class T> int f_ref(T &t, long u, long v) {
  // GNU: template-stores.cpp:[[@LINE+1]]:29: warning: std::function<void ()> stores this lambda on the heap: 24 bytes (align 8) exceeds libstdc++'s inline buffer of 16 bytes
  std::function<void()> f = [&] { (void)(t.size() + u + v); }; return __LINE__;
}

// A member of a class template whose store depends on the class's parameter:
// judged per instantiation, at the call that instantiates it.
template <class T> struct Holder {
  std::function<void()> cb;
  void set(T v) { cb = [v] { (void)v; }; } static constexpr int set_line = __LINE__;
};
struct Three { long x[3]; };

// More places a template stores what it is handed: a container of
// wrappers, a return, an explicit construction.
template <class T> struct Queue {
  std::vector<std::function<void()>> v;
  template <class F> void add(F f) { v.push_back(std::move(f)); }
  template <class F> void add2(F f) { v.emplace_back(std::move(f)); }
};
template <class F> std::function<void()> make(F f) { return f; }
// A constructor's member initializer, and a container whose wrapper type
// itself depends on the template (std::function<Sig>).
template <class T> struct Armed {
  long a = 1, b = 2;
  std::function<void()> cb;
  // GNU: template-stores.cpp:[[@LINE+1]]:16: warning: std::function<void ()> stores this lambda on the heap: 24 bytes
  Armed() : cb([this, x = a, y = b] { (void)(x + y); }) {} static constexpr int ctor_line = __LINE__;
};
template <class Sig> struct Slot {
  std::vector<std::function<Sig>> v;
  template <class F> void connect(F &&f) { v.emplace_back(std::forward<F>(f)); }
};
template <class F> std::function<void()> make2(F f) { return std::function<void()>(f); }
struct Functor { long x[3]; void operator()() const {} };

int main() {
  long a = 1, b = 2, c = 3;
  // GNU: template-stores.cpp:[[@LINE+2]]:34: warning: std::function<void ()> stores this lambda on the heap: 24 bytes (align 8) exceeds libstdc++'s inline buffer of 16 bytes
  // GNU: note: stored at {{.*}}template-stores.cpp:36 as std::function<void ()>
  MEASURE(__LINE__, "wrap sink", wrap([a, b, c] { (void)(a + b + c); }));
  MEASURE(__LINE__, "wrap sink, small", wrap([a] { (void)a; }));
  // GNU: template-stores.cpp:[[@LINE+2]]:39: warning: std::function<void ()> stores this lambda on the heap: 24 bytes (align 8) exceeds libstdc++'s inline buffer of 16 bytes
  // GNU: note: stored at {{.*}}template-stores.cpp:39 as std::function<void ()>
  MEASURE(__LINE__, "two-level sink", fwd1([a, b, c] { (void)(a + b + c); }));
  auto small = [a] { (void)a; };
  MEASURE(__LINE__, "two-level sink, lvalue", fwd1(small));
  // GNU: template-stores.cpp:[[@LINE+3]]:49: warning: std::function<void ()> stores this lambda on the heap: 32 bytes (align 8) exceeds libstdc++'s inline buffer of 16 bytes
  // LLVM: template-stores.cpp:[[@LINE+2]]:49: warning: std::function<void ()> stores this lambda on the heap: 32 bytes (align 8) with libc++'s 8-byte vtable pointer in front need 40 bytes, more than its inline buffer of 32 bytes
  // LLVM: note: stored at {{.*}}template-stores.cpp:39 as std::function<void ()>
  MEASURE(__LINE__, "two-level sink, 32 bytes", fwd1([a, b, c, d = a] { (void)(a + b + c + d); }));
  auto sp = std::make_shared<long>(1);
  // GNU: template-stores.cpp:[[@LINE+1]]:49: warning: std::function<void ()> stores this lambda on the heap: 16 bytes (align 8) would fit libstdc++'s 16-byte inline buffer, but it is not trivially copyable, which libstdc++ requires for inline storage
  MEASURE(__LINE__, "sink, shared_ptr capture", wrap([sp] { (void)*sp; }));

  Task<int> t;
  MEASURE(Task<int>::arm_line, "class template member, lambda", t.arm());
  MEASURE(Task<int>::arm2_line, "class template member, bind", t.arm2(1));
  std::string s = "x";
  int f_ref_line = 0;
  MEASURE(f_ref_line, "[&] lambda in a template", f_ref_line = f_ref(s, a, b));

  Holder<long> h1;
  Holder<Three> h3;
  MEASURE(__LINE__, "member store, 8 bytes", h1.set(1));
  // GNU: template-stores.cpp:[[@LINE+3]]:50: warning: std::function<void ()> stores this lambda on the heap: 24 bytes (align 8) exceeds libstdc++'s inline buffer of 16 bytes
  // GNU: note: stored at {{.*}}template-stores.cpp:64 as std::function<void ()>
  // GNU: note: use hl::inplace_function<void(), 24>
  MEASURE(__LINE__, "member store, 24 bytes", h3.set(Three{}));
  // The compiler instantiates Holder<Three>::set and wrap<Functor> once, and
  // names only their first call; every call of them stores alike.
  // GNU: template-stores.cpp:[[@LINE+2]]:57: warning: std::function<void ()> stores this lambda on the heap: 24 bytes
  // GNU: note: stored at {{.*}}template-stores.cpp:64 as std::function<void ()>
  MEASURE(__LINE__, "member store, 24 bytes, again", h3.set(Three{}));
  // GNU: template-stores.cpp:[[@LINE+2]]:37: warning: std::function<void ()> stores this functor 'Functor' on the heap: 24 bytes
  // GNU: note: stored at {{.*}}template-stores.cpp:36 as std::function<void ()>
  MEASURE(__LINE__, "functor sink", wrap(Functor{}));
  // GNU: template-stores.cpp:[[@LINE+2]]:44: warning: std::function<void ()> stores this functor 'Functor' on the heap: 24 bytes
  // GNU: note: stored at {{.*}}template-stores.cpp:36 as std::function<void ()>
  MEASURE(__LINE__, "functor sink, again", wrap(Functor{}));

  Queue<int> q;
  q.v.reserve(4);
  // GNU: template-stores.cpp:[[@LINE+2]]:50: warning: std::function<void ()> stores this lambda on the heap: 24 bytes
  // GNU: note: stored at {{.*}}template-stores.cpp:72 as std::function<void ()>
  MEASURE(__LINE__, "push_back in a template", q.add([a, b, c] { (void)(a + b + c); }));
  // GNU: template-stores.cpp:[[@LINE+1]]:53: warning: std::function<void ()> stores this lambda on the heap: 24 bytes
  MEASURE(__LINE__, "emplace_back in a template", q.add2([a, b, c] { (void)(a + b + c); }));
  // GNU: template-stores.cpp:[[@LINE+1]]:54: warning: std::function<void ()> stores this lambda on the heap: 24 bytes
  MEASURE(__LINE__, "return in a template", auto r = make([a, b, c] { (void)(a + b + c); }));
  // GNU: template-stores.cpp:[[@LINE+1]]:61: warning: std::function<void ()> stores this lambda on the heap: 24 bytes
  MEASURE(__LINE__, "construction in a template", auto r2 = make2([a, b, c] { (void)(a + b + c); }));

  MEASURE(Armed<int>::ctor_line, "constructor member initializer", Armed<int> armed);
  Slot<void()> slot;
  slot.v.reserve(4);
  // GNU: template-stores.cpp:[[@LINE+2]]:64: warning: std::function<Sig> stores this lambda on the heap: 24 bytes
  // GNU: note: stored at {{.*}}template-stores.cpp:86 as std::function<Sig>
  MEASURE(__LINE__, "emplace_back of std::function<Sig>", slot.connect([a, b, c] { (void)(a + b + c); }));

  // A lambda capturing a std::shared_ptr to a type declared here: the
  // pointee cannot be named, but a shared_ptr is never trivially copyable.
  struct Local { int x; };
  auto lp = std::make_shared<Local>();
  // GNU: template-stores.cpp:[[@LINE+2]]:77: warning: std::function<void ()> stores this lambda on the heap: 16 bytes (align 8) would fit libstdc++'s 16-byte inline buffer, but it is not trivially copyable
  // GNU: note: not trivially copyable: capture 'lp' (std::shared_ptr<Local>) is not trivially copyable (std::shared_ptr counts its owners when copied)
  MEASURE(__LINE__, "shared_ptr to a local type", std::function<void()> f = [lp] { (void)lp->x; });
  return 0;
}
