/* alloc_source: where a size-class allocator's memory comes from — its
 * configuration turned into size classes, chunks taken from the system or
 * from a static arena and given back, zeroed metadata for heaps, and the
 * checked build's registry of the chunks outside the arena (so that a free
 * of a foreign pointer is caught before its chunk header is read). */
#include <stdio.h>
#include <string.h>

#include "alloc_internal.h"
#include "sys.h"

/* ---- configuration ------------------------------------------------------ */

void hl_allocator_config_default(hl_allocator_config *cfg) {
  memset(cfg, 0, sizeof *cfg);
  cfg->retain_chunks = 16;
}

static void *none_alloc(void *ctx, size_t size, size_t align) {
  (void)ctx;
  (void)size;
  (void)align;
  return NULL;
}

static void none_free(void *ctx, void *p, size_t size) {
  (void)ctx;
  (void)p;
  (void)size;
}

const hl_fallback hl_fallback_none = {none_alloc, none_free, NULL};

#ifndef HL_NO_HEAP
static void *system_alloc(void *ctx, size_t size, size_t align) {
  (void)ctx;
  return hl_sys_alloc(size, align);
}

static void system_free(void *ctx, void *p, size_t size) {
  (void)ctx;
  (void)size;
  hl_sys_free(p);
}

const hl_fallback hl_fallback_system = {system_alloc, system_free, NULL};
#define DEFAULT_FALLBACK (&hl_fallback_system)
#else
#define DEFAULT_FALLBACK (&hl_fallback_none)
#endif

/* Sets up everything but the lock and the arena from cfg (NULL: defaults). */
hl_status hl_source_setup(source *s, const hl_allocator_config *cfg, int arena, const char *default_name) {
  hl_allocator_config def;
  if (!cfg) {
    hl_allocator_config_default(&def);
    cfg = &def;
  }
  size_t cs = cfg->chunk_size ? cfg->chunk_size : arena ? (size_t)16 << 10 : (size_t)64 << 10;
  if (!is_pow2(cs) || cs < CHUNK_MIN || cs > CHUNK_MAX) return HL_EINVAL;
  size_t max = cfg->max_class ? cfg->max_class : (cs / 16 < 4096 ? cs / 16 : 4096);
  if (max < 8 || max > cs / 4) return HL_EINVAL;

  const char *name = cfg->name ? cfg->name : default_name;
  memset(s, 0, sizeof *s);
  snprintf(s->name, sizeof s->name, "%s", name);
  s->chunk_size = cs;
  s->mask = ~(uintptr_t)(cs - 1);
  s->retain = cfg->retain_chunks;
  s->large_limit = s->retain > SIZE_MAX / cs ? SIZE_MAX : s->retain * cs;
  s->nclasses = class_size(class_index(max)) == max ? class_index(max) + 1 : class_index(max);
  s->max_class = class_size(s->nclasses - 1);
  s->fallback = cfg->fallback ? *cfg->fallback : arena ? hl_fallback_none : *DEFAULT_FALLBACK;
  s->on_exhausted = cfg->on_exhausted;
  s->on_exhausted_ctx = cfg->on_exhausted_ctx;
  s->is_arena = arena;

  /* Blocks keep the natural alignment of their size (up to 64): the checked
   * build's guard is padded to keep it. The bitmap is sized for the class
   * with the most blocks. */
  for (uint32_t i = 0; i < s->nclasses; i++) {
    geom *g = &s->geom[i];
    g->size = (uint32_t)class_size(i);
    g->align = (uint32_t)(low_bit(g->size) < BLOCK_ALIGN_MAX ? low_bit(g->size) : BLOCK_ALIGN_MAX);
    g->stride = (uint32_t)align_up(g->size + HL_GUARD_BYTES, g->align);
    /* name cut as s->name is, not s->name itself: GCC's -Wrestrict takes
     * two members of *s for a possible overlap. */
    snprintf(g->name, sizeof g->name, "%.*s/%u", (int)sizeof s->name - 1, name, (unsigned)g->size);
  }
  size_t most = cs / s->geom[0].stride;
  s->header = align_up(sizeof(chunk) + (HL_CHECKED ? (most + 7) / 8 : 0), HEADER_ALIGN);
  for (uint32_t i = 0; i < s->nclasses; i++) {
    s->geom[i].capacity = (uint32_t)((cs - s->header) / s->geom[i].stride);
    if (s->geom[i].capacity == 0) return HL_EINVAL;
  }
  for (size_t i = 0; i <= LUT_MAX / 8; i++) {
    s->lut[0][i] = (uint8_t)class_search(s, i * 8, 8);
    s->lut[1][i] = (uint8_t)class_search(s, i * 8, 16);
  }
  return HL_OK;
}

/* ---- chunks from the system or the arena -------------------------------- */

/* Checked build: where addr is (or would go) in the sorted registry. */
static size_t reg_find(const source *s, uintptr_t addr) {
  size_t lo = 0, hi = s->nreg;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (s->reg[mid] < addr)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}

int hl_reg_add(source *s, uintptr_t addr) {
  pthread_mutex_lock(&s->lock);
  if (s->nreg == s->capreg) {
    size_t cap = s->capreg ? s->capreg * 2 : 64;
    uintptr_t *grown = hl_sys_alloc(cap * sizeof *grown, _Alignof(uintptr_t));
    if (!grown) {
      pthread_mutex_unlock(&s->lock);
      return 0;
    }
    if (s->nreg) memcpy(grown, s->reg, s->nreg * sizeof *grown);
    hl_sys_free(s->reg);
    s->reg = grown;
    s->capreg = cap;
  }
  size_t at = reg_find(s, addr);
  memmove(s->reg + at + 1, s->reg + at, (s->nreg - at) * sizeof *s->reg);
  s->reg[at] = addr;
  s->nreg++;
  pthread_mutex_unlock(&s->lock);
  return 1;
}

void hl_reg_remove(source *s, uintptr_t addr) {
  pthread_mutex_lock(&s->lock);
  size_t at = reg_find(s, addr);
  if (at < s->nreg && s->reg[at] == addr) {
    memmove(s->reg + at, s->reg + at + 1, (s->nreg - at - 1) * sizeof *s->reg);
    s->nreg--;
  }
  pthread_mutex_unlock(&s->lock);
}

/* Checked build: whether the chunk address k may be read at all. */
int hl_chunk_known(source *s, uintptr_t k) {
  if (in_arena(s, k)) return 1;
  pthread_mutex_lock(&s->lock);
  size_t at = reg_find(s, k);
  int found = at < s->nreg && s->reg[at] == k;
  pthread_mutex_unlock(&s->lock);
  return found;
}

chunk *hl_chunk_get(source *s) {
  chunk *k = NULL;
  if (s->is_arena) {
    pthread_mutex_lock(&s->lock);
    if (s->arena_free) {
      k = s->arena_free;
      s->arena_free = k->next;
    } else if (s->meta >= s->arena_top && s->meta - s->arena_top >= s->chunk_size) {
      k = (chunk *)s->arena_top;
      s->arena_top += s->chunk_size;
    }
    pthread_mutex_unlock(&s->lock);
  } else {
    k = hl_sys_alloc(s->chunk_size, s->chunk_size);
    if (k && HL_CHECKED && !hl_reg_add(s, (uintptr_t)k)) {
      hl_sys_free(k);
      k = NULL;
    }
  }
  return k;
}

void hl_chunk_put(source *s, chunk *k) {
  k->kind = KIND_EMPTY;
  if (s->is_arena) {
    pthread_mutex_lock(&s->lock);
    k->next = s->arena_free;
    s->arena_free = k;
    pthread_mutex_unlock(&s->lock);
  } else {
    if (HL_CHECKED) hl_reg_remove(s, (uintptr_t)k);
    hl_sys_free(k);
  }
}

/* Zeroed metadata (heaps, private allocators), 64-byte aligned. */
void *hl_meta_alloc(source *s, size_t size) {
  void *m = NULL;
  size = align_up(size, 64);
  if (s->is_arena) {
    pthread_mutex_lock(&s->lock);
    if (s->meta >= s->arena_top && s->meta - s->arena_top >= size) {
      s->meta -= size;
      m = (void *)s->meta;
    }
    pthread_mutex_unlock(&s->lock);
  } else {
    m = hl_sys_alloc(size, 64);
  }
  if (m) memset(m, 0, size);
  return m;
}
