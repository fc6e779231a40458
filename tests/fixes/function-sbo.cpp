// function-sbo's fixes, checked on the rewritten text: each kind of
// declaration it retypes, and each case where it gives a note instead.
//
// RUN: cp %s %t.cpp
// RUN: %heaplint --fix %t.cpp -- -I%src_root/runtime/include %libstdcxx > %t.out 2> %t.err
// RUN: %FileCheck %s --check-prefix=FIXED < %t.cpp
// RUN: %FileCheck %s --check-prefix=NOTES < %t.out
// RUN: %FileCheck %s --check-prefix=SUMMARY < %t.err
// The result compiles against the runtime, and a second run has nothing to fix.
// RUN: %gxx -std=c++17 -fsyntax-only -I%src_root/runtime/include %t.cpp
// RUN: %heaplint --fix %t.cpp -- %libstdcxx -I%src_root/runtime/include > %t.again 2>&1
// RUN: %FileCheck %s --check-prefix=AGAIN < %t.again
//
// The include goes after the last #include:
// FIXED: {{^}}#include <vector>
// FIXED-NEXT: {{^}}#include <heaplint/inplace_function.hpp>
#include <functional>
#include <utility>
#include <vector>

void take(std::function<void()>);
using Callback = std::function<void()>;

struct Timer {
  long id = 0, deadline = 0;
  // A member of a class only this file sees, assigned known lambdas.
  // FIXED: {{^}}  hl::inplace_function<void(), 24> on_fire;
  std::function<void()> on_fire;
  void fire(long, long) {}
  void arm() {
    // A local variable: every store known, only called.
    // FIXED: {{^}}    hl::inplace_function<void(), 24> cb = [this, id = id, deadline = deadline] { fire(id, deadline); };
    std::function<void()> cb = [this, id = id, deadline = deadline] { fire(id, deadline); };
    cb();
    on_fire = [this, a = 1L, b = 2L] { (void)a, (void)b; };
    if (on_fire) on_fire();
  }
};

void f(long a, long b, long c, long d) {
  // The capacity holds every callable stored: the largest is 32 bytes.
  // FIXED: {{^}}  std::vector<hl::inplace_function<void(), 32>> handlers;
  std::vector<std::function<void()>> handlers;
  for (int i = 0; i < 3; i++) handlers.push_back([a, b, i] {});
  handlers.emplace_back([a, b, c, d] {});
  for (auto &h : handlers) h();
  handlers[0]();
  // Reassigned a known lambda and nullptr: still known.
  // FIXED: {{^}}  hl::inplace_function<void(), 24> two = [a] {};
  std::function<void()> two = [a] {};
  two = [a, b, c] {};
  two = nullptr;

  // Notes instead of edits; the text stays as it was.
  // FIXED: {{^}}  std::function<void()> escapes = [a, b, c] {};
  // NOTES: function-sbo.cpp.tmp.cpp:[[@LINE+1]]:35: note: use hl::inplace_function<void(), 24> (<heaplint/inplace_function.hpp>), which keeps targets of up to 24 bytes inline and never allocates, or capture less; not rewritten automatically: it is passed to take() at {{.*}}function-sbo.cpp.tmp.cpp:[[@LINE+2]]
  std::function<void()> escapes = [a, b, c] {};
  take(escapes);
  // FIXED: {{^}}  Callback aliased = [a, b, c] {};
  // NOTES: function-sbo.cpp.tmp.cpp:[[@LINE+1]]:22: note: {{.*}}not rewritten automatically: its type is spelled through the alias 'Callback', which other code may use; retype the alias
  Callback aliased = [a, b, c] {};
  // FIXED: {{^}}  std::function<void()> copied = [a, b, c] {};
  // NOTES: function-sbo.cpp.tmp.cpp:[[@LINE+1]]:34: note: {{.*}}not rewritten automatically: it is copied into 'copy' at
  std::function<void()> copied = [a, b, c] {};
  auto copy = copied;
  // FIXED: {{^}}  std::function<void()> reassigned = [a, b, c] {};
  // NOTES: function-sbo.cpp.tmp.cpp:[[@LINE+1]]:38: note: {{.*}}not rewritten automatically: it is assigned another wrapper at {{.*}}, whose size heaplint does not know
  std::function<void()> reassigned = [a, b, c] {};
  reassigned = copy;
  // NOTES: function-sbo.cpp.tmp.cpp:[[@LINE+1]]:8: note: {{.*}}not rewritten automatically: it is passed to take() as a std::function
  take([a, b, c] {});
}

// What precedes a type is not part of its name: an access label's ':', a
// comment before the declaration, a case label.
struct Labeled {
public:
  // FIXED: {{^}}  hl::inplace_function<void(), 24> handler;
  std::function<void()> handler;
  void set(long a, long b, long c) { handler = [a, b, c] {}; }
};
void labeled(long a, long b, long c, int k) {
  /* the callback */
  // FIXED: {{^}}  hl::inplace_function<void(), 24> commented_before = [a, b, c] {};
  std::function<void()> commented_before = [a, b, c] {};
  commented_before();
  switch (k) {
  // FIXED: {{^}}  case 1: { hl::inplace_function<void(), 24> in_case = [a, b, c] {}; in_case(); }
  case 1: { std::function<void()> in_case = [a, b, c] {}; in_case(); }
  }
}

// Spellings whose rewrite would not compile: the type written once for two
// names (the other would change type too), a macro's argument (the new
// type's comma would split it), a comment inside the name.
#define DECLARE(T, name) T name
// FIXED: {{^}}struct Pair { std::function<void()> first, second; };
struct Pair { std::function<void()> first, second; };
void spelled(Pair &p, long a, long b, long c) {
  // FIXED: {{^}}  std::function<void()> one = [a, b, c] {}, other;
  // NOTES: function-sbo.cpp.tmp.cpp:[[@LINE+1]]:31: note: {{.*}}not rewritten automatically: its declaration also declares 'other'; declare it on its own
  std::function<void()> one = [a, b, c] {}, other;
  // NOTES: function-sbo.cpp.tmp.cpp:[[@LINE+1]]:13: note: {{.*}}not rewritten automatically: its declaration also declares 'second'; declare it on its own
  p.first = [a, b, c] {};
  // FIXED: {{^}}  DECLARE(std::function<void()>, in_macro) = [a, b, c] {};
  // NOTES: function-sbo.cpp.tmp.cpp:[[@LINE+1]]:46: note: {{.*}}not rewritten automatically: its type is written in a macro's argument, where the new type's comma would split it
  DECLARE(std::function<void()>, in_macro) = [a, b, c] {};
  // FIXED: {{^}}  std::/* the standard one */function<void()> commented = [a, b, c] {};
  // NOTES: function-sbo.cpp.tmp.cpp:[[@LINE+1]]:59: note: {{.*}}not rewritten automatically: a comment is written inside its type's name
  std::/* the standard one */function<void()> commented = [a, b, c] {};
  one();
  other = nullptr;
  in_macro();
  commented();
}

std::function<void()> make(long a, long b, long c) {
  // NOTES: function-sbo.cpp.tmp.cpp:[[@LINE+1]]:10: note: {{.*}}not rewritten automatically: it is returned as a std::function
  return [a, b, c] {};
}

// function-copy adds three copies of heap targets (escapes, copied, copy),
// each fixed with std::move at its last use.
// SUMMARY: 21 warnings in 1 file (libstdc++, x86_64); 11 fixed in 1 file
// AGAIN: 10 warnings in 1 file (libstdc++, x86_64); 0 fixed in 0 files
