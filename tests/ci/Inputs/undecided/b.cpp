#include "sinks.h"
void b(long x) { wrap([x] { (void)x; }); }
