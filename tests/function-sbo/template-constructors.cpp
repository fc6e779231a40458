// A callable that a function template hands to a class's constructor
// (issue 37: the two template patterns real code still hid). Inside the
// template the construction is resolved only per instantiation, so the
// pattern shows no conversion to std::function; but when every constructor
// of the class that takes that many arguments takes a std::function at the
// callable's place, whatever the instantiation resolves to stores it:
//
// - make_worker<T>(CB cb) passing std::move(cb) to a class template's
//   constructor whose parameter is std::function<void(Task<T> *)> (new
//   Worker<T>(...), Worker<T>(...) returned, a variable Worker<T> w{...});
// - auto &&tmp = std::bind(std::forward<F>(f), std::forward<A>(a)...) moved
//   into a constructor that takes std::function<void()>, called with
//   several different callables.
//
// Reported at the user's call, with a note at the construction.
//
// RUN: %heaplint %s -- %libstdcxx -isystem %probes > %t.gnu.txt
// RUN: %FileCheck %s --check-prefix=GNU --implicit-check-not=warning: < %t.gnu.txt
// RUN: %FileCheck %s --check-prefix=GNU-STORE --implicit-check-not="note: stored" < %t.gnu.txt
// RUN: %heaplint %s -- %libcxx -isystem %probes > %t.llvm.txt
// RUN: %FileCheck %s --check-prefix=LLVM --implicit-check-not=warning: < %t.llvm.txt
// RUN: %FileCheck %s --check-prefix=LLVM-STORE --implicit-check-not="note: stored" < %t.llvm.txt
//
// Measured: the program counts the global operator new calls of every
// store (with both libraries) and prints "<line heaplint should report>
// <count>"; heaplint must warn on exactly the lines that allocated.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %gxx %libstdcxx -O0 -w -isystem %probes %s -o %t/gnu && %t/gnu > %t/gnu.measured
// RUN: %heaplint -v %s -- %libstdcxx -isystem %probes > %t/gnu.heaplint 2>&1
// RUN: %groundtruth compare --min-sites 10 template-constructors-libstdc++ %t/gnu.measured %t/gnu.heaplint
// RUN: %clangxx %libcxx -O0 -w -isystem %probes %s -o %t/llvm && %t/llvm > %t/llvm.measured
// RUN: %heaplint -v %s -- %libcxx -isystem %probes > %t/llvm.heaplint 2>&1
// RUN: %groundtruth compare --min-sites 10 template-constructors-libc++ %t/llvm.measured %t/llvm.heaplint
#include <count_new.hpp>

#include <functional>
#include <new>
#include <string>
#include <utility>

#include "../support/measure.hpp"

template <class T> struct Task {
  T value;
};

// A class template whose constructors take the callable at one place.
template <class T> class Worker {
public:
  explicit Worker(std::function<void(Task<T> *)> fn) : fn_(std::move(fn)) {}
  Worker(const char *name, std::function<void(Task<T> *)> fn) : name_(name), fn_(std::move(fn)) {}
  Worker(const Worker &) = default;
  void run(Task<T> *t) { fn_(t); }

private:
  const char *name_ = "";
  std::function<void(Task<T> *)> fn_;
};

// The objects are built in place (placement new), so that the counts are
// the std::functions' alone.
alignas(16) static unsigned char storage[4][64];

template <class T, class CB> Worker<T> *make_worker(CB cb) {
  // (the lambdas of 24 bytes and of 32: both allocate on libstdc++)
  // GNU-STORE-COUNT-2: template-constructors.cpp:[[@LINE+2]]:{{[0-9]+}}: note: stored at {{.*}}template-constructors.cpp:[[@LINE+2]] as std::function<void (Task<T> *)>
  // LLVM-STORE: template-constructors.cpp:[[@LINE+1]]:{{[0-9]+}}: note: stored at {{.*}}template-constructors.cpp:[[@LINE+1]] as std::function<void (Task<T> *)>
  return new (storage[0]) Worker<T>(std::move(cb));
}

template <class T, class CB> Worker<T> named_worker(const char *name, CB cb) {
  // GNU-STORE: template-constructors.cpp:[[@LINE+1]]:{{[0-9]+}}: note: stored at {{.*}}template-constructors.cpp:[[@LINE+1]] as std::function<void (Task<T> *)>
  return Worker<T>(name, std::move(cb));
}

template <class T, class CB> void run_once(CB cb) {
  // GNU-STORE: template-constructors.cpp:[[@LINE+1]]:{{[0-9]+}}: note: stored at {{.*}}template-constructors.cpp:[[@LINE+1]] as std::function<void (Task<T> *)>
  Worker<T> w{std::move(cb)};
  Task<T> t{};
  w.run(&t);
}

// A class (no template) built from std::bind of a function template's
// arguments.
class Thread {
public:
  explicit Thread(std::function<void()> f) : f_(std::move(f)) {}
  void join() { f_(); }

private:
  std::function<void()> f_;
};

template <class F, class... A> Thread *spawn(F &&f, A &&...a) {
  auto &&tmp = std::bind(std::forward<F>(f), std::forward<A>(a)...);
  // GNU-STORE-COUNT-3: template-constructors.cpp:[[@LINE+2]]:{{[0-9]+}}: note: stored at {{.*}}template-constructors.cpp:[[@LINE+2]] as std::function<void ()>
  // LLVM-STORE-COUNT-2: template-constructors.cpp:[[@LINE+1]]:{{[0-9]+}}: note: stored at {{.*}}template-constructors.cpp:[[@LINE+1]] as std::function<void ()>
  return new (storage[1]) Thread(std::move(tmp));
}

// A class that inherits its base's constructors: the call may resolve to
// one of them (here it does: a Big is no callable), so no store is named.
struct Big {
  long v[8];
};
struct Base {
  explicit Base(Big b) : n(b.v[0]) {}
  long n;
};
struct Derived : Base {
  using Base::Base;
  explicit Derived(std::function<void()> f) : Base(Big{}), f_(std::move(f)) {}
  std::function<void()> f_;
};
template <class A> long make_derived(A a) { return Derived(std::move(a)).n; }

static void work3(long, long, long) {}
static void work1(long) {}

int main() {
  long a = 1, b = 2, c = 3, d = 4;
  Task<int> t{0};
  Task<long> tl{0};
  // GNU: template-constructors.cpp:[[@LINE+1]]:{{[0-9]+}}: warning: std::function<void (Task<T> *)> stores this lambda on the heap: 24 bytes (align 8) exceeds libstdc++'s inline buffer of 16 bytes
  MEASURE(__LINE__, "new Worker<T>", make_worker<int>([a, b, c](Task<int> *p) { p->value += a + b + c; })->run(&t));
  // GNU: template-constructors.cpp:[[@LINE+2]]:{{[0-9]+}}: warning: std::function<void (Task<T> *)> stores this lambda on the heap: 32 bytes (align 8) exceeds libstdc++'s inline buffer of 16 bytes
  // LLVM: template-constructors.cpp:[[@LINE+1]]:{{[0-9]+}}: warning: std::function<void (Task<T> *)> stores this lambda on the heap: 32 bytes (align 8) with libc++'s 8-byte vtable pointer in front need 40 bytes, more than its inline buffer of 32 bytes
  MEASURE(__LINE__, "new Worker<T>, 32 bytes", make_worker<long>([a, b, c, d](Task<long> *p) { p->value += a + b + c + d; })->run(&tl));
  MEASURE(__LINE__, "new Worker<T>, 8 bytes", make_worker<int>([a](Task<int> *p) { p->value += a; })->run(&t));
  // GNU: template-constructors.cpp:[[@LINE+1]]:{{[0-9]+}}: warning: std::function<void (Task<T> *)> stores this lambda on the heap: 24 bytes (align 8) exceeds libstdc++'s inline buffer of 16 bytes
  MEASURE(__LINE__, "Worker<T>(name, cb)", named_worker<int>("w", [a, b, c](Task<int> *p) { p->value += a + b + c; }).run(&t));
  // GNU: template-constructors.cpp:[[@LINE+1]]:{{[0-9]+}}: warning: std::function<void (Task<T> *)> stores this lambda on the heap: 24 bytes (align 8) exceeds libstdc++'s inline buffer of 16 bytes
  MEASURE(__LINE__, "Worker<T> w{cb}", run_once<int>([a, b, c](Task<int> *p) { p->value += a + b + c; }));
  // GNU: template-constructors.cpp:[[@LINE+2]]:{{[0-9]+}}: warning: std::function<void ()> stores this std::bind result on the heap: 32 bytes (align 8) exceeds libstdc++'s inline buffer of 16 bytes
  // LLVM: template-constructors.cpp:[[@LINE+1]]:{{[0-9]+}}: warning: std::function<void ()> stores this std::bind result on the heap: 32 bytes (align 8) with libc++'s 8-byte vtable pointer in front need 40 bytes, more than its inline buffer of 32 bytes
  MEASURE(__LINE__, "bind of a lambda", spawn([a, b, c] { (void)(a + b + c); })->join());
  // GNU: template-constructors.cpp:[[@LINE+2]]:{{[0-9]+}}: warning: std::function<void ()> stores this std::bind result on the heap: 32 bytes (align 8) exceeds libstdc++'s inline buffer of 16 bytes
  // LLVM: template-constructors.cpp:[[@LINE+1]]:{{[0-9]+}}: warning: std::function<void ()> stores this std::bind result on the heap: 32 bytes (align 8) with libc++'s 8-byte vtable pointer in front need 40 bytes, more than its inline buffer of 32 bytes
  MEASURE(__LINE__, "bind of a function and three values", spawn(work3, a, b, c)->join());
  // GNU: template-constructors.cpp:[[@LINE+1]]:{{[0-9]+}}: warning: std::function<void ()> stores this std::bind result on the heap: 16 bytes (align 8) would fit libstdc++'s 16-byte inline buffer, but it is not trivially copyable, which libstdc++ requires for inline storage
  MEASURE(__LINE__, "bind of a function and a value", spawn(work1, a)->join());
  MEASURE(__LINE__, "bind of a captureless lambda", spawn([] {})->join());
  MEASURE(__LINE__, "an inherited constructor taken", make_derived(Big{}));
  return 0;
}
