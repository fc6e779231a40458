// The std::move fix, checked on the rewritten text: applied at a last use in
// straight-line code, and nowhere else. The result compiles on both
// libraries, and a second run has nothing left to report.
//
// RUN: cp %s %t.cpp
// RUN: %heaplint --config-file=%S/Inputs/copies-only.yaml --fix %t.cpp -- %libstdcxx > %t.out 2> %t.err
// RUN: %FileCheck %s --check-prefix=FIXED --match-full-lines < %t.cpp
// RUN: %FileCheck %s --check-prefix=NOTES < %t.out
// RUN: %FileCheck %s --check-prefix=SUMMARY < %t.err
// RUN: %gxx -std=c++17 -fsyntax-only %t.cpp
// RUN: %clangxx -std=c++17 -stdlib=libc++ -fsyntax-only %t.cpp
// RUN: %heaplint --config-file=%S/Inputs/copies-only.yaml %t.cpp -- %libstdcxx 2>&1 | %FileCheck %s --check-prefix=AGAIN
#include <functional>
#include <vector>
// FIXED: #include <vector>
// FIXED-NEXT: #include <utility>

struct X { void on(int, long); };
using cb_t = std::function<void(int)>;
void run(cb_t cb);

#define BIG(x) std::bind(&X::on, x, std::placeholders::_1, 7L)

void last(X *x, std::vector<cb_t> &v, bool go) {
  cb_t a = BIG(x);
  a(1);
  // NOTES: fixes.cpp.tmp.cpp:[[@LINE+2]]:7: note: fix: this is the last use of 'a': std::move(a) hands its target over without allocating
  // FIXED: {{^}}  run(std::move(a));
  run(a);
  cb_t b = BIG(x);
  // FIXED: {{^}}  v.push_back(std::move(b));
  v.push_back(b);
  cb_t c = BIG(x);
  // NOTES: fixes.cpp.tmp.cpp:[[@LINE+2]]:13: note: fix: this is the last use of 'c': capture it by moving (c = std::move(c)), which hands its target over without allocating
  // FIXED: {{^}}  auto f = [c = std::move(c)] { c(1); };
  auto f = [c] { c(1); };
  cb_t d = BIG(x);
  // FIXED: {{^}}  auto g = [e = std::move(d)] { e(1); };
  auto g = [e = d] { e(1); };
  cb_t h = BIG(x);
  // FIXED: {{^}}  if (go) run(std::move(h));
  if (go) run(h);
  f(), g();
}

void not_last(X *x, std::vector<cb_t> &v, int n) {
  cb_t a = BIG(x);
  // Used again later.
  // FIXED: {{^}}  run(a);
  run(a);
  a(1);
  // Used again in the same statement.
  cb_t b = BIG(x);
  // FIXED: {{^}}  run(b), b(2);
  run(b), b(2);
  // Copied in a loop.
  cb_t c = BIG(x);
  // FIXED: {{^}}  for (int i = 0; i < n; i++) v.push_back(c);
  for (int i = 0; i < n; i++) v.push_back(c);
  // Held by reference by a lambda that may run later.
  cb_t d = BIG(x);
  auto later = [&d] { d(1); };
  // FIXED: {{^}}  run(d);
  run(d);
  later();
  // Declared in an outer block.
  cb_t e = BIG(x);
  {
    // FIXED: {{^}}    run(e);
    run(e);
  }
  // const: std::move would copy anyway.
  const cb_t k = BIG(x);
  // FIXED: {{^}}  run(k);
  run(k);
  // [=] has no name to move.
  cb_t m = BIG(x);
  // FIXED: {{^}}  auto all = [=] { m(1); };
  auto all = [=] { m(1); };
  all();
}

// A member is not the function's to move from.
struct S {
  cb_t m;
  void arm(X *x) { m = BIG(x); }
  // FIXED: {{^}}  cb_t get() { return m; }
  cb_t get() { return m; }
};

// A callee that only reads its by-value parameter takes a const reference
// instead, in every declaration; no copy is left, last use or not.
// FIXED: void call_twice(const cb_t &cb);
void call_twice(cb_t cb);
// FIXED: void call_twice(const cb_t &cb) { cb(1); cb(2); }
void call_twice(cb_t cb) { cb(1); cb(2); }
// Its address is taken: a note, and std::move at a last use.
void stored(cb_t cb) { cb(1); }
void (*keep_it)(cb_t) = stored;
// Copies its parameter: std::move at a last use only.
void copies(cb_t cb) { cb_t again = cb; again(1); }
void readers(X *x) {
  cb_t a = BIG(x);
  // NOTES: fixes.cpp.tmp.cpp:[[@LINE+2]]:14: note: fix: call_twice() only reads 'cb': take it by const reference (const cb_t &cb) and no copy is made
  // FIXED: {{^}}  call_twice(a);
  call_twice(a);
  // FIXED: {{^}}  call_twice(a);
  call_twice(a);
  // NOTES: fixes.cpp.tmp.cpp:[[@LINE+2]]:10: note: stored() only reads 'cb': take it by const reference (const cb_t &cb) and no copy is made; not rewritten automatically: the function's address is taken
  // FIXED: {{^}}  stored(std::move(a));
  stored(a);
  cb_t b = BIG(x);
  // NOTES-NOT: copies() only reads
  // FIXED: {{^}}  copies(std::move(b));
  copies(b);
}

// SUMMARY: 17 warnings in 1 file (libstdc++, x86_64); 9 fixed in 1 file
// AGAIN: 8 warnings in 1 file (libstdc++, x86_64)
