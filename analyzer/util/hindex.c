#include "util/hindex.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "util/util.h"

static unsigned long long seed;
static pthread_once_t seed_once = PTHREAD_ONCE_INIT;

/* Not a secret, only unknown to whoever wrote the input: the time, the
 * process id and where the stack and this library were put. */
static void make_seed(void) {
  struct timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  int local;
  unsigned long long parts[] = {(unsigned long long)ts.tv_sec, (unsigned long long)ts.tv_nsec,
                                (unsigned long long)getpid(), (unsigned long long)(size_t)&local,
                                (unsigned long long)(size_t)&seed};
  seed = hl_fnv1a(parts, sizeof parts);
}

/* splitmix64's finalizer: every bit of h moves every bit of the result,
 * so the low bits that pick a slot depend on the whole key. */
static unsigned long long mix(unsigned long long h) {
  h ^= h >> 30;
  h *= 0xbf58476d1ce4e5b9ULL;
  h ^= h >> 27;
  h *= 0x94d049bb133111ebULL;
  h ^= h >> 31;
  return h ? h : 1;
}

unsigned long long hl_hindex_hash(const void *key, size_t n) {
  pthread_once(&seed_once, make_seed);
  return mix(hl_fnv1a_more(seed, key, n));
}

unsigned long long hl_hindex_hash_parts(const char *const *parts, size_t nparts) {
  pthread_once(&seed_once, make_seed);
  unsigned long long h = seed;
  for (size_t i = 0; i < nparts; i++) h = hl_fnv1a_more(h, parts[i], strlen(parts[i]) + 1);
  return mix(h);
}

static void put(hl_hindex *ix, unsigned long long hash, size_t position) {
  size_t i = (size_t)hash & (ix->cap - 1);
  while (ix->hashes[i]) i = (i + 1) & (ix->cap - 1);
  ix->hashes[i] = hash;
  ix->positions[i] = position;
  ix->n++;
}

void hl_hindex_add(hl_hindex *ix, unsigned long long hash, size_t position) {
  /* At most half full: a probe ends after a couple of slots. */
  if (2 * (ix->n + 1) > ix->cap) {
    hl_hindex old = *ix;
    ix->cap = old.cap ? 2 * old.cap : 16;
    ix->n = 0;
    ix->hashes = hl_xcalloc(ix->cap, sizeof *ix->hashes);
    ix->positions = hl_xcalloc(ix->cap, sizeof *ix->positions);
    for (size_t i = 0; i < old.cap; i++)
      if (old.hashes[i]) put(ix, old.hashes[i], old.positions[i]);
    hl_hindex_free(&old);
  }
  put(ix, hash, position);
}

int hl_hindex_next(const hl_hindex *ix, unsigned long long hash, size_t *cursor, size_t *position) {
  if (!ix->cap) return 0;
  /* *cursor counts the slots looked at from the hash's own. */
  for (size_t k = *cursor; k < ix->cap; k++) {
    size_t i = ((size_t)hash + k) & (ix->cap - 1);
    if (!ix->hashes[i]) return 0;
    if (ix->hashes[i] == hash) {
      *cursor = k + 1;
      *position = ix->positions[i];
      return 1;
    }
  }
  return 0;
}

void hl_hindex_free(hl_hindex *ix) {
  free(ix->hashes);
  free(ix->positions);
  memset(ix, 0, sizeof *ix);
}
