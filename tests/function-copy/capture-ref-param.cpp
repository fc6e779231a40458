// A lambda capturing a const std::function reference parameter by copy
// copies its referee. The capture's declaration has a reference type, which
// is no wrapper type itself: heaplint crashed (a null wrapper) on such a
// capture, as in CLI11's tests. Now it is judged like any capture.
// RUN: %heaplint %s -- %libstdcxx | %FileCheck %s --implicit-check-not=warning:
#include <functional>

void run(std::function<void()>);

void f(const std::function<void()> &cb) {
  // CHECK: capture-ref-param.cpp:[[@LINE+1]]:7: warning: std::function<void ()> stores this lambda on the heap: 32 bytes {{.*}}[function-sbo]
  run([cb] { cb(); });
}
