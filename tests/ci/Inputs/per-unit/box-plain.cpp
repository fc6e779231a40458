#include "box.h"
void fd() { std::function<void()> f = Box<long>(); f(); }
