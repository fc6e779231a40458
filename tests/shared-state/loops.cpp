// Shared states made in the body of a loop, with each library's count from
// its profile; outside a loop nothing is said, except in a no-allocation
// zone (no-alloc).
//
// RUN: %not %heaplint %s -- %libstdcxx -I%src_root/runtime/include > %t.gnu
// RUN: %FileCheck %s --check-prefixes=CHECK,GNU --implicit-check-not=warning: --implicit-check-not=error: < %t.gnu
// RUN: %not %heaplint %s -- %libcxx -I%src_root/runtime/include > %t.llvm
// RUN: %FileCheck %s --check-prefixes=CHECK,LLVM --implicit-check-not=warning: --implicit-check-not=error: < %t.llvm
#include <future>
#include <memory>
#include <thread>

#include <heaplint/noalloc.h>

int work(int x) { return x; }

void loops(int n) {
  std::promise<int> once;
  for (int i = 0; i < n; i++) {
    // GNU: loops.cpp:[[@LINE+2]]:23: warning: std::promise<int> allocates its shared state on every iteration of the enclosing loop: 2 calls of the global operator new on libstdc++ [shared-state]
    // LLVM: loops.cpp:[[@LINE+1]]:23: warning: std::promise<int> allocates its shared state on every iteration of the enclosing loop: 1 call of the global operator new on libc++ [shared-state]
    std::promise<int> p;
    // CHECK: note: make the shared states once, outside the loop, or pass results through storage that is allocated once
    // GNU: loops.cpp:[[@LINE+2]]:34: warning: std::packaged_task<int (int)> allocates its shared state on every iteration of the enclosing loop: at least 2 calls of the global operator new on libstdc++
    // LLVM: loops.cpp:[[@LINE+1]]:34: warning: std::packaged_task<int (int)> allocates its shared state on every iteration of the enclosing loop: at least 1 call of the global operator new on libc++
    std::packaged_task<int(int)> t(work);
    // GNU: loops.cpp:[[@LINE+2]]:14: warning: std::async(std::launch::async) allocates a shared state and starts a thread on every iteration of the enclosing loop: 3 calls of the global operator new on libstdc++
    // LLVM: loops.cpp:[[@LINE+1]]:14: warning: std::async(std::launch::async) allocates a shared state and starts a thread on every iteration of the enclosing loop: 4 calls of the global operator new on libc++
    auto a = std::async(work, i);
    // CHECK: note: start the threads once, outside the loop (a pool fed through a queue that does not allocate)
    // GNU: loops.cpp:[[@LINE+2]]:14: warning: std::async(std::launch::deferred) allocates a shared state on every iteration of the enclosing loop: 2 calls
    // LLVM: loops.cpp:[[@LINE+1]]:14: warning: std::async(std::launch::deferred) allocates a shared state on every iteration of the enclosing loop: 1 call
    auto d = std::async(std::launch::deferred, work, i);
    // GNU: loops.cpp:[[@LINE+2]]:17: warning: std::thread allocates the state that holds its callable and arguments on every iteration of the enclosing loop: 1 call of the global operator new on libstdc++
    // LLVM: loops.cpp:[[@LINE+1]]:17: warning: std::thread allocates the state that holds its callable and arguments on every iteration of the enclosing loop: 3 calls of the global operator new on libc++
    std::thread th(work, i);
    th.join();
    // No shared state made here.
    std::thread moved(std::move(th));
    std::promise<int> adopted(std::move(once));
    auto shared = p.get_future().share();
    std::packaged_task<int()> empty;
  }
}

HEAPLINT_NO_ALLOC void zone() {
  // CHECK: loops.cpp:[[@LINE+1]]:21: error: in no-allocation zone 'zone()': std::promise<int> allocates its shared state: {{[0-9]}} call{{s?}} of the global operator new on {{libstdc\+\+|libc\+\+}} [no-alloc]
  std::promise<int> p;
}
