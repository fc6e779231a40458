#pragma once
#include <functional>
#include <utility>

void take(std::function<void()> f);
// Included by u3.cc only; never instantiated: a site not decided.
template <class F> void later(F f) { take(std::move(f)); }
