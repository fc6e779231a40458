// --fix writes a runtime header only into a translation unit whose C++
// standard the header supports (rules/lib/runtime_std.c): below it, the note
// says which standard is needed and which one the unit is compiled as, and
// the file is left as it was. The standard is what the compiler makes of the
// arguments: -std= in any spelling, or its default when there is none. The
// headers a fix includes need C++11: C++98 is left as it was.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: cp %s %t/cxx98.cpp && %heaplint --fix %t/cxx98.cpp -- -I%src_root/runtime/include -std=c++98 > %t/cxx98.out 2>&1
// RUN: %FileCheck %s --check-prefix=OLD -DSTD=C++98 < %t/cxx98.out
// RUN: cmp %s %t/cxx98.cpp
//
// C++11, C++14 (spelled gnu++1y), the compiler's default (C++17 for clang
// 19), and C++20: rewritten, and the result compiles in that standard.
// RUN: cp %s %t/cxx11.cpp && %heaplint --fix %t/cxx11.cpp -- -I%src_root/runtime/include -std=c++11 > %t/cxx11.out 2>&1
// RUN: %FileCheck %s --check-prefixes=FIXED,LAMBDA < %t/cxx11.cpp
// RUN: %gxx -std=c++11 -fsyntax-only -I%src_root/runtime/include %t/cxx11.cpp
// RUN: cp %s %t/gnu14.cpp && %heaplint --fix %t/gnu14.cpp -- -I%src_root/runtime/include -std=gnu++1y -stdlib=libc++ > %t/gnu14.out 2>&1
// RUN: %FileCheck %s --check-prefixes=FIXED,LAMBDA < %t/gnu14.cpp
// RUN: %clangxx -std=gnu++1y -stdlib=libc++ -fsyntax-only -I%src_root/runtime/include %t/gnu14.cpp
// RUN: cp %s %t/default.cpp && %heaplint --fix %t/default.cpp -- -I%src_root/runtime/include > %t/default.out 2>&1
// RUN: %FileCheck %s --check-prefixes=FIXED,LAMBDA < %t/default.cpp
// RUN: cp %s %t/cxx20.cpp && %heaplint --fix %t/cxx20.cpp -- -I%src_root/runtime/include -std=c++20 > %t/cxx20.out 2>&1
// RUN: %FileCheck %s --check-prefixes=FIXED,LAMBDA < %t/cxx20.cpp
// RUN: %gxx -std=c++20 -fsyntax-only -I%src_root/runtime/include %t/cxx20.cpp
#include <functional>
#include <map>

long squares(int n, long a, long b, long c, long d) {
  // OLD: .cpp:[[@LINE+3]]:23: warning: std::map<int, long> 'squares' allocates
  // OLD: .cpp:[[@LINE+2]]:23: note: use hl::map<int, long> (<heaplint/containers.hpp>), which allocates its nodes from heaplint's pools and never calls the global operator new; not rewritten automatically: <heaplint/containers.hpp> needs C++11, and this translation unit is compiled as [[STD]]
  // FIXED: {{^}}  hl::map<int, long> squares;
  std::map<int, long> squares;
  for (int i = 0; i < n; i++) squares[i] = static_cast<long>(i) * i;
#if __cplusplus >= 201103L
  long sum = 0;
  for (const auto &e : squares) sum += e.second;
  // LAMBDA: {{^}}  hl::inplace_function<long(), 32> step = [a, b, c, d] { return a + b + c + d; };
  std::function<long()> step = [a, b, c, d] { return a + b + c + d; };
  return sum + step();
#else
  (void)a, (void)b, (void)c, (void)d;
  return squares[n - 1];
#endif
}
