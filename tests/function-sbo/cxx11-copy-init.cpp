// Before C++17, copy-initialization constructs a temporary std::function and
// moves it into the variable (a constructor call libclang shows without a
// name): the store still goes into the variable, and the reasons given are
// about the variable's uses, not "it is passed to () as a std::function".
//
// RUN: %heaplint %s -- -std=c++11 2>&1 | %FileCheck %s --implicit-check-not="passed to ()"
// RUN: %heaplint %s -- -std=c++14 2>&1 | %FileCheck %s --implicit-check-not="passed to ()"
#include <functional>

void take(std::function<int()> &);

struct Big {
  long a = 1, b = 2, c = 3;
  int operator()() const { return static_cast<int>(a + b + c); }
};

void f(long a, long b, long c) {
  auto lambda = [a, b, c] { return static_cast<int>(a + b + c); };
  // CHECK: cxx11-copy-init.cpp:[[@LINE+1]]:28: note: use hl::inplace_function<int(), 24> {{.*}}; not rewritten automatically: it is passed to take() at {{.*}}cxx11-copy-init.cpp:[[@LINE+2]]{{$}}
  std::function<int()> g = lambda;
  take(g);
  // CHECK: cxx11-copy-init.cpp:[[@LINE+1]]:28: note: use hl::inplace_function<int(), 24> {{.*}}; not rewritten automatically: it is passed to take() at {{.*}}cxx11-copy-init.cpp:[[@LINE+2]]{{$}}
  std::function<int()> h = Big();
  take(h);
}
