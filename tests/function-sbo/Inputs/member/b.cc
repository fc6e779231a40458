#include "hooks.h"

void Hooks::add_b(long x, long y, long z, long w) {
  hooks_.push_back([x, y, z, w](const char *why) { (void)(x + y + z + w + *why); });
}

std::function<void()> Hooks::done() const { return on_done_; }
