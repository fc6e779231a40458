#include "split.h"
#include <limits>
#include <utility>
#include <vector>
void split(const char *b, const char *e, char d, std::function<void(const char *, const char *)> fn) {
  split(b, e, d, (std::numeric_limits<std::size_t>::max)(), std::move(fn));
}
void split(const char *b, const char *e, char d, std::size_t m, std::function<void(const char *, const char *)> fn) {
  const char *beg = b;
  std::size_t count = 1;
  for (const char *p = b; p != e; ++p)
    if (*p == d && count < m) { fn(beg, p); beg = p + 1; count++; }
  fn(beg, e);
}
static std::vector<std::function<void(int)>> kept;
void each(int n, const std::function<void(int)> &f) {
  for (int i = 0; i < n; i++) f(i);
}
void each_twice(int n, const std::function<void(int)> &f) {
  each(n, f);
  kept.push_back(f);
}
static Slot stored;
void store(Slot s) { stored = std::move(s); }
void relay(int n, const std::function<void(int)> &f) {
  f(n);
  store(f);
}
