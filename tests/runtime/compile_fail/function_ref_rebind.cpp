// Must not compile: assigning a callable object to a function_ref (it would
// refer to a temporary that dies at the end of the statement); deleted, as in
// C++26. With -DHL_CONTROL another function_ref is assigned.
#include "heaplint/function_ref.hpp"

int main() {
  auto one = [] { return 1; };
  hl::function_ref<int()> r = one;
#ifdef HL_CONTROL
  hl::function_ref<int()> other = one;
  r = other;
#else
  r = [] { return 2; };
#endif
  return r();
}
