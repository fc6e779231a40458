#include "engine.h"

NO_ALLOC void process(Effect &fx, long n) {
  tick(n);
  fx.apply();
  undefined_fn();
}
