#include "callbacks.h"
void b(long x, long y, long z) { std::function<void()> cb = [x, y, z] {}; }
