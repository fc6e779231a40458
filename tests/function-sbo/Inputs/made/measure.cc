// Counts the global operator new calls of parse(): the steps' vector, and
// the closure when the Script keeps it on the heap.
#include <count_new.hpp>

#include <cstdio>

#include "script.h"

int main() {
  std::string text = "1+2";
  unsigned long before = hl_count::allocations();
  expected<Script> s = parse(text);
  unsigned long n = hl_count::allocations() - before;
  Env env{10};
  std::printf("allocations: parse %lu, result %ld %ld\n", n, s.value()(env), run("4", 1));
  return 0;
}
