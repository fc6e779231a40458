// A third-party API, a system header to heaplint (-isystem): it takes a
// std::function by reference, which a retyped Job would no longer bind.
#pragma once

#include <functional>

inline long vendor_run(std::function<long()> &f) { return f(); }
