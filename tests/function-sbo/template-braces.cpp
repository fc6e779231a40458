// Stores inside templates written with braces, cb{x}, or as a local
// variable's parenthesized initializer, std::function<void()> cb(x) (issue
// 12, found on taskflow, whose task nodes store every user callable as
// `work{std::forward<C>(c)}` in a constructor template): inside a template
// libclang shows such a dependent initializer as a list of one value, and
// heaplint once took the list for the value and let these stores go
// unprobed. Each is judged per instantiation and reported at the caller,
// with a note at the store. A std::function handed to such a store is a
// copy, not a construction.
//
// RUN: %heaplint %s -- %libstdcxx -std=c++20 -isystem %probes | %FileCheck %s --check-prefix=GNU --implicit-check-not=warning:
// RUN: %heaplint %s -- %libcxx -std=c++20 -isystem %probes | %FileCheck %s --check-prefix=LLVM --implicit-check-not=warning:
//
// Measured: the program counts the global operator new calls of every store
// (with both libraries) and prints "<line heaplint should report> <count>";
// heaplint must warn on exactly the lines that allocated.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %gxx %libstdcxx -std=c++20 -O0 -w -isystem %probes %s -o %t/gnu && %t/gnu > %t/gnu.measured
// RUN: %heaplint -v %s -- %libstdcxx -std=c++20 -isystem %probes > %t/gnu.heaplint 2>&1
// RUN: %groundtruth compare --min-sites 10 template-braces-libstdc++ %t/gnu.measured %t/gnu.heaplint
// RUN: %clangxx %libcxx -std=c++20 -O0 -w -isystem %probes %s -o %t/llvm && %t/llvm > %t/llvm.measured
// RUN: %heaplint -v %s -- %libcxx -std=c++20 -isystem %probes > %t/llvm.heaplint 2>&1
// RUN: %groundtruth compare --min-sites 10 template-braces-libc++ %t/llvm.measured %t/llvm.heaplint
#include <count_new.hpp>

#include <any>
#include <functional>
#include <optional>
#include <type_traits>
#include <utility>
#include <variant>

#include "../support/measure.hpp"

// A constructor template of a plain class, defined out of line.
struct Out {
  template <class C> Out(C &&c);
  std::function<void()> work;
};
template <class C> Out::Out(C &&c) : work{std::forward<C>(c)} {}

// Defined in the class.
struct In {
  template <class C> In(C &&c) : work{std::forward<C>(c)} {}
  std::function<void()> work;
};

// A class template's constructor template.
template <class T> struct Tmpl {
  template <class C> Tmpl(C &&c) : work{std::forward<C>(c)} {}
  std::function<void()> work;
};

// std::any, braced.
template <class T> struct Holder {
  Holder(const T &v) : value{v} {}
  std::any value;
};
struct Big { long x[4]; };

// A local variable, braced and parenthesized.
template <class C> void braced(C &&c) { std::function<void()> work{std::forward<C>(c)}; }
template <class C> void parens(C &&c) { std::function<void()> work(std::forward<C>(c)); }

// taskflow's shape: a concept-constrained emplace hands the callable,
// through a std::variant built in place, to a node's constructor template.
struct Node {
  struct Static {
    template <class C> Static(C &&c);
    std::function<void()> work;
  };
  template <class... Args> Node(Args &&...args) : handle{std::forward<Args>(args)...} {}
  std::variant<std::monostate, Static> handle;
};
template <class C> Node::Static::Static(C &&c) : work{std::forward<C>(c)} {}
template <class C> concept StaticLike = std::is_invocable_r_v<void, C>;
struct Flow {
  std::optional<Node> node; // taskflow's node pool; a list would count its own node
  template <StaticLike C> void emplace(C &&c) {
    node.emplace(std::in_place_type_t<Node::Static>{}, std::forward<C>(c));
  }
};

int main() {
  long a = 1, b = 2, c = 3, d = 4;
  // GNU: template-braces.cpp:[[@LINE+2]]:50: warning: std::function<void ()> stores this lambda on the heap: 24 bytes (align 8) exceeds libstdc++'s inline buffer of 16 bytes
  // GNU: template-braces.cpp:40:43: note: stored at {{.*}}template-braces.cpp:40 as std::function<void ()>
  MEASURE(__LINE__, "out of line, 24 bytes", Out o([a, b, c] { (void)(a + b + c); }));
  MEASURE(__LINE__, "out of line, 8 bytes", Out o([a] { (void)a; }));
  // GNU: template-braces.cpp:[[@LINE+2]]:58: warning: std::function<void ()> stores this lambda on the heap: 24 bytes (align 8) exceeds libstdc++'s inline buffer of 16 bytes
  // GNU: template-braces.cpp:44:39: note: stored at {{.*}}template-braces.cpp:44 as std::function<void ()>
  MEASURE(__LINE__, "in the class, three references", In i([&] { (void)(a + b + c); }));
  // GNU: template-braces.cpp:[[@LINE+4]]:50: warning: std::function<void ()> stores this lambda on the heap: 40 bytes (align 8) exceeds libstdc++'s inline buffer of 16 bytes
  // GNU: template-braces.cpp:44:39: note: stored at {{.*}}template-braces.cpp:44 as std::function<void ()>
  // LLVM: template-braces.cpp:[[@LINE+2]]:50: warning: std::function<void ()> stores this lambda on the heap: 40 bytes (align 8) with libc++'s 8-byte vtable pointer in front need 48 bytes, more than its inline buffer of 32 bytes
  // LLVM: template-braces.cpp:44:39: note: stored at {{.*}}template-braces.cpp:44 as std::function<void ()>
  MEASURE(__LINE__, "in the class, 40 bytes", In i([a, b, c, d, e = a] { (void)(a + b + c + d + e); }));
  // GNU: template-braces.cpp:[[@LINE+4]]:59: warning: std::function<void ()> stores this lambda on the heap: 32 bytes (align 8) exceeds libstdc++'s inline buffer of 16 bytes
  // GNU: template-braces.cpp:50:41: note: stored at {{.*}}template-braces.cpp:50 as std::function<void ()>
  // LLVM: template-braces.cpp:[[@LINE+2]]:59: warning: std::function<void ()> stores this lambda on the heap: 32 bytes (align 8) with libc++'s 8-byte vtable pointer in front need 40 bytes, more than its inline buffer of 32 bytes
  // LLVM: template-braces.cpp:50:41: note: stored at {{.*}}template-braces.cpp:50 as std::function<void ()>
  MEASURE(__LINE__, "class template, 32 bytes", Tmpl<int> t([a, b, c, d] { (void)(a + b + c + d); }));
  // GNU: template-braces.cpp:[[@LINE+4]]:55: warning: std::any stores this value of type 'Big' on the heap: 32 bytes (align 8) exceeds libstdc++'s inline buffer of 8 bytes
  // GNU: template-braces.cpp:56:30: note: stored at {{.*}}template-braces.cpp:56 as std::any
  // LLVM: template-braces.cpp:[[@LINE+2]]:55: warning: std::any stores this value of type 'Big' on the heap: 32 bytes (align 8) exceeds libc++'s inline buffer of 24 bytes
  // LLVM: template-braces.cpp:56:30: note: stored at {{.*}}template-braces.cpp:56 as std::any
  MEASURE(__LINE__, "std::any, 32 bytes", Holder<Big> h(Big{}));
  MEASURE(__LINE__, "std::any, long", Holder<long> h(1L));
  // GNU: template-braces.cpp:[[@LINE+2]]:47: warning: std::function<void ()> stores this lambda on the heap: 24 bytes (align 8) exceeds libstdc++'s inline buffer of 16 bytes
  // GNU: template-braces.cpp:62:68: note: stored at {{.*}}template-braces.cpp:62 as std::function<void ()>
  MEASURE(__LINE__, "local variable, braced", braced([a, b, c] { (void)(a + b + c); }));
  // GNU: template-braces.cpp:[[@LINE+4]]:54: warning: std::function<void ()> stores this lambda on the heap: 32 bytes (align 8) exceeds libstdc++'s inline buffer of 16 bytes
  // GNU: template-braces.cpp:63:68: note: stored at {{.*}}template-braces.cpp:63 as std::function<void ()>
  // LLVM: template-braces.cpp:[[@LINE+2]]:54: warning: std::function<void ()> stores this lambda on the heap: 32 bytes (align 8) with libc++'s 8-byte vtable pointer in front need 40 bytes, more than its inline buffer of 32 bytes
  // LLVM: template-braces.cpp:63:68: note: stored at {{.*}}template-braces.cpp:63 as std::function<void ()>
  MEASURE(__LINE__, "local variable, parenthesized", parens([a, b, c, d] { (void)(a + b + c + d); }));
  MEASURE(__LINE__, "local variable, 8 bytes", parens([a] { (void)a; }));
  Flow flow;
  // GNU: template-braces.cpp:[[@LINE+2]]:65: warning: std::function<void ()> stores this lambda on the heap: 24 bytes (align 8) exceeds libstdc++'s inline buffer of 16 bytes
  // GNU: template-braces.cpp:75:55: note: stored at {{.*}}template-braces.cpp:75 as std::function<void ()>
  MEASURE(__LINE__, "through a variant, three references", flow.emplace([&] { (void)(a + b + c); }));
  MEASURE(__LINE__, "through a variant, one reference", flow.emplace([&] { (void)a; }));
  // A std::function handed to these stores is copied, not wrapped: a copy
  // (function-copy's), which allocates only when its target is on the heap.
  std::function<void()> held = [a] { (void)a; };
  MEASURE(__LINE__, "a std::function copied in, out of line", Out o(held));
  MEASURE(__LINE__, "a std::function copied in, through a variant", flow.emplace(held));
  MEASURE(__LINE__, "a std::function copied in, local variable", braced(held));
  return 0;
}
