// Stores inside templates through a call whose callee depends on the
// template (issue 12): list->append(cb) with a dependent list, a member
// initializer of a member whose type is the class's parameter. Which
// function is called, and whether it converts the argument to a wrapper,
// is known only per instantiation: a conversion probe asks the compiler.
// A template that hands on its caller's callable is reported at the
// caller, with a note at the store; calls that store nothing, or only a
// wrapper already (a copy, function-copy's), stay silent.
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
// RUN: %groundtruth compare --min-sites 10 template-calls-libstdc++ %t/gnu.measured %t/gnu.heaplint
// RUN: %clangxx %libcxx -O0 -w -isystem %probes %s -o %t/llvm && %t/llvm > %t/llvm.measured
// RUN: %heaplint -v %s -- %libcxx -isystem %probes > %t/llvm.heaplint 2>&1
// RUN: %groundtruth compare --min-sites 10 template-calls-libc++ %t/llvm.measured %t/llvm.heaplint
#include <count_new.hpp>

#include <any>
#include <cstdio>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "../support/measure.hpp"

// The list the templates hand callables to: it takes std::function (and
// keeps nothing, so that only the conversion is counted).
struct List {
  void append(const std::function<void()> &cb) { (void)cb; }
  void count(int) {}
};

// A sink through a dependent object: the caller's callable decides.
template <class L> struct Het {
  L *list;
  template <class C> void append(const C &callback) { list->append(callback); }
  template <class C> void count(const C &) { list->count(1); }
};

// A template's own value through a dependent object: one shared_ptr,
// 16 bytes whatever C is, not trivially copyable.
template <class L> struct Remover {
  L *list;
  template <class C> struct W {
    std::shared_ptr<C> data;
    void operator()() const { (*data)(); }
  };
  template <class C> void add(const std::shared_ptr<C> &c) { list->append(W<C>{c}); }
};

// A member whose type is the class's parameter, built from the caller's value.
template <class Storage> struct Id {
  Storage value;
  template <class T> Id(const T &v) : value(v) {}
};
struct Big { long x[4]; };

// An overload set the template names, one of whose overloads takes a
// wrapper (the others a pointer of a deduced type, an int): which one is
// chosen is known per instantiation, so the call is probed all the same.
inline void put(const std::function<void()> &cb) { (void)cb; }
template <class T> void put(T *) {}
inline void put(int) {}
template <class C> void hand(const C &c) { put(c); }

// An overload whose parameter is the enclosing class template's own (not
// deduced by the call): a wrapper in S<std::function<void()>>.
template <class Cb> struct S {
  void set(Cb cb) { (void)cb; }
  void set(int) {}
  template <class F> void on(const F &f) { set(f); }
};

int main() {
  long a = 1, b = 2, c = 3, d = 4;
  List list;
  Het<List> het{&list};
  // GNU: template-calls.cpp:[[@LINE+4]]:54: warning: std::function<void ()> stores this lambda on the heap: 24 bytes (align 8) exceeds libstdc++'s inline buffer of 16 bytes
  // GNU: template-calls.cpp:45:68: note: stored at {{.*}}template-calls.cpp:45 as std::function<void ()>
  // (The conversion is made in Het's instantiation: the note says why no edit.)
  // GNU: note: use hl::inplace_function<void (), 24> {{.*}}; not rewritten automatically: the wrapper is made by a call inside a template, whose parameter type comes from the instantiation: retype the type the template is instantiated with
  MEASURE(__LINE__, "sink through list->append", het.append([a, b, c] { (void)(a + b + c); }));
  MEASURE(__LINE__, "sink through list->append, small", het.append([a] { (void)a; }));
  // GNU: template-calls.cpp:[[@LINE+2]]:64: warning: std::function<void ()> stores this lambda on the heap: 32 bytes (align 8) exceeds libstdc++'s inline buffer of 16 bytes
  // LLVM: template-calls.cpp:[[@LINE+1]]:64: warning: std::function<void ()> stores this lambda on the heap: 32 bytes (align 8) with libc++'s 8-byte vtable pointer in front need 40 bytes
  MEASURE(__LINE__, "sink through list->append, 32 bytes", het.append([a, b, c, d] { (void)(a + b + c + d); }));
  // A std::function handed on is copied, not built: function-copy's.
  std::function<void()> f = [a] { (void)a; };
  MEASURE(__LINE__, "a std::function handed on", het.append(f));
  // The callee takes an int: nothing is stored.
  MEASURE(__LINE__, "a call that stores nothing", het.count([a, b, c] { (void)(a + b + c); }));

  Remover<List> rem{&list};
  auto shared = std::make_shared<std::function<void()>>([a] { (void)a; });
  // GNU: template-calls.cpp:[[@LINE+2]]:53: warning: std::function<void ()> stores this functor 'Remover<List>::W<std::function<void ()>>' on the heap: 16 bytes (align 8) would fit libstdc++'s 16-byte inline buffer, but it is not trivially copyable
  // GNU: template-calls.cpp:57:75: note: stored at {{.*}}template-calls.cpp:57 as std::function<void ()>
  MEASURE(__LINE__, "a template's own wrapper", rem.add(shared));

  // libc++ keeps a 24-byte std::string in its 24-byte buffer; a 32-byte
  // value goes to the heap on both.
  // GNU: template-calls.cpp:[[@LINE+2]]:69: warning: std::any stores this value of type 'std::basic_string<char>' on the heap: 32 bytes (align 8) exceeds libstdc++'s inline buffer of 8 bytes
  // GNU: template-calls.cpp:63:45: note: stored at {{.*}}template-calls.cpp:63 as std::any
  MEASURE(__LINE__, "member initializer, std::string", Id<std::any> s(std::string("x")));
  // GNU: template-calls.cpp:[[@LINE+3]]:61: warning: std::any stores this value of type 'Big' on the heap: 32 bytes (align 8) exceeds libstdc++'s inline buffer of 8 bytes
  // LLVM: template-calls.cpp:[[@LINE+2]]:61: warning: std::any stores this value of type 'Big' on the heap: 32 bytes (align 8) exceeds libc++'s inline buffer of 24 bytes
  // LLVM: template-calls.cpp:63:45: note: stored at {{.*}}template-calls.cpp:63 as std::any
  MEASURE(__LINE__, "member initializer, Big", Id<std::any> g(Big{}));
  MEASURE(__LINE__, "member initializer, long", Id<std::any> l(1L));
  // Not a wrapper in this instantiation: nothing is stored.
  MEASURE(__LINE__, "member initializer, not a wrapper", Id<long> n(1L));

  // GNU: template-calls.cpp:[[@LINE+2]]:55: warning: std::function<void ()> stores this lambda on the heap: 24 bytes (align 8) exceeds libstdc++'s inline buffer of 16 bytes
  // GNU: template-calls.cpp:73:48: note: stored at {{.*}}template-calls.cpp:73 as std::function<void ()>
  MEASURE(__LINE__, "an overload set, one a wrapper", hand([a, b, c] { (void)(a + b + c); }));
  MEASURE(__LINE__, "an overload set, an int", hand(1));
  S<std::function<void()>> sf;
  // GNU: template-calls.cpp:[[@LINE+2]]:60: warning: std::function<void ()> stores this lambda on the heap: 24 bytes (align 8) exceeds libstdc++'s inline buffer of 16 bytes
  // GNU: template-calls.cpp:80:48: note: stored at {{.*}}template-calls.cpp:80 as std::function<void ()>
  MEASURE(__LINE__, "the class's parameter, a wrapper", sf.on([a, b, c] { (void)(a + b + c); }));
  S<long> sl;
  MEASURE(__LINE__, "the class's parameter, not a wrapper", sl.on(2L));
  return 0;
}
