#include <functional>
void f(long a) { std::function<void()> cb = [a] {}; }
