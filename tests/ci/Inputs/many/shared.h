#pragma once
#include <functional>
// Included by every unit: one finding, reported once.
inline std::function<void()> shared_callback(long a, long b, long c) { return [a, b, c] {}; }
