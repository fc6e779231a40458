// Members declared in a header, stored into from several files.
#pragma once

#include <functional>
#include <vector>

class Hooks {
 public:
  Hooks() { hooks_.reserve(4); }
  void add_a(long x, long y, long z);
  void add_b(long x, long y, long z, long w);
  void on_done(long x, long y, long z, long w, long v);
  std::function<void()> done() const;
  long fire(const char *why);

 private:
  std::vector<std::function<void(const char *)>> hooks_;
  std::function<void()> on_done_;
};
