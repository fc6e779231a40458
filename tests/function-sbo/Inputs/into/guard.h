// A scope guard (cpp-httplib's detail::scope_exit) and a timer whose
// constructors move their std::function parameter into a member: the
// parameter and the member are one flow, retyped together.
#pragma once
#include <functional>
#include <utility>

namespace detail {
struct scope_exit {
  explicit scope_exit(std::function<void(void)> &&f) : exit_function(std::move(f)), armed{true} {}
  scope_exit(scope_exit &&rhs) noexcept : exit_function(std::move(rhs.exit_function)), armed{rhs.armed} {
    rhs.release();
  }
  ~scope_exit() {
    if (armed) this->exit_function();
  }
  void release() { armed = false; }
  scope_exit(const scope_exit &) = delete;
  void operator=(const scope_exit &) = delete;

private:
  std::function<void(void)> exit_function;
  bool armed;
};
} // namespace detail

// Defined in timer.cc: the parameter is declared twice.
class Timer {
public:
  explicit Timer(std::function<void(int)> cb);
  void fire(int n) { cb_(n); }

private:
  std::function<void(int)> cb_;
};

// A std::function object reaches Sink's parameter (use.cc): converted
// into an inplace_function it would keep its heap, so Sink stays.
class Sink {
public:
  explicit Sink(std::function<long()> f) : f_(std::move(f)) {}
  long get() { return f_(); }

private:
  std::function<long()> f_;
};

// Pair's parameter goes into two members: one flow per rewrite, so it
// stays.
class Pair {
public:
  explicit Pair(std::function<long()> f) : a_(f), b_(std::move(f)) {}
  long get() { return a_() + b_(); }

private:
  std::function<long()> a_;
  std::function<long()> b_;
};
