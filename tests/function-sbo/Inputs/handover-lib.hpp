// The library of template-handover.cpp, in a header of its own as a
// library is: a scheduler that stores what it is handed, and functions
// with deduced return types calling it.
#ifndef HANDOVER_LIB_HPP
#define HANDOVER_LIB_HPP

#include <functional>
#include <type_traits>
#include <utility>

// The library: a scheduler that stores what it is handed.
struct Sched {
  std::function<void()> work;
  template <class C> void sched(C &&c) { work = std::forward<C>(c); }
};
inline Sched sch;

// Deduced return types, each calling the queued sched().
template <class F> auto post(F &&f) {
  sch.sched(std::forward<F>(f));
  return 0;
}
template <class F> auto async_wrap(F &&f) {
  sch.sched([f = std::forward<F>(f), a = 0L, b = 0L] { f(); (void)(a + b); });
  return 0;
}
// One level more: an auto function calling an auto function.
template <class F> auto async(F &&f) { return async_wrap(std::forward<F>(f)); }

// A wrapper whose layout does not depend on F (a pointer and a count) but
// which is not trivially copyable, as taskflow's packaged-task lambda.
template <class T> struct Box {
  T *p;
  long n;
  explicit Box(T *q) : p(q), n(0) {}
  Box(const Box &o) noexcept : p(o.p), n(o.n) {}
};
template <class F> auto async_box(F &&f) {
  Box<std::remove_reference_t<F>> b(&f);
  sch.sched([b] { (*b.p)(); });
  return 0;
}

// Data handed to the library, which builds its own lambda around it.
template <class T> auto fill(T v) {
  sch.sched([v, a = 0L, b = 0L] { (void)(v + a + b); });
  return 0;
}

#endif
