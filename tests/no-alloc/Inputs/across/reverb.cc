#include "engine.h"

struct Reverb : Effect {
  void apply() override;
  float *tail = nullptr;
};
void Reverb::apply() {
  if (!tail) tail = new float[1024];
}
