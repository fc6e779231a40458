#include "callbacks.h"
void a() { make_callback(1, 2, 3)(); }
