#pragma once
#include <functional>
inline std::function<void()> cpath_probe(long a, long b, long c) { return [a, b, c] {}; }
