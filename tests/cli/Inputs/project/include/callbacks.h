#pragma once
#include <functional>
// Included by two translation units: reported once.
inline std::function<void()> make_callback(long a, long b, long c) { return [a, b, c] {}; }
