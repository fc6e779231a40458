#include "work.h"
long a() { return run_all(1, 2, 3); }
