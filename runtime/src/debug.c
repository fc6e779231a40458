#include "debug.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "heaplint/status.h"

_Noreturn void hl_dbg_fatal(const char *pool, size_t block_size, const void *p, const char *what) {
  char line[320];
  if (block_size)
    snprintf(line, sizeof line, "heaplint: %s %p (pool '%s', block size %zu)", what, p, pool, block_size);
  else
    snprintf(line, sizeof line, "heaplint: %s %p (pool '%s')", what, p, pool);
  hl_report_handler()(line);
  abort();
}

static int all_bytes(const unsigned char *b, size_t n, unsigned char v) {
  for (size_t i = 0; i < n; i++)
    if (b[i] != v) return 0;
  return 1;
}

static void store_req(unsigned char *b, size_t stride, size_t req) {
  memcpy(b + stride - sizeof req, &req, sizeof req);
}

size_t hl_dbg_requested(const unsigned char *b, size_t stride) {
  size_t req;
  memcpy(&req, b + stride - sizeof req, sizeof req);
  return req;
}

void hl_dbg_on_alloc(const char *pool, unsigned char *b, size_t usable, size_t stride, size_t req, int fresh) {
  if (!fresh) {
    /* The first word holds the free-list link, so it is not checked. */
    if (!all_bytes(b + sizeof(void *), usable - sizeof(void *), HL_FILL_FREE))
      hl_dbg_fatal(pool, usable, b, "write after free to block");
    if (!all_bytes(b + usable, stride - usable - sizeof(size_t), HL_FILL_GUARD))
      hl_dbg_fatal(pool, usable, b, "overrun past the end of free block");
  }
  memset(b, HL_FILL_ALLOC, req);
  memset(b + req, HL_FILL_GUARD, stride - req - sizeof(size_t));
  store_req(b, stride, req);
}

void hl_dbg_on_free(const char *pool, unsigned char *b, size_t usable, size_t stride) {
  size_t req = hl_dbg_requested(b, stride);
  if (req > usable || !all_bytes(b + req, stride - req - sizeof(size_t), HL_FILL_GUARD))
    hl_dbg_fatal(pool, usable, b, "overrun past the end of block");
  memset(b, HL_FILL_FREE, usable);
  memset(b + usable, HL_FILL_GUARD, stride - usable - sizeof(size_t));
}

void hl_dbg_resize(unsigned char *b, size_t stride, size_t req) {
  size_t old = hl_dbg_requested(b, stride);
  if (req > old) memset(b + old, HL_FILL_ALLOC, req - old);
  memset(b + req, HL_FILL_GUARD, stride - req - sizeof(size_t));
  store_req(b, stride, req);
}

int hl_dbg_mark_live(_Atomic unsigned char *map, size_t index) {
  unsigned char bit = (unsigned char)(1u << (index % 8));
  return (atomic_fetch_or(&map[index / 8], bit) & bit) != 0;
}

int hl_dbg_mark_free(_Atomic unsigned char *map, size_t index) {
  unsigned char bit = (unsigned char)(1u << (index % 8));
  return (atomic_fetch_and(&map[index / 8], (unsigned char)~bit) & bit) != 0;
}
