// A variable declared more than once in the file (extern, then its
// definition; a static member declared in the class, defined outside):
// retyping one declaration alone would not compile, so heaplint gives the
// suggestion as a note and edits nothing of it. A single declaration in the
// same file is still retyped, and the result compiles.
// RUN: cp %s %t.cpp
// RUN: %heaplint --fix %t.cpp -- -I%src_root/runtime/include %libstdcxx > %t.out 2> %t.err
// RUN: %FileCheck %s --check-prefix=NOTES < %t.out
// RUN: %FileCheck %s --check-prefix=SUMMARY < %t.err
// RUN: %FileCheck %s --check-prefix=FIXED < %t.cpp
// RUN: %gxx -std=c++17 -fsyntax-only -I%src_root/runtime/include %t.cpp
#include <functional>

extern std::function<void()> g;
std::function<void()> g;
struct S {
  static std::function<void()> f;
};
std::function<void()> S::f;
std::function<void()> h;

void set(long a, long b, long c) {
  g = [a, b, c] {};
  // NOTES: redeclared.cpp.tmp.cpp:[[@LINE-1]]:7: warning: std::function<void ()> stores this lambda on the heap: 24 bytes
  // NOTES: not rewritten automatically: it is declared more than once (again at {{.*}}redeclared.cpp.tmp.cpp:15), and heaplint retypes a single declaration only
  S::f = [a, b, c] {};
  // NOTES: redeclared.cpp.tmp.cpp:[[@LINE-1]]:10: warning: std::function<void ()> stores this lambda on the heap: 24 bytes
  // NOTES: not rewritten automatically: it is declared more than once (again at {{.*}}redeclared.cpp.tmp.cpp:19), and heaplint retypes a single declaration only
  h = [a, b, c] {};
  // NOTES: redeclared.cpp.tmp.cpp:[[@LINE-1]]:7: warning: std::function<void ()> stores this lambda on the heap: 24 bytes
  // NOTES: note: fix: replace with 'hl::inplace_function<void(), 24>'
  g();
  S::f();
  h();
}

// SUMMARY: 3 warnings in 1 file (libstdc++, x86_64); 1 fixed in 1 file
// FIXED:      {{^}}extern std::function<void()> g;
// FIXED-NEXT: {{^}}std::function<void()> g;
// FIXED:      {{^}}std::function<void()> S::f;
// FIXED-NEXT: {{^}}hl::inplace_function<void(), 24> h;
