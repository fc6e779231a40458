// A store in a class template's member that an implicit member of another
// class instantiates: Holder's implicit copy constructor copies its base
// Node<long> (the user's copy constructor, with its lambda), and Node's
// vtable, needed where a Holder is constructed, instantiates touch(). The
// probe parse's notes go from the class (the implicit member) to where
// that member is used, std::make_shared's construction, and on to the
// user's call (eventpp's CallbackList, copied by std::make_shared in
// HeterCallbackList). engine/inst/instances follows the same chain from clang's
// AST, so the unit is parsed once, and --check-instances finds no
// chain that differs. The parses are counted by a preloaded libclang
// wrapper.
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
//
// AST: count-parses: 1 without unsaved files, 0 with
// PARSE: 2 probes agree, 0 differ, 0 not told; 0 chains differ, 0 instances without one
// PARSE: count-parses: 1 without unsaved files, 1 with
// OUT: implicit-member.cpp:[[# @LINE + 12]]:8: warning: std::function<void ()> stores this lambda on the heap: 24 bytes (align 8) exceeds libstdc++'s inline buffer of 16 bytes
// OUT: implicit-member.cpp:[[# @LINE + 12]]:62: warning: std::function<void ()> stores this lambda on the heap: 24 bytes (align 8) exceeds libstdc++'s inline buffer of 16 bytes
#include <functional>
#include <memory>
template <class T> struct Node {
  T a{}, b{}, c{};
  std::function<void()> cb;
  Node() = default;
  Node(const Node &o) : a(o.a), b(o.b), c(o.c), cb([x = o.a, y = o.b, z = o.c] { (void)(x + y + z); }) {}
  virtual ~Node() = default;
  virtual void touch() { std::function<void()> f = [x = a, y = b, z = c] { (void)(x + y + z); }; f(); }
};
struct Holder : Node<long> {};
std::shared_ptr<Holder> share(const Holder &h) { return std::make_shared<Holder>(h); }
