#pragma once
#include <functional>
// Included by u1.cc and u2.cc: one finding, reported once.
inline std::function<void()> make_callback(long a, long b, long c) { return [a, b, c] {}; }
