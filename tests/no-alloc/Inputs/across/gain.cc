#include "engine.h"

Effect::~Effect() = default;

struct Gain : Effect {
  void apply() override;
  float g = 1;
};
void Gain::apply() { g *= 0.5f; }
