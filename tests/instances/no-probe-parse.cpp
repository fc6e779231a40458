// A unit whose template stores engine/inst/instances answers from clang's AST,
// conversion probes included (a call whose callee depends on the template,
// and one that hands the lambda to std::vector::emplace_back), is parsed
// once: no probe parse. The findings are the probe parse's, which
// --check-instances makes run (and compares). A store in a generic
// lambda's body, which the AST reader does not follow, still gets the
// probe parse. A value a template streams (CLI11's detail::to_string) is
// followed into an operator<< that casts it (an enum's) or does
// arithmetic with it: converted to no wrapper. The parses are counted by a preloaded libclang wrapper.
//
// REQUIRES: instances
// RUN: rm -rf %t && mkdir -p %t
// RUN: %clangxx -x c -shared -fPIC %S/Inputs/count-parses.c -o %t/count-parses.so -ldl
// RUN: cd %t && env ASAN_OPTIONS=verify_asan_link_order=0 LD_PRELOAD=%t/count-parses.so %heaplint -j1 %s -- %libstdcxx > %t/ast.out 2> %t/ast.err
// RUN: cd %t && env ASAN_OPTIONS=verify_asan_link_order=0 LD_PRELOAD=%t/count-parses.so %heaplint --check-instances -j1 %s -- %libstdcxx > %t/parse.out 2> %t/parse.err
// RUN: %FileCheck %s --check-prefix=AST < %t/ast.err
// RUN: %FileCheck %s --check-prefix=PARSE < %t/parse.err
// RUN: diff %t/ast.out %t/parse.out
// RUN: %FileCheck %s --check-prefix=OUT < %t/ast.out
// The same with libc++, whose std::function takes the callable by value.
// RUN: cd %t && env ASAN_OPTIONS=verify_asan_link_order=0 LD_PRELOAD=%t/count-parses.so %heaplint -j1 %s -- %libcxx > %t/ast-llvm.out 2> %t/ast-llvm.err
// RUN: cd %t && env ASAN_OPTIONS=verify_asan_link_order=0 LD_PRELOAD=%t/count-parses.so %heaplint --check-instances -j1 %s -- %libcxx > %t/parse-llvm.out 2> %t/parse-llvm.err
// RUN: %FileCheck %s --check-prefix=AST < %t/ast-llvm.err
// RUN: %FileCheck %s --check-prefix=PARSE < %t/parse-llvm.err
// RUN: diff %t/ast-llvm.out %t/parse-llvm.out
// RUN: %FileCheck %s --check-prefix=OUT-LLVM < %t/ast-llvm.out
// RUN: sed 's/^\/\/ generic: //' %s | grep -v '^// [A-Z]' > %t/generic.cpp
// RUN: cd %t && env ASAN_OPTIONS=verify_asan_link_order=0 LD_PRELOAD=%t/count-parses.so %heaplint -j1 generic.cpp -- %libstdcxx > /dev/null 2> %t/generic.err
// RUN: %FileCheck %s --check-prefix=GENERIC < %t/generic.err
//
// AST: count-parses: 1 without unsaved files, 0 with
// PARSE: 5 conversions agree, 0 differ, 0 not told; 0 chains differ, 0 instances without one
// PARSE: count-parses: 1 without unsaved files, 1 with
// GENERIC: count-parses: 1 without unsaved files, 1 with
// OUT: no-probe-parse.cpp:[[# @LINE + 10]]:70: warning: std::function<void ()> stores this lambda on the heap: 24 bytes (align 8) exceeds libstdc++'s inline buffer of 16 bytes
// OUT: no-probe-parse.cpp:[[# @LINE + 10]]:89: warning: std::function<void ()> stores this lambda on the heap: 32 bytes (align 8) exceeds libstdc++'s inline buffer of 16 bytes
// OUT-LLVM: no-probe-parse.cpp:[[# @LINE + 9]]:89: warning: std::function<void ()> stores this lambda on the heap: 32 bytes (align 8) with libc++'s 8-byte vtable pointer in front need 40 bytes
#include <functional>
#include <vector>
struct List {
  std::function<void()> work;
  std::vector<std::function<void()>> all;
  void append(std::function<void()> f) { work = std::move(f); }
};
template <class L> void add(L &l, long a, long b, long c) { l.append([a, b, c] { (void)(a + b + c); }); }
template <class L> void keep(L &l, long a, long b, long c, long d) { l.all.emplace_back([a, b, c, d] { (void)(a + b + c + d); }); }
void user(List &l) { add(l, 1, 2, 3); keep(l, 1, 2, 3, 4); }
// generic: void g(List &l) { auto h = [&l](auto v) { l.append([v] { (void)v; }); }; h(1L); }
#include <sstream>
#include <string>
#include <type_traits>
namespace en {
enum class Level { low, high };
enum Color { red, green };
template <class E, typename std::enable_if<std::is_enum<E>::value && !std::is_convertible<E, int>::value, int>::type = 0>
std::ostream &operator<<(std::ostream &o, const E &e) {
  return o << static_cast<typename std::underlying_type<E>::type>(e);
}
template <class C, typename std::enable_if<std::is_same<C, Color>::value, int>::type = 0>
std::ostream &operator<<(std::ostream &o, const C &c) {
  return o << (c + 1);
}
}  // namespace en
using en::operator<<;
template <class T> std::string show(T &&v) {
  std::stringstream s;
  s << v;
  return s.str();
}
std::string shown() { return show(en::Level::high) + show(2) + show(en::green); }
