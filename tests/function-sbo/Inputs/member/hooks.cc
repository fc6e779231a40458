#include "hooks.h"

long Hooks::fire(const char *why) {
  long n = 0;
  for (auto &h : hooks_) {
    h(why);
    n++;
  }
  return n;
}
