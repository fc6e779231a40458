/* alloc_remote: frees of blocks that belong to another thread's heap of
 * the process-wide allocator — gathered in batches by the freeing thread,
 * handed over to the owner's lock-free per-class list, and taken back by
 * the owner when its class runs out of free blocks. */
#include "alloc_internal.h"

/* Takes back the blocks other threads freed into class ci of h. */
void hl_remote_drain(heap *h, uint32_t ci) {
  cls *c = &h->cls[ci];
  unsigned char *b = atomic_exchange_explicit(&c->remote, NULL, memory_order_acquire);
  while (b) {
    unsigned char *next = link_get(b);
    stat_set(&c->live, stat_getz(&c->live) - 1);
    stat_add(&c->drained, 1);
    chunk_take_back(h, chunk_of(h->src, b), b);
    b = next;
  }
}

/* Hands the blocks first .. last (linked) over to class ci of heap owner. */
static void remote_push(heap *owner, uint32_t ci, unsigned char *first, unsigned char *last) {
  cls *c = &owner->cls[ci];
  unsigned char *head = atomic_load_explicit(&c->remote, memory_order_relaxed);
  do {
    link_set(last, head);
  } while (
      !atomic_compare_exchange_weak_explicit(&c->remote, &head, first, memory_order_release, memory_order_relaxed));
}

/* Frees of another thread's blocks, gathered per class by the freeing
 * thread of the process-wide allocator and handed over REMOTE_BATCH at a
 * time: each hand-over is two atomic operations on a line the owner also
 * takes, which cost a third of a consumer thread's time when done per block
 * (bench/runtime/remote.cpp). A batch holds the blocks of one owner; a
 * block of another flushes it. At most REMOTE_BATCH - 1 blocks per class
 * wait in a thread, until it frees more, calls hl_trim or exits (the
 * statistics count them as freed). Only threads with a heap gather (their
 * exit flushes); the classes of the thread cache, where the small blocks
 * are. */
#define REMOTE_BATCH 32
typedef struct pending {
  heap *owner;
  unsigned char *first, *last;
  uint32_t n;
} pending;

static _Thread_local pending tl_pending[HL_TCACHE_BINS] TLS_MODEL;

static void pending_flush(pending *q, uint32_t ci) {
  if (!q->n) return;
  remote_push(q->owner, ci, q->first, q->last);
  q->first = q->last = NULL;
  q->n = 0;
}

/* Hands over every batch the calling thread gathered. */
void hl_pending_flush_all(void) {
  for (uint32_t ci = 0; ci < HL_TCACHE_BINS; ci++) pending_flush(&tl_pending[ci], ci);
}

/* Frees b, a block of chunk k of another thread's heap, for thread heap h
 * (NULL: the calling thread has none). */
HL_NOINLINE void hl_remote_free(heap *h, chunk *k, unsigned char *b) {
  uint32_t ci = k->cls;
  if (!h) {
    remote_push(k->owner, ci, b, b);
    atomic_fetch_add_explicit(&k->owner->cls[ci].remote_frees, 1, memory_order_relaxed);
    return;
  }
  stat_add(&h->cls[ci].given, 1);
  if (ci >= HL_TCACHE_BINS) {
    remote_push(k->owner, ci, b, b);
    return;
  }
  pending *q = &tl_pending[ci];
  if (q->owner != k->owner) {
    pending_flush(q, ci);
    q->owner = k->owner;
  }
  link_set(b, q->first);
  if (!q->n) q->last = b;
  q->first = b;
  if (++q->n == REMOTE_BATCH) pending_flush(q, ci);
}
