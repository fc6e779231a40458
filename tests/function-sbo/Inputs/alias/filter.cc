#include "bus.h"

bool keep(const std::function<bool(int)> &f, int v) { return f(v); }

void c(Bus &bus, long lo, long hi, long step) {
  bus.filter([lo, hi, step](int v) { return v >= lo && v < hi && v % step == 0; });
}
