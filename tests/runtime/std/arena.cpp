// <heaplint/arena.h> is a C header: it must also compile as C++ at every
// standard, since the C++ layer and C++ users include it.
#include <heaplint/arena.h>

int main() {
  static unsigned char mem[1024];
  hl_arena* a = nullptr;
  if (hl_arena_create_static(&a, mem, sizeof mem, nullptr) != HL_OK) return 1;
  void* p = hl_arena_alloc(a, 16, 8);
  hl_arena_reset(a);
  hl_arena_destroy(a);
  return p ? 0 : 1;
}
