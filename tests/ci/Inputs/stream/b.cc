#include <functional>
void b(long x, long y, long z) { std::function<void()> f = [x, y, z] {}; }
