// make-shared's fixes, applied and measured (count_new.hpp): before --fix
// each object made into a shared_ptr costs two calls of the global operator
// new, after it one; std::allocate_shared with hl::pool_allocator costs
// none. The rewritten file compiles on libstdc++ and libc++; a second run
// finds only what it could not rewrite.
//
// RUN: rm -rf %t && mkdir -p %t && cp %s %t/fixes.cpp
// RUN: %gxx %libstdcxx -O0 -isystem %probes -I%src_root/runtime/include %t/fixes.cpp %runtime_lib -pthread -o %t/before
// RUN: %t/before | %FileCheck %s --check-prefix=BEFORE
// RUN: %heaplint --fix %t/fixes.cpp -- %libstdcxx -isystem %probes -I%src_root/runtime/include > %t/out 2> %t/err
// RUN: %FileCheck %s --check-prefix=SUMMARY < %t/err
// RUN: %FileCheck %s --check-prefix=FIXED < %t/fixes.cpp
// RUN: %gxx %libstdcxx -O0 -isystem %probes -I%src_root/runtime/include %t/fixes.cpp %runtime_lib -pthread -o %t/after.gnu
// RUN: %clangxx %libcxx -O0 -isystem %probes -I%src_root/runtime/include %t/fixes.cpp %runtime_lib -pthread -o %t/after.llvm
// RUN: %t/after.gnu | %FileCheck %s --check-prefix=AFTER
// RUN: %t/after.llvm | %FileCheck %s --check-prefix=AFTER
// RUN: %heaplint --fix %t/fixes.cpp -- %libstdcxx -isystem %probes -I%src_root/runtime/include > %t/again 2> %t/again.err
// RUN: %FileCheck %s --check-prefix=AGAIN < %t/again.err
//
// SUMMARY: 5 warnings in 1 file (libstdc++, x86_64); 4 fixed in 1 file
// AGAIN: 1 warning in 1 file (libstdc++, x86_64); 0 fixed in 0 files
#include <cstdio>
#include <memory>
#include <string>

#include <count_new.hpp>
#include <heaplint/pool_allocator.hpp>

struct Node {
  Node(int v, const char *n) : value(v), name(n) {}
  int value;
  const char *name;
};

std::shared_ptr<Node> made() {
  // FIXED: {{^}}  return std::make_shared<Node>(1, "one");
  return std::shared_ptr<Node>(new Node(1, "one"));
}

std::shared_ptr<const Node> declared() {
  // FIXED: {{^}}  std::shared_ptr<const Node> p(std::make_shared<Node>(2, "two"));
  std::shared_ptr<const Node> p(new Node(2, "two"));
  return p;
}

std::shared_ptr<Node> reset() {
  std::shared_ptr<Node> p;
  // FIXED: {{^}}  p = std::make_shared<Node>(3, "three");
  p.reset(new Node(3, "three"));
  return p;
}

std::shared_ptr<int> scalar() {
  // FIXED: {{^}}  std::shared_ptr<int> p{std::make_shared<int>(4)};
  std::shared_ptr<int> p{new int(4)};
  return p;
}

std::shared_ptr<Node> kept() {
  // FIXED: {{^}}  return std::shared_ptr<Node>(new Node{5, "five"});
  return std::shared_ptr<Node>(new Node{5, "five"});
}

std::shared_ptr<Node> pooled() { return std::allocate_shared<Node>(hl::pool_allocator<Node>(), 6, "six"); }

template <class F> void count(const char *name, F f) {
  unsigned long before = hl_count::allocations();
  auto p = f();
  std::printf("%s %lu %d\n", name, hl_count::allocations() - before, p ? 1 : 0);
}

int main() {
  count("made", made);
  count("declared", declared);
  count("reset", reset);
  count("scalar", scalar);
  count("kept", kept);
  count("pooled", pooled);
  // BEFORE: made 2 1
  // BEFORE-NEXT: declared 2 1
  // BEFORE-NEXT: reset 2 1
  // BEFORE-NEXT: scalar 2 1
  // BEFORE-NEXT: kept 2 1
  // BEFORE-NEXT: pooled 0 1
  // AFTER: made 1 1
  // AFTER-NEXT: declared 1 1
  // AFTER-NEXT: reset 1 1
  // AFTER-NEXT: scalar 1 1
  // AFTER-NEXT: kept 2 1
  // AFTER-NEXT: pooled 0 1
}
