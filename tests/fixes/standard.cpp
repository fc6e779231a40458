// --fix writes a runtime header only into a translation unit whose C++
// standard the header supports (rules/lib/runtime_std.c): below it, the note
// says which standard is needed and which one the unit is compiled as, and
// the file is left as it was. The standard is what the compiler makes of the
// arguments: -std= in any spelling, or its default when there is none.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: cp %s %t/cxx11.cpp && %heaplint --fix %t/cxx11.cpp -- -std=c++11 > %t/cxx11.out 2>&1
// RUN: %FileCheck %s --check-prefix=OLD -DSTD=C++11 < %t/cxx11.out
// RUN: cmp %s %t/cxx11.cpp
// RUN: cp %s %t/gnu14.cpp && %heaplint --fix %t/gnu14.cpp -- -std=gnu++1y -stdlib=libc++ > %t/gnu14.out 2>&1
// RUN: %FileCheck %s --check-prefix=OLD -DSTD=C++14 < %t/gnu14.out
// RUN: cmp %s %t/gnu14.cpp
// RUN: %clangxx -std=gnu++1y -stdlib=libc++ -fsyntax-only %t/gnu14.cpp
//
// The compiler's default (C++17 for clang 19), and C++20: rewritten.
// RUN: cp %s %t/default.cpp && %heaplint --fix %t/default.cpp -- > %t/default.out 2>&1
// RUN: %FileCheck %s --check-prefix=FIXED < %t/default.cpp
// RUN: cp %s %t/cxx20.cpp && %heaplint --fix %t/cxx20.cpp -- -std=c++20 > %t/cxx20.out 2>&1
// RUN: %FileCheck %s --check-prefix=FIXED < %t/cxx20.cpp
// RUN: %gxx -std=c++20 -fsyntax-only -I%src_root/runtime/include %t/cxx20.cpp
#include <functional>
#include <map>

long squares(int n, long a, long b, long c, long d) {
  // OLD: .cpp:[[@LINE+3]]:23: warning: std::map<int, long> 'squares' allocates
  // OLD: .cpp:[[@LINE+2]]:23: note: use hl::map<int, long> (<heaplint/containers.hpp>), which allocates its nodes from heaplint's pools and never calls the global operator new; not rewritten automatically: <heaplint/containers.hpp> needs C++17, and this translation unit is compiled as [[STD]]
  // FIXED: {{^}}  hl::map<int, long> squares;
  std::map<int, long> squares;
  for (int i = 0; i < n; i++) squares[i] = static_cast<long>(i) * i;
  long sum = 0;
  for (const auto &e : squares) sum += e.second;
  // OLD: .cpp:[[@LINE+2]]:32: note: use hl::inplace_function<long(), 32> {{.*}}; not rewritten automatically: <heaplint/inplace_function.hpp> needs C++17, and this translation unit is compiled as [[STD]]
  // FIXED: {{^}}  hl::inplace_function<long(), 32> step = [a, b, c, d] { return a + b + c + d; };
  std::function<long()> step = [a, b, c, d] { return a + b + c + d; };
  return sum + step();
}
