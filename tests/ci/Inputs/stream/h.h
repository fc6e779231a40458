#pragma once
#include <functional>
// Included by a.cc and c.cc: reported once, with a.cc, the first of them.
inline std::function<void()> from_header(long a, long b, long c) { return [a, b, c] {}; }
// Suppressed for both units, counted once.
inline std::function<void()> quiet(long a, long b, long c) { return [a, b, c] {}; } // NOLINT(function-sbo)
