// Inside a template, a site whose stored type depends on a template
// parameter cannot be sized from the pattern: each instantiation is asked
// of the compiler (an instantiation probe) and reported where the code made
// the type concrete, with a note at the store; a template never instantiated
// stays undecided, and -v says so. A site that does not depend on the
// parameters is judged like any other; a lambda's closure type is dependent
// in a template, so a lambda whose captures all have a layout is laid out
// from them, and one whose default captures copy only non-dependent
// variables is judged once, at the store.
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
  // A default capture is resolved only when the template is instantiated,
  // but what it copies does not depend on T: judged once, here.
  // GNU: templates.cpp:[[@LINE+1]]:36: warning: std::function<void ()> stores this lambda on the heap: 24 bytes (align 8) exceeds libstdc++'s inline buffer of 16 bytes
  std::function<void()> implicit = [=] { (void)(a + b + c); };
  // GNU: templates.cpp:[[@LINE+1]]:29: warning: std::function<void ()> stores this functor 'Three' on the heap: 24 bytes (align 8) exceeds libstdc++'s inline buffer of 16 bytes
  std::function<void()> f = Three{};
  f();
}

void use() {
  dependent(1);
  // GNU: templates.cpp:[[@LINE+2]]:3: warning: std::function<void ()> stores this lambda on the heap: 16 bytes (align 8) would fit libstdc++'s 16-byte inline buffer, but it is not trivially copyable
  // GNU: templates.cpp:17:29: note: stored at {{.*}}templates.cpp:17 as std::function<void ()>
  dependent(std::make_pair(1L, 2L));
  independent(1);
  // A class template instantiation: the compiler is asked about Holder<long>.
  Holder<long> h;
  // GNU: templates.cpp:[[@LINE+2]]:29: warning: std::function<void ()> stores this lambda on the heap: 8 bytes (align 8) would fit libstdc++'s 16-byte inline buffer, but it is not trivially copyable
  // GNU: note: not trivially copyable: capture 'h' (Holder<long>) is not trivially copyable
  std::function<void()> g = [h] { (void)h; };
}

// A class template's member: an init-capture copying a member of the
// parameter's type depends on it (libclang shows only the capture's
// variable), and is judged where the class is instantiated. A std::bind of
// a member pointer, this and longs does not depend on it, even forwarded
// with explicit template arguments: judged once, at the store.
void take(std::function<void()> f);
template <class T> struct Armed {
  T t{};
  long a = 1;
  std::function<void()> cb;
  void arm() { cb = [this, u = t, x = a] { (void)(u + x); }; }
  void fire(long, long) {}
  void bind() {
    auto g = std::bind(&Armed::fire, this, 1L, 2L);
    // GNU: templates.cpp:[[@LINE+1]]:10: warning: std::function<void ()> stores this std::bind result on the heap: 40 bytes (align 8) exceeds libstdc++'s inline buffer of 16 bytes
    take(std::forward<decltype(g)>(g));
  }
};
void arm() {
  // GNU: templates.cpp:[[@LINE+2]]:17: warning: std::function<void ()> stores this lambda on the heap: 24 bytes (align 8) exceeds libstdc++'s inline buffer of 16 bytes
  // GNU: templates.cpp:[[@LINE-10]]:21: note: stored at {{.*}}templates.cpp:[[@LINE-10]] as std::function<void ()>
  Armed<long>().arm();
  // GNU: templates.cpp:[[@LINE+1]]:17: warning: std::function<void ()> stores this lambda on the heap: 24 bytes
  Armed<char>().arm();
  Armed<long>().bind();
  Armed<char>().bind();
}

// Never instantiated: not decided, and -v says why.
template <class T> void never(T t) {
  std::function<void()> f = [t] { (void)t; };
}
// REMARK: templates.cpp:[[@LINE-2]]:29: remark: function-sbo: not decided: the stored type depends on a template parameter (no instantiation of it was seen)
// REMARK: 1 site not decided: template-dependent (1)
