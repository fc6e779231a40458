// The values: stored here, copied in copies.cc.
#include "handlers.h"

#include <utility>

std::function<void()> opaque_source();

void install(Handler &h, std::function<void()> f) { h.on_event = std::move(f); }
void set_small(Small &s) {
  int x = 1;
  s.cb = [x] { (void)x; };
}
void set_mixed_small(Mixed &m) {
  int x = 1;
  m.cb = [x] { (void)x; };
}
void set_opaque(Opaque &o) { o.cb = opaque_source(); }

// A variable heaplint does not follow: what it holds is not known here.
static std::function<void()> kept;
void set_unseen(Unseen &u) {
  long a = 1, b = 2, c = 3, d = 4;
  kept = [a, b, c, d] { (void)(a + b + c + d); };
  u.cb = kept;
}
