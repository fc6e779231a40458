#include "sinks.h"
void a(long x, long y, long z) { wrap([x, y, z] { (void)(x + y + z); }); }
