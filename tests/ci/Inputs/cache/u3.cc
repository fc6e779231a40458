#include "sinks.h"
void u3(long a, long b, long c) { take([a, b, c] {}); }
