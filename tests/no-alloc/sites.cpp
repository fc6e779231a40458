// Every allocation heaplint knows of, in a zone: the other rules' verdicts
// (outside loops too), and the constructs no-alloc knows itself. Outside
// the zone only the other rules speak; in it, what does not allocate is
// silent.
//
// RUN: %not %heaplint %s -- -std=c++20 -I%src_root/runtime/include > %t.out
// RUN: %FileCheck %s --implicit-check-not=error: < %t.out
#include <any>
#include <cstdlib>
#include <functional>
#include <list>
#include <map>
#include <memory>
#include <new>
#include <string>
#include <unordered_set>
#include <vector>

#include <heaplint/noalloc.h>

struct Voice {
  long a, b, c;
};

HEAPLINT_NO_ALLOC void zone(std::vector<int> &v, std::string &s, std::list<int> &l, std::map<int, int> &m,
                            std::unordered_set<int> &u, void *buf, const std::vector<int> &cv) {
  // CHECK: sites.cpp:[[@LINE+1]]:29: error: in no-allocation zone 'zone()': std::function<void ()> stores this lambda on the heap: 24 bytes (align 8) exceeds libstdc++'s inline buffer of 16 bytes [no-alloc]
  std::function<void()> f = [a = 1L, b = 2L, c = 3L] { (void)(a + b + c); };
  // CHECK: sites.cpp:[[@LINE+1]]:19: error: in no-allocation zone 'zone()': std::string built from a string literal of 31 characters allocates: libstdc++ keeps at most 15 characters inline [no-alloc]
  std::string t = "0123456789012345678901234567890";
  // CHECK: sites.cpp:[[@LINE+1]]:28: error: in no-allocation zone 'zone()': std::shared_ptr<Voice> takes 'new Voice': two allocations
  std::shared_ptr<Voice> p(new Voice);
  // CHECK: sites.cpp:[[@LINE+1]]:16: error: in no-allocation zone 'zone()': new Voice allocates from the global heap [no-alloc]
  Voice *raw = new Voice;
  delete raw;
  // CHECK: sites.cpp:[[@LINE+1]]:14: error: in no-allocation zone 'zone()': new Voice allocates from the global heap
  Voice *q = new (std::nothrow) Voice;
  delete q;
  Voice *placed = new (buf) Voice;
  (void)placed;
  // CHECK: sites.cpp:[[@LINE+1]]:9: error: in no-allocation zone 'zone()': throw allocates the exception object (__cxa_allocate_exception, from malloc)
  try { throw 1; } catch (...) {
    throw;
  }
  // CHECK: sites.cpp:[[@LINE+1]]:13: error: in no-allocation zone 'zone()': malloc() allocates from the global heap
  std::free(std::malloc(16));
  // CHECK: sites.cpp:[[@LINE+1]]:13: error: in no-allocation zone 'zone()': std::make_unique() allocates from the global heap
  auto up = std::make_unique<Voice>();
  // CHECK: sites.cpp:[[@LINE+1]]:3: error: in no-allocation zone 'zone()': push_back() on std::vector<int> may allocate: it grows its buffer from the global heap (std::allocator)
  v.push_back(1);
  // CHECK: sites.cpp:[[@LINE+1]]:3: error: in no-allocation zone 'zone()': operator+=() on std::string may allocate
  s += 'x';
  // CHECK: sites.cpp:[[@LINE+1]]:3: error: in no-allocation zone 'zone()': emplace_front() on std::list<int> allocates a node from the global heap (std::allocator)
  l.emplace_front(2);
  // CHECK: sites.cpp:[[@LINE+1]]:3: error: in no-allocation zone 'zone()': operator[]() on std::map<int, int> allocates a node
  m[1] = 2;
  // CHECK: sites.cpp:[[@LINE+1]]:3: error: in no-allocation zone 'zone()': insert() on std::unordered_set<int> allocates a node
  u.insert(3);
  // Reading allocates nothing.
  (void)(cv[0] + cv.size() + m.count(1) + s.size() + v.back());
}

// The same outside a zone: only the other rules' warnings.
// CHECK: sites.cpp:[[@LINE+2]]:{{[0-9]+}}: warning: std::function<void ()> stores this lambda on the heap
void outside(std::vector<int> &v) {
  std::function<void()> f = [a = 1L, b = 2L, c = 3L] { (void)(a + b + c); };
  delete new Voice;
  v.push_back(1);
}
