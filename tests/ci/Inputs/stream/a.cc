#include "h.h"
void a(long x, long y, long z) { std::function<void()> f = [x, y, z] {}; }
