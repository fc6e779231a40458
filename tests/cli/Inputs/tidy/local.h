#pragma once
#include <functional>
inline std::function<void()> local(long a, long b, long c) { return [a, b, c] {}; }
