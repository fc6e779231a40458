#include "hooks.h"

void Hooks::add_a(long x, long y, long z) {
  hooks_.emplace_back([x, y, z](const char *why) { (void)(x + y + z + *why); });
}

void Hooks::on_done(long x, long y, long z, long w, long v) {
  on_done_ = [x, y, z, w, v] { (void)(x + y + z + w + v); };
}
