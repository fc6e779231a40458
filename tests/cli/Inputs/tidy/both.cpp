#include <any>
#include <functional>
#include "local.h"
#include <sysheader.h>
struct P { long a, b; };
void f(long a, long b, long c) {
  std::function<void()> cb = [a, b, c] {};
  std::any v = P{};
}
