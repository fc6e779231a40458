// Every kind of copy of a wrapper whose target is known to be on the heap,
// on both libraries: a copy allocates again exactly when the construction
// that reached it did not fit the library's inline buffer.
//
// RUN: %heaplint --config-file=%S/Inputs/copies-only.yaml %s -- %libstdcxx | %FileCheck %s --check-prefixes=CHECK,GNU --implicit-check-not=warning:
// RUN: %heaplint --config-file=%S/Inputs/copies-only.yaml %s -- %libcxx | %FileCheck %s --check-prefixes=CHECK,LLVM --implicit-check-not=warning:
#include <any>
#include <functional>
#include <list>
#include <memory>
#include <vector>

struct X { void on(int, long); };
using cb_t = std::function<void(int)>;
void run(cb_t cb);
void cref(const cb_t &cb);
void run_int(int);

// A std::bind of a member pointer, an object pointer, a placeholder and a
// long: 32 bytes, on the heap with both libraries.
void kinds(X *x, std::vector<cb_t> &v, std::list<cb_t> &l) {
  cb_t cb = std::bind(&X::on, x, std::placeholders::_1, 7L);
  // CHECK: copies.cpp:[[@LINE+4]]:7: warning: copying this std::function<void (int)> allocates again: its target (a std::bind result, 32 bytes) is stored on the heap by [[LIB:libstdc\+\+|libc\+\+]] [function-copy]
  // CHECK: copies.cpp:[[@LINE-2]]:13: note: its target is stored here: 32 bytes (align 8)
  // GNU-SAME: exceeds libstdc++'s inline buffer of 16 bytes
  // LLVM-SAME: with libc++'s 8-byte vtable pointer in front need 40 bytes, more than its inline buffer of 32 bytes
  run(cb);
  // CHECK: copies.cpp:[[@LINE+1]]:11: warning: copying this std::function<void (int)> allocates again: its target
  cb_t c2(cb);
  // CHECK: copies.cpp:[[@LINE+1]]:13: warning: copying {{.*}} allocates again: its target
  cb_t c3 = cb;
  // Assigning a copy: the copy is reported, and c2 (a copy of a heap target)
  // is now known too.
  // CHECK: copies.cpp:[[@LINE+1]]:8: warning: copying {{.*}} allocates again: its target
  c2 = cb;
  // CHECK: copies.cpp:[[@LINE+1]]:15: warning: copying {{.*}} allocates again: its target
  v.push_back(cb);
  // CHECK: copies.cpp:[[@LINE+1]]:18: warning: copying {{.*}} allocates again: its target
  v.emplace_back(cb);
  // CHECK: copies.cpp:[[@LINE+1]]:23: warning: copying {{.*}} allocates again: its target
  v.insert(v.begin(), cb);
  // CHECK: copies.cpp:[[@LINE+1]]:16: warning: copying {{.*}} allocates again: its target
  l.push_front(cb);
  // Captures by copy: named, initialized, and what [=] takes (reported at
  // the '=').
  // CHECK: copies.cpp:[[@LINE+1]]:14: warning: copying {{.*}} allocates again: its target
  auto f1 = [cb] { cb(1); };
  // CHECK: copies.cpp:[[@LINE+1]]:18: warning: copying {{.*}} allocates again: its target
  auto f2 = [c = cb] { c(1); };
  // CHECK: copies.cpp:[[@LINE+1]]:14: warning: copying {{.*}} allocates again: its target
  auto f3 = [=] { cb(2); };
  // A capture by reference, a const reference, a call, a test: no copy.
  auto f4 = [&cb] { cb(3); };
  cref(cb);
  if (cb) cb(4);
  // A copy of a copy: c3's target came from cb.
  // CHECK: copies.cpp:[[@LINE+1]]:7: warning: copying {{.*}} allocates again: its target (a std::bind result, 32 bytes)
  run(c3);
  (void)cb.target_type();
  f1(), f2(), f3(), f4();
}

// Copies in a loop body allocate on every iteration; a lambda created in a
// loop copies its capture on every iteration, a copy in its body does not.
void loops(X *x, std::vector<cb_t> &v, int n) {
  cb_t cb = std::bind(&X::on, x, std::placeholders::_1, 7L);
  for (int i = 0; i < n; i++) {
    // CHECK: copies.cpp:[[@LINE+1]]:17: warning: copying this std::function<void (int)> allocates again on every iteration of the enclosing loop: its target
    v.push_back(cb);
    // CHECK: copies.cpp:[[@LINE+1]]:19: warning: copying {{.*}} allocates again on every iteration of the enclosing loop: its target
    auto later = [cb] {
      // CHECK: copies.cpp:[[@LINE+1]]:11: warning: copying this std::function<void (int)> allocates again: its target
      run(cb);
    };
    later();
  }
}

// Numbers decide, per library: three longs (24 bytes) are on the heap with
// libstdc++ and inline with libc++; a shared_ptr is not trivially copyable
// (libstdc++ requires it) but nothrow copyable (libc++ requires that); two
// longs fit both; four do not.
void per_library(long a, long b, long c, long d) {
  cb_t three = [a, b, c](int) { (void)(a + b + c); };
  // GNU: copies.cpp:[[@LINE+1]]:7: warning: copying this std::function<void (int)> allocates again: its target (a lambda, 24 bytes) is stored on the heap by libstdc++ [function-copy]
  run(three);
  auto sp = std::make_shared<long>(a);
  cb_t shared = [sp](int) { (void)sp; };
  // GNU: copies.cpp:[[@LINE+1]]:7: warning: copying {{.*}} its target (a lambda, 16 bytes) is stored on the heap by libstdc++
  run(shared);
  cb_t two = [a, b](int) { (void)(a + b); };
  run(two);
  cb_t four = [a, b, c, d](int) { (void)(a + b + c + d); };
  // CHECK: copies.cpp:[[@LINE+1]]:7: warning: copying {{.*}} its target (a lambda, 32 bytes) is stored on the heap by [[LIB]]
  run(four);
  cb_t fp = &run_int;
  run(fp);
}

// std::any: a std::vector<int> (24 bytes) exceeds libstdc++'s 8 bytes and
// fits libc++'s 24; an int fits both.
void anys(std::vector<int> big) {
  std::any a = big;
  // GNU: copies.cpp:[[@LINE+1]]:16: warning: copying this std::any allocates again: its target (a value of type 'std::vector<int>', 24 bytes) is stored on the heap by libstdc++ [function-copy]
  std::any b = a;
  std::any i = 1;
  std::any j = i;
  (void)b, (void)j;
}
