#pragma once
#include <functional>
inline std::function<void()> in_system(long a, long b, long c) { return [a, b, c] {}; }
