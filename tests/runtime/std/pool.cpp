// <heaplint/pool.h> is a C header: it must also compile as C++ at every
// standard, since the C++ layer and C++ users include it.
#include <heaplint/pool.h>

int main() {
  hl_pool_config cfg = hl_pool_config();
  cfg.block_size = 16;
  hl_pool* p = nullptr;
  if (hl_pool_create(&p, &cfg) != HL_OK) return 1;
  hl_pool_free(p, hl_pool_alloc(p));
  hl_pool_destroy(p);
  return 0;
}
