#include "walk.h"

void b(long x, long y, long z) { elsewhere([x, y, z](long w) { (void)(x + y + z + w); }); }
