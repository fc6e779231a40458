#include <functional>
void f(long a, long b, long c) { std::function<void()> cb = [a, b, c] {}; }
