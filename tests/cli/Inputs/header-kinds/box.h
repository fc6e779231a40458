// A class template whose definitions are in an .inl included at the end.
#pragma once
#include <functional>

template <class T>
struct Box {
  void set(T a, T b, T c);
  std::function<void()> f;
};

#include "box.inl"
