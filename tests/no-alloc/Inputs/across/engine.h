// The API the zone in audio.cc calls: defined in other files, or nowhere.
#pragma once
#define NO_ALLOC __attribute__((annotate("heaplint::no_alloc")))

void tick(long n);
void undefined_fn();

struct Effect {
  virtual ~Effect();
  virtual void apply() = 0;
};
