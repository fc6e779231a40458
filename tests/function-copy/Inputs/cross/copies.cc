// The copies, each counted: main() runs them one by one.
#include <count_new.hpp>

#include <cstdio>

#include "handlers.h"

static void count(int line, unsigned long before) {
  std::printf("line %d: %lu\n", line, hl_count::allocations() - before);
}

int main() {
  Handler h;
  long a = 1, b = 2, c = 3, d = 4;
  install(h, [a, b, c, d] { (void)(a + b + c + d); });
  Small s;
  set_small(s);
  Mixed m1, m2;
  set_mixed_small(m1);
  set_mixed_big(m2);
  Opaque o;
  set_opaque(o);
  Unseen u;
  set_unseen(u);
  unsigned long n;
  n = hl_count::allocations(); { Handler copy = h; } count(__LINE__, n);
  n = hl_count::allocations(); run(h.on_event); count(__LINE__, n);
  n = hl_count::allocations(); { Small t = s; } count(__LINE__, n);
  n = hl_count::allocations(); run(s.cb); count(__LINE__, n);
  n = hl_count::allocations(); { Mixed t = m1; } count(__LINE__, n);
  n = hl_count::allocations(); { Mixed t = m2; } count(__LINE__, n);
  n = hl_count::allocations(); { Opaque t = o; } count(__LINE__, n);
  n = hl_count::allocations(); forward_to([a, b, c, d] { (void)(a + b + c + d); }); count(__LINE__, n);
  n = hl_count::allocations(); later([a, b, c, d] { (void)(a + b + c + d); }); count(__LINE__, n);
  n = hl_count::allocations(); { Unseen t = u; } count(__LINE__, n);
  return 0;
}
