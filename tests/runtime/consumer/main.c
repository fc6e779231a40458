/* A C user of the installed runtime, built with pkg-config's flags. */
#include <heaplint/alloc.h>
#include <heaplint/pool.h>
#include <heaplint/detail/tcache.h>

static _Alignas(max_align_t) unsigned char mem[HL_POOL_STATIC_BYTES(16, 4)];

int main(void) {
  hl_pool_config cfg = {.name = "c", .block_size = 16};
  hl_pool *pool;
  if (hl_pool_create_static(&pool, mem, sizeof mem, &cfg) != HL_OK) return 1;
  void *b = hl_pool_alloc(pool);
  char *s = hl_malloc(100);
  /* The thread cache's layout (with or without the node stacks) is the
   * library's, through pkg-config's Cflags: named for the other layout,
   * this would not link. */
  void *volatile cache = &hl_tcache_tls;
  int ok = b && s && cache;
  hl_pool_free(pool, b);
  hl_free(s);
  hl_pool_destroy(pool);
  return ok ? 0 : 1;
}
