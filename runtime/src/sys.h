/* sys: the one place the runtime takes memory from the system allocator.
 * A no-heap build (HL_NO_HEAP) compiles it to functions that always fail, so
 * the library does not reference malloc or free at all and chunk mode reports
 * HL_ENOMEM. */
#ifndef HEAPLINT_SRC_SYS_H
#define HEAPLINT_SRC_SYS_H

#include <stddef.h>

/* size bytes aligned to align (a power of two), or NULL. */
void *hl_sys_alloc(size_t size, size_t align);
void hl_sys_free(void *p);

#endif
