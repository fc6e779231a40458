#include "shared.h"
#include <any>
void u2(long a, long b, long c) { std::any v = [a, b, c] {}; (void)v; }
