#include <functional>
void f() { std::function<void()> g = [] {}; }
