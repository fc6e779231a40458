/* heaplint/detail/tcache.h: what hl::pool_allocator inlines of the
 * process-wide allocator (hl_malloc's), so that a node container's
 * allocate and deallocate take no call:
 *   allocate    pops the block the calling thread freed last for the
 *               node's size class (the class is computed at compile time)
 *               off the class's stack, an array of addresses, without
 *               reading the block; when the stack is empty, pops one off the
 *               class's bin, which holds blocks taken in a batch from the
 *               thread's own chunks.
 *   deallocate  pushes the block's address onto the class's stack while it
 *               has room (HL_TCACHE_STACK), whichever chunk the block is of:
 *               it stays counted as handed out, so nothing else changes and
 *               neither call touches the chunk. Else a block of the chunk its
 *               class carves from goes back onto the bin; a block of another
 *               chunk onto that chunk's free list (found from its address)
 *               when the calling thread owns the chunk and it stays neither
 *               empty nor full.
 * Anything else (an empty bin, a block of another thread, a chunk to relist,
 * a thread that has not allocated yet) calls the functions below. Not an
 * interface of its own: names and layout change with the runtime. */
#ifndef HEAPLINT_DETAIL_TCACHE_H
#define HEAPLINT_DETAIL_TCACHE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Bins for the size classes 8, 16, ..., 64, 80, 96, 112, 128, 160, 192,
 * 224, 256 (heaplint/alloc.h's first 16 classes). */
#define HL_TCACHE_BINS 16
#define HL_TCACHE_MAX_SIZE 256

/* Each class also has a stack of the blocks the thread freed last, of any
 * chunk, up to this many: 16 KiB of thread-local storage in all. A block
 * waiting there keeps its chunk from being retired until the thread takes
 * it again, exits or calls hl_trim. A runtime configured with
 * -DHEAPLINT_RUNTIME_NODE_STACK=OFF has none (HL_TCACHE_STACK 0): the
 * library and every translation unit that uses it are compiled with
 * HL_NO_NODE_STACK=1, which the CMake target and pkg-config pass on. The
 * two layouts name the thread cache differently, so that code compiled
 * for one does not link with a library built for the other. */
/* A runtime configured with -DHEAPLINT_RUNTIME_NODE_LEAN=ON (HL_NODE_LEAN=1,
 * passed on the same way) has no stacks either, and frees every node into
 * the class's bin, whatever its chunk, without reading the chunk: nothing
 * goes back to a chunk until the bin holds HL_TCACHE_LEAN_BYTES' worth
 * beyond its last refill (then the whole bin goes back, in one call), the
 * thread calls hl_trim or exits. A third layout,
 * under a third name. */
#if defined(HL_NODE_LEAN) && HL_NODE_LEAN
#define HL_TCACHE_LEAN 1
#define HL_TCACHE_STACK 0
#define hl_tcache_tls hl_tcache_tls_lean
#elif defined(HL_NO_NODE_STACK) && HL_NO_NODE_STACK
#define HL_TCACHE_LEAN 0
#define HL_TCACHE_STACK 0
#define hl_tcache_tls hl_tcache_tls_nostack
#else
#define HL_TCACHE_LEAN 0
#define HL_TCACHE_STACK 128
#endif
/* The lean path's bound per class, in bytes (blocks: this / the class's
 * size): what one thread's bin may hold of what it freed. Read by the
 * library only (and the tests); 512 KiB, 8 MiB over the 16 classes. */
#ifndef HL_TCACHE_LEAN_BYTES
#define HL_TCACHE_LEAN_BYTES ((size_t)512 * 1024)
#endif

typedef struct hl_tcache {
  void *heap;                        /* the thread's heap; NULL until it first allocates, and after it exits */
  void *bin[HL_TCACHE_BINS];         /* blocks taken from the heap, linked through their first word */
  void *cur[HL_TCACHE_BINS];         /* the chunk each class of the heap carves from, as of its last
                                      refill (NULL: none); its blocks are freed into the bin */
  uint64_t freed[HL_TCACHE_BINS];    /* blocks freed inline, per class (read by the statistics) */
  uint64_t recycled[HL_TCACHE_BINS]; /* blocks freed onto the stack or into the bin: counted by the
                                        statistics as a free and as the allocation that takes the
                                        block again */
#if HL_TCACHE_STACK
  uint32_t count[HL_TCACHE_BINS]; /* blocks on each stack */
  /* A free goes onto the stack while count < limit: HL_TCACHE_STACK once
   * the class allocates from the bin; 0 from the emptying of a full stack
   * until then, and in a thread without a heap. */
  uint32_t limit[HL_TCACHE_BINS];
  void *stack[HL_TCACHE_BINS][HL_TCACHE_STACK]; /* freed blocks' addresses, the last one at count - 1 */
#endif
#if HL_TCACHE_LEAN
  /* A free goes into the bin while recycled < bound: bound is set to
   * recycled + the class's bound in blocks when the bin is empty or just
   * refilled, and each pop off the bin adds one (bound - recycled is the
   * room left); 0 in a thread without a heap and for a class served by
   * large blocks, whose frees all take the call. */
  uint64_t bound[HL_TCACHE_BINS];
#endif
} hl_tcache;

/* The first fields of every chunk (the rest is private to the runtime). */
typedef struct hl_chunk_head {
  void *owner;       /* the heap whose lists the chunk is on */
  void *free;        /* its free blocks, linked through their first word */
  uint32_t used;     /* blocks handed out or in a bin */
  uint32_t capacity; /* blocks it holds; 0 for a large block */
} hl_chunk_head;

/* A block's chunk is its address & hl_tcache_chunk_mask (set before the
 * allocator hands out its first block, never changed after). */
extern uintptr_t hl_tcache_chunk_mask;

/* GNU C's __thread, in C++ too: thread-local storage without C++'s dynamic
 * initialization, so that an access is one load relative to the thread
 * pointer rather than a call to a wrapper. The checked build
 * (HL_RUNTIME_DEBUG) does not inline, so that every block goes through the
 * checks; HL_TCACHE_INLINE says whether the C++ allocators do. */
#if defined(__GNUC__)
extern __thread hl_tcache hl_tcache_tls __attribute__((tls_model("initial-exec")));
#if defined(HL_RUNTIME_DEBUG) && HL_RUNTIME_DEBUG
#define HL_TCACHE_INLINE 0
#else
#define HL_TCACHE_INLINE 1
#endif
#else
#define HL_TCACHE_INLINE 0
#endif

/* Bin c is empty: takes a batch of blocks of class c from the calling
 * thread's heap into it and returns one of them, or NULL when memory is
 * exhausted. */
void *hl_tcache_refill(size_t c);
/* Frees block (of class c) when the inline path cannot. When class c's
 * stack is full, its blocks go back to their chunks first, and the stack
 * takes no frees until the class next allocates from the bin. */
void hl_tcache_free(size_t c, void *block);

#ifdef __cplusplus
}
#endif

#endif
