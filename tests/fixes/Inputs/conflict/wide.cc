#include "handlers.h"
void wide() { install(1, 2, 3, 4); }
