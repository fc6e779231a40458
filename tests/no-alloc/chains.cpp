// A zone's calls of functions of the translation unit, followed: the error
// is at the call, the notes give the chain down to the allocation. Calls
// heaplint cannot see into are listed once per zone (-v), not errors.
//
// RUN: %not %heaplint -v %s -- -std=c++20 -I%src_root/runtime/include > %t.out 2> %t.err
// RUN: %FileCheck %s --implicit-check-not=error: < %t.out
// RUN: %FileCheck %s --check-prefix=REMARK < %t.err
#include <coroutine>
#include <functional>
#include <string>

#include <heaplint/noalloc.h>

struct Voice {
  long a, b, c;
};

std::function<void()> slot;
void store(long a, long b, long c) { slot = [a, b, c] { (void)(a + b + c); }; }
void mix(long a) {
  store(a, a, a);
}
int quiet(int x) { return x * 2; }
int countdown(int n) { return n > 0 ? countdown(n - 1) : quiet(n); }
void grow(int n) {
  if (n > 0) grow(n - 1);
  else delete new Voice;
}

struct Pooled {
  static void *operator new(std::size_t n);
  static void operator delete(void *p) { (void)p; }
};
alignas(Pooled) static char arena[64];
void *Pooled::operator new(std::size_t) { return arena; }

struct Base {
  virtual ~Base() = default;
  virtual void run() {}
};

void elsewhere(int);

struct task {
  struct promise_type {
    task get_return_object() { return {}; }
    std::suspend_never initial_suspend() { return {}; }
    std::suspend_never final_suspend() noexcept { return {}; }
    void return_void() {}
    void unhandled_exception() {}
  };
};
task step() { co_return; }

HEAPLINT_NO_ALLOC void tick(Base &b, void (*callback)(int)) {
  // CHECK: chains.cpp:[[@LINE+5]]:3: error: in no-allocation zone 'tick()': this call of mix() allocates [no-alloc]
  // CHECK: chains.cpp:21:3: note: mix() calls store() here
  // CHECK: chains.cpp:19:45: note: tick() -> mix() -> store(): std::function<void ()> stores this lambda on the heap: 24 bytes (align 8) exceeds libstdc++'s inline buffer of 16 bytes
  // CHECK: chains.cpp:[[@LINE-4]]:24: note: tick() is a no-allocation zone: marked HEAPLINT_NO_ALLOC
  // The call is the error, not the store inside mix() (mix is no zone).
  mix(1);
  (void)countdown(3);
  // CHECK: chains.cpp:[[@LINE+2]]:3: error: in no-allocation zone 'tick()': this call of grow() allocates
  // CHECK: chains.cpp:27:15: note: tick() -> grow(): new Voice allocates from the global heap
  grow(2);
  // Its class's operator new is followed, and allocates nothing.
  delete new Pooled;
  // CHECK: chains.cpp:[[@LINE+2]]:3: error: in no-allocation zone 'tick()': this call of step() allocates
  // CHECK: note: tick() -> step(): the coroutine's frame is allocated with operator new on every call
  step();
  b.run();
  callback(1);
  elsewhere(2);
}
// b.run() is followed into every overrider the project index knows (here
// Base::run() alone, which allocates nothing); elsewhere() has a body in no
// unit of the index.
// REMARK: chains.cpp:55:24: remark: no-alloc: not decided: no-allocation zone 'tick()' calls what heaplint cannot see into: a call through 'callback' ({{.*}}chains.cpp:72); elsewhere(), whose body is in no unit of the index ({{.*}}chains.cpp:73)
// REMARK: 1 warning and 3 errors in 1 file (libstdc++, x86_64); 1 site not decided: not verified (1)
