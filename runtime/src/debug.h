/* debug: the checks of the checked build (HL_RUNTIME_DEBUG=1) shared by the
 * pool and the size-class allocator, and the fatal report naming the pool.
 *
 * In the checked build every block is laid out as
 *   [0, usable)          the caller's bytes; while free: link word, then HL_FILL_FREE
 *   [req, stride - S)    guard bytes (HL_FILL_GUARD) right after what was asked
 *   [stride - S, stride) the size that was asked (S = sizeof(size_t)), so the
 *                        guard starts exactly where the caller's bytes end
 * and each chunk keeps one bit per block saying whether it is handed out.
 * The release build compiles the same code with HL_CHECKED 0, so the checks
 * fold away but cannot rot. */
#ifndef HEAPLINT_SRC_DEBUG_H
#define HEAPLINT_SRC_DEBUG_H

#include <stdatomic.h>
#include <stddef.h>

#if defined(HL_RUNTIME_DEBUG) && HL_RUNTIME_DEBUG
#define HL_CHECKED 1
#define HL_GUARD_BYTES 16
#else
#define HL_CHECKED 0
#define HL_GUARD_BYTES 0
#endif

enum { HL_FILL_ALLOC = 0xCD, HL_FILL_FREE = 0xDD, HL_FILL_GUARD = 0xFD };

/* Formats "heaplint: <what> <p> (pool '<pool>', block size N)" (without the
 * size when it is 0, i.e. unknown), hands it to the report handler and
 * aborts. */
_Noreturn void hl_dbg_fatal(const char *pool, size_t block_size, const void *p, const char *what);

/* A block is being handed out: checks that a reused block was not written
 * since it was freed (fresh blocks were never filled), then fills it and its
 * guard and records req. */
void hl_dbg_on_alloc(const char *pool, unsigned char *b, size_t usable, size_t stride, size_t req, int fresh);
/* A block is being freed: checks its guard, fills it with HL_FILL_FREE. */
void hl_dbg_on_free(const char *pool, unsigned char *b, size_t usable, size_t stride);
/* The size recorded by hl_dbg_on_alloc (realloc copies no more). */
size_t hl_dbg_requested(const unsigned char *b, size_t stride);
/* realloc within the same block: moves the guard to the new size. */
void hl_dbg_resize(unsigned char *b, size_t stride, size_t req);

/* Bitmap of live blocks; both return the bit's previous value. Atomic, since
 * a block of the process-wide allocator may be freed by another thread. */
int hl_dbg_mark_live(_Atomic unsigned char *map, size_t index);
int hl_dbg_mark_free(_Atomic unsigned char *map, size_t index);

#endif
