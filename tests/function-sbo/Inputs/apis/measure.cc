// The truth: a() and b() run with a Loop that keeps nothing, under a
// counting operator new; what is counted is the std::function each call
// builds (loop.cc is not linked: its vector would allocate too).
#include <cstdio>
#include <cstdlib>
#include <new>
#include "loop.h"
static long news;
void *operator new(std::size_t n) {
  ++news;
  if (void *p = std::malloc(n ? n : 1)) return p;
  throw std::bad_alloc();
}
void operator delete(void *p) noexcept { std::free(p); }
void operator delete(void *p, std::size_t) noexcept { std::free(p); }
void Loop::post(std::function<void()>) {}
void Loop::call_after(int, std::function<void()>) {}
void a(Loop &l, long x, long y, long z);
void b(Loop &l, long x, long y, long z);
int main() {
  Loop l;
  long before = news;
  a(l, 1, 2, 3);
  long in_a = news - before;
  before = news;
  b(l, 1, 2, 3);
  std::printf("measured: a %ld, b %ld\n", in_a, news - before);
}
