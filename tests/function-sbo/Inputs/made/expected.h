// A reduced nonstd::expected (as vendored by BehaviorTree.CPP): its
// converting constructor hands the value to its storage's
// construct_value(T &&), so the callable is converted to T there, by a
// call inside the template.
#pragma once

#include <new>
#include <type_traits>
#include <utility>

template <class T>
class storage {
 public:
  storage() {}
  ~storage() {}
  void construct_value(T &&v) { new (&value_) T(std::move(v)); }
  void destruct_value() { value_.~T(); }
  T &value() { return value_; }

 private:
  union {
    T value_;
  };
};

template <class T>
class expected {
 public:
  template <class U, typename std::enable_if<std::is_convertible<U &&, T>::value, int>::type = 0>
  expected(U &&v) : ok_(true) {
    contained_.construct_value(std::forward<U>(v));
  }
  expected(const char *error) : error_(error) {}
  expected(const expected &) = delete;
  expected &operator=(const expected &) = delete;
  ~expected() {
    if (ok_) contained_.destruct_value();
  }
  explicit operator bool() const { return ok_; }
  T &value() { return contained_.value(); }
  const char *error() const { return error_; }

 private:
  bool ok_ = false;
  const char *error_ = nullptr;
  storage<T> contained_;
};
