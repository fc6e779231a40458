// What the fix changes, measured: each container filled in a loop of 1000
// insertions calls the global operator new once per element (count_new.hpp
// counts every overload); the same code after --fix, linked with heaplint's
// runtime, calls it zero times. On libstdc++ and libc++. A second --fix
// run changes nothing and finds nothing.
//
// RUN: rm -rf %t && mkdir -p %t && cp %s %t/counts.cpp
// RUN: %gxx %libstdcxx -O0 -isystem %probes %t/counts.cpp -o %t/before.gnu
// RUN: %clangxx %libcxx -O0 -isystem %probes %t/counts.cpp -o %t/before.llvm
// RUN: %t/before.gnu | %FileCheck %s --check-prefix=BEFORE
// RUN: %t/before.llvm | %FileCheck %s --check-prefix=BEFORE
//
// RUN: %heaplint --fix %t/counts.cpp -- %libstdcxx -isystem %probes -I%src_root/runtime/include 2> %t/fix.err | %FileCheck %s --check-prefix=FOUND --implicit-check-not=warning:
// RUN: %FileCheck %s --check-prefix=FIX-SUMMARY < %t/fix.err
// RUN: %FileCheck %s --check-prefix=FIXED < %t/counts.cpp
// RUN: %gxx %libstdcxx -O0 -isystem %probes -I%src_root/runtime/include %t/counts.cpp %runtime_lib -pthread -o %t/after.gnu
// RUN: %clangxx %libcxx -O0 -isystem %probes -I%src_root/runtime/include %t/counts.cpp %runtime_lib -pthread -o %t/after.llvm
// RUN: %t/after.gnu | %FileCheck %s --check-prefix=AFTER
// RUN: %t/after.llvm | %FileCheck %s --check-prefix=AFTER
//
// RUN: cp %t/counts.cpp %t/fixed.cpp
// RUN: %heaplint --fix %t/counts.cpp -- %libstdcxx -isystem %probes -I%src_root/runtime/include 2> %t/again.err | %count 0
// RUN: %FileCheck %s --check-prefix=AGAIN-SUMMARY < %t/again.err
// RUN: diff %t/fixed.cpp %t/counts.cpp
//
// FIX-SUMMARY: 8 warnings in 1 file (libstdc++, x86_64); 8 fixed in 1 file
// AGAIN-SUMMARY: 0 warnings in 1 file (libstdc++, x86_64); 0 fixed in 0 files
#include <cstdio>
#include <forward_list>
#include <list>
#include <map>
#include <set>
#include <unordered_map>
#include <unordered_set>

#include <count_new.hpp>

namespace {

const int n = 1000;

// Each function fills a container in a loop and returns the global
// allocations the loop made. The unordered ones reserve their buckets
// first, so that the loop allocates only nodes.

unsigned long list() {
  // FOUND: counts.cpp:[[@LINE+2]]:18: warning: std::list<int> 'c' {{.*}} [node-container]
  // FIXED: {{^}}  hl::list<int> c;
  std::list<int> c;
  unsigned long before = hl_count::allocations();
  for (int i = 0; i < n; i++) c.push_back(i);
  return hl_count::allocations() - before;
}

unsigned long forward_list() {
  // FOUND: counts.cpp:[[@LINE+2]]:26: warning: std::forward_list<int> 'c' {{.*}} [node-container]
  // FIXED: {{^}}  hl::forward_list<int> c;
  std::forward_list<int> c;
  unsigned long before = hl_count::allocations();
  for (int i = 0; i < n; i++) c.push_front(i);
  return hl_count::allocations() - before;
}

unsigned long map() {
  // FOUND: counts.cpp:[[@LINE+2]]:23: warning: std::map<int, long> 'c' {{.*}} [node-container]
  // FIXED: {{^}}  hl::map<int, long> c;
  std::map<int, long> c;
  unsigned long before = hl_count::allocations();
  for (int i = 0; i < n; i++) c[i] = i;
  return hl_count::allocations() - before;
}

unsigned long multimap() {
  // FOUND: counts.cpp:[[@LINE+2]]:27: warning: std::multimap<int, int> 'c' {{.*}} [node-container]
  // FIXED: {{^}}  hl::multimap<int, int> c;
  std::multimap<int, int> c;
  unsigned long before = hl_count::allocations();
  for (int i = 0; i < n; i++) c.emplace(i % 7, i);
  return hl_count::allocations() - before;
}

unsigned long set() {
  // FOUND: counts.cpp:[[@LINE+2]]:17: warning: std::set<int> 'c' {{.*}} [node-container]
  // FIXED: {{^}}  hl::set<int> c;
  std::set<int> c;
  unsigned long before = hl_count::allocations();
  for (int i = 0; i < n; i++) c.insert(i);
  return hl_count::allocations() - before;
}

unsigned long multiset() {
  // FOUND: counts.cpp:[[@LINE+2]]:22: warning: std::multiset<int> 'c' {{.*}} [node-container]
  // FIXED: {{^}}  hl::multiset<int> c;
  std::multiset<int> c;
  unsigned long before = hl_count::allocations();
  for (int i = 0; i < n; i++) c.insert(i % 7);
  return hl_count::allocations() - before;
}

unsigned long unordered_map() {
  // FOUND: counts.cpp:[[@LINE+2]]:32: warning: std::unordered_map<int, int> 'c' {{.*}} [node-container]
  // FIXED: {{^}}  hl::unordered_map<int, int> c;
  std::unordered_map<int, int> c;
  c.reserve(n);
  unsigned long before = hl_count::allocations();
  for (int i = 0; i < n; i++) c.emplace(i, i);
  return hl_count::allocations() - before;
}

unsigned long unordered_set() {
  // FOUND: counts.cpp:[[@LINE+2]]:27: warning: std::unordered_set<int> 'c' {{.*}} [node-container]
  // FIXED: {{^}}  hl::unordered_set<int> c;
  std::unordered_set<int> c;
  c.reserve(n);
  unsigned long before = hl_count::allocations();
  for (int i = 0; i < n; i++) c.insert(i);
  return hl_count::allocations() - before;
}

}  // namespace

int main() {
  struct {
    const char *name;
    unsigned long (*fill)();
  } const runs[] = {{"list", list},         {"forward_list", forward_list},   {"map", map},
                    {"multimap", multimap}, {"set", set},                     {"multiset", multiset},
                    {"unordered_map", unordered_map}, {"unordered_set", unordered_set}};
  for (const auto &r : runs) std::printf("%s: %d inserts, %lu global allocations\n", r.name, n, r.fill());
}

// BEFORE: list: 1000 inserts, 1000 global allocations
// BEFORE-NEXT: forward_list: 1000 inserts, 1000 global allocations
// BEFORE-NEXT: map: 1000 inserts, 1000 global allocations
// BEFORE-NEXT: multimap: 1000 inserts, 1000 global allocations
// BEFORE-NEXT: set: 1000 inserts, 1000 global allocations
// BEFORE-NEXT: multiset: 1000 inserts, 1000 global allocations
// BEFORE-NEXT: unordered_map: 1000 inserts, 1000 global allocations
// BEFORE-NEXT: unordered_set: 1000 inserts, 1000 global allocations
//
// AFTER: list: 1000 inserts, 0 global allocations
// AFTER-NEXT: forward_list: 1000 inserts, 0 global allocations
// AFTER-NEXT: map: 1000 inserts, 0 global allocations
// AFTER-NEXT: multimap: 1000 inserts, 0 global allocations
// AFTER-NEXT: set: 1000 inserts, 0 global allocations
// AFTER-NEXT: multiset: 1000 inserts, 0 global allocations
// AFTER-NEXT: unordered_map: 1000 inserts, 0 global allocations
// AFTER-NEXT: unordered_set: 1000 inserts, 0 global allocations
