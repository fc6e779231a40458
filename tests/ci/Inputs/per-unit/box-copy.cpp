#include "box.h"
void fc() { std::function<void()> f = Box<long>(); f(); }
