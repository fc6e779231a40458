#include "handlers.h"
void narrow() { install(1, 2, 3, 4); }
