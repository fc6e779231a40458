#include "h.h"
void c(long x, long y, long z) { std::function<void()> f = [x, y, z] {}; }
