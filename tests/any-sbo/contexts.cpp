// Every way a value gets into a std::any: construction, assignment,
// std::make_any, any::emplace, std::in_place_type, arguments, returns and
// containers.
//
// RUN: %heaplint %s -- %libstdcxx | %FileCheck %s --check-prefix=GNU --implicit-check-not=warning:
#include <any>
#include <map>
#include <utility>
#include <vector>

struct Pair { long a, b; };

void take(std::any);
std::any make() {
  // GNU: contexts.cpp:[[@LINE+1]]:10: warning: std::any stores this value of type 'Pair' on the heap: 16 bytes (align 8) exceeds libstdc++'s inline buffer of 8 bytes
  return Pair{};
}

void f(Pair p) {
  // GNU: contexts.cpp:[[@LINE+1]]:14: warning: {{.*}}'Pair' on the heap: 16 bytes
  std::any a(p);
  // GNU: contexts.cpp:[[@LINE+1]]:7: warning: {{.*}}'Pair' on the heap: 16 bytes
  a = p;
  // GNU: contexts.cpp:[[@LINE+1]]:12: warning: std::any stores this value of type 'Pair' on the heap: 16 bytes
  auto b = std::make_any<Pair>();
  // GNU: contexts.cpp:[[@LINE+1]]:5: warning: std::any stores this value of type 'Pair' on the heap: 16 bytes
  b.emplace<Pair>();
  // GNU: contexts.cpp:[[@LINE+1]]:12: warning: std::any stores this value of type 'Pair' on the heap: 16 bytes
  std::any c(std::in_place_type<Pair>);
  // GNU: contexts.cpp:[[@LINE+1]]:8: warning: {{.*}}'Pair' on the heap: 16 bytes
  take(p);
  std::vector<std::any> v;
  // GNU: contexts.cpp:[[@LINE+1]]:18: warning: {{.*}}'Pair' on the heap: 16 bytes
  v.emplace_back(p);
  // GNU: contexts.cpp:[[@LINE+1]]:15: warning: {{.*}}'Pair' on the heap: 16 bytes
  v.push_back(p);
  std::map<int, std::any> m;
  // GNU: contexts.cpp:[[@LINE+1]]:10: warning: {{.*}}'Pair' on the heap: 16 bytes
  m[1] = p;
  // GNU: contexts.cpp:[[@LINE+1]]:20: warning: {{.*}}'Pair' on the heap: 16 bytes
  m.try_emplace(2, p);
  // Copies and moves of an any store nothing new, and neither does a small
  // value; the copy of a heap value allocates again (function-copy).
  // GNU: contexts.cpp:[[@LINE+1]]:16: warning: copying this std::any allocates again: {{.*}} [function-copy]
  std::any d = a;
  std::any e = std::move(d);
  std::any small = 1L;
  small = 2;
}
