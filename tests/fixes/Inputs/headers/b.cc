#include "guarded.h"
#include "work.h"
long b() { return run_all(4, 5, 6); }
