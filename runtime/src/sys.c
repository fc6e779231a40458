#include "sys.h"

#ifdef HL_NO_HEAP

void *hl_sys_alloc(size_t size, size_t align) {
  (void)size;
  (void)align;
  return NULL;
}

void hl_sys_free(void *p) { (void)p; }

#else

#include <stdlib.h>

void *hl_sys_alloc(size_t size, size_t align) {
  void *p = NULL;
  if (align < sizeof(void *)) align = sizeof(void *);
  if (posix_memalign(&p, align, size ? size : 1) != 0) return NULL;
  return p;
}

void hl_sys_free(void *p) { free(p); }

#endif
