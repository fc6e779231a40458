// Why a store is not rewritten, in words that name what the code does: the
// call it is passed to (through a pointer, a member pointer, an operator()),
// what it is assigned to; and a bind result named as one however it gets
// to the store (a variable, auto&&, std::move).
//
// RUN: %heaplint %s -- %libstdcxx | %FileCheck %s --implicit-check-not="passed to ()" --implicit-check-not="functor 'std::_Bind" --implicit-check-not="cannot retype"
#include <functional>
#include <utility>

void take(std::function<void()>);
struct Sink {
  void operator()(std::function<void()>);
};
void (*fp)(std::function<void()>);
struct S {
  void f(long, long);
};

void calls(long a, long b, long c, Sink s, void (Sink::*pm)(std::function<void()>), std::function<void(std::function<void()>)> sf) {
  // CHECK: wording.cpp:[[@LINE+1]]:6: note: {{.*}}not rewritten automatically: it is passed to a call through the function pointer 'fp' as a std::function{{$}}
  fp([a, b, c] {});
  // CHECK: wording.cpp:[[@LINE+1]]:9: note: {{.*}}not rewritten automatically: it is passed to a call through a function pointer as a std::function{{$}}
  (*fp)([a, b, c] {});
  // CHECK: wording.cpp:[[@LINE+1]]:5: note: {{.*}}not rewritten automatically: it is passed to operator() of 's' (Sink) as a std::function{{$}}
  s([a, b, c] {});
  // CHECK: wording.cpp:[[@LINE+1]]:11: note: {{.*}}not rewritten automatically: it is passed to a call through a pointer to member function as a std::function{{$}}
  (s.*pm)([a, b, c] {});
  // CHECK: wording.cpp:[[@LINE+1]]:6: note: {{.*}}not rewritten automatically: it is passed to operator() of 'sf' (std::function<void (std::function<void ()>)>) as a std::function{{$}}
  sf([a, b, c] {});
  auto lam = [](std::function<void()>) {};
  // CHECK: wording.cpp:[[@LINE+1]]:7: note: {{.*}}not rewritten automatically: it is passed to the lambda 'lam' as a std::function{{$}}
  lam([a, b, c] {});
}

void binds(S *p, long a, long b) {
  auto &&cb = std::bind(&S::f, p, a, b);
  // CHECK: wording.cpp:[[@LINE+2]]:8: warning: std::function<void ()> stores this std::bind result on the heap: 40 bytes
  // CHECK: wording.cpp:[[@LINE+1]]:8: note: not trivially copyable: the std::bind result (std::_Bind<void (S::*(S *, long, long))(long, long)>) is not trivially copyable
  take(cb);
  auto cb2 = std::bind(&S::f, p, a, b);
  // CHECK: wording.cpp:[[@LINE+1]]:8: warning: std::function<void ()> stores this std::bind result on the heap: 40 bytes
  take(std::move(cb2));
}

void assigned(long a, long b, long c, std::function<void()> &param) {
  std::function<void()> arr[2];
  // CHECK: wording.cpp:[[@LINE+1]]:12: note: {{.*}}not rewritten automatically: it is assigned to 'arr[0]', an element of an array; heaplint retypes variables and members{{$}}
  arr[0] = [a, b, c] {};
  std::function<void()> local;
  // CHECK: wording.cpp:[[@LINE+1]]:13: note: {{.*}}not rewritten automatically: it is assigned to '*&local', an object reached through a pointer; heaplint retypes variables and members{{$}}
  *&local = [a, b, c] {};
  // CHECK: wording.cpp:[[@LINE+1]]:11: note: {{.*}}not rewritten automatically: it is assigned to 'param', a parameter, whose type its callers see; heaplint retypes variables and members{{$}}
  param = [a, b, c] {};
}
