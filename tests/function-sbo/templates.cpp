// Inside a template, a site whose stored type depends on a template
// parameter cannot be sized from the pattern: heaplint stays silent rather
// than guess (instantiations are not visited). A site that does not depend
// on the parameters is judged like any other; a lambda's closure type is
// dependent in a template, so a lambda whose listed captures all have a
// layout is laid out from them.
//
// RUN: %heaplint -v %s -- %libstdcxx 2>%t.err | %FileCheck %s --check-prefix=GNU --implicit-check-not=warning:
// RUN: %FileCheck %s --check-prefix=REMARK < %t.err
#include <functional>
#include <utility>

template <class T> void dependent(T t) {
  std::function<void()> f = [t] { (void)t; };
  f();
}

template <class T> struct Holder {
  T value;
  Holder() = default;
  Holder(const Holder &o) noexcept(sizeof(T) <= 8) : value(o.value) {}
};

struct Three { long x[3]; void operator()() const {} };

template <class T> void independent(T t) {
  long a = 0, b = 0, c = 0;
  char ch = 0;
  // GNU: templates.cpp:[[@LINE+2]]:34: warning: std::function<void ()> stores this lambda on the heap: 24 bytes (align 8) exceeds libstdc++'s inline buffer of 16 bytes
  // GNU: note: captures: a (8), b (8), c (8)
  std::function<void()> lambda = [a, b, c] { (void)(a + b + c); };
  // A reference to a dependent type is still a pointer.
  // GNU: templates.cpp:[[@LINE+2]]:34: warning: std::function<void ()> stores this lambda on the heap: 24 bytes (align 8) exceeds
  // GNU: note: captures: a (8), ch (1, +7 padding), t (8)
  std::function<void()> by_ref = [a, ch, &t] { (void)(a + ch); };
  // A default capture is resolved only when the template is instantiated.
  std::function<void()> implicit = [=] { (void)(a + b + c); };
  // GNU: templates.cpp:[[@LINE+1]]:29: warning: std::function<void ()> stores this functor 'Three' on the heap: 24 bytes (align 8) exceeds libstdc++'s inline buffer of 16 bytes
  std::function<void()> f = Three{};
  f();
}

void use() {
  dependent(1);
  dependent(std::make_pair(1L, 2L));
  independent(1);
  // A class template instantiation: the compiler is asked about Holder<long>.
  Holder<long> h;
  // GNU: templates.cpp:[[@LINE+2]]:29: warning: std::function<void ()> stores this lambda on the heap: 8 bytes (align 8) would fit libstdc++'s 16-byte inline buffer, but it is not trivially copyable
  // GNU: note: not trivially copyable: capture 'h' (Holder<long>) is not trivially copyable
  std::function<void()> g = [h] { (void)h; };
}

// The dependent site is not decided, and -v says why.
// REMARK: templates.cpp:14:29: remark: function-sbo: not decided: the stored type depends on a template parameter
// REMARK: templates.cpp:37:36: remark: function-sbo: not decided: the stored type depends on a template parameter
