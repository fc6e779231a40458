/* A C unit: a real-time callback marked as a no-allocation zone, calling
 * into a C++ unit. */
#include <heaplint/noalloc.h>
#include <stdlib.h>

void refill(void);

HEAPLINT_NO_ALLOC void tick(void) { refill(); }

HEAPLINT_NO_ALLOC int scratch(void) {
  char *p = malloc(64);
  free(p);
  return 0;
}

int idle(void) { return 0; }
