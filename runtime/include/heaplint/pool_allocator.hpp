// heaplint/pool_allocator.hpp: standard allocators over heaplint's
// size-class allocator (heaplint/alloc.h).
//
//   hl::pool_allocator<T>   stateless; every instance uses the process-wide
//                           allocator (hl_malloc's), which is thread-safe and
//                           made heap-free by hl_configure with an arena.
//                           Single elements of up to 256 bytes (the nodes of
//                           node containers) take no call: a pop off the
//                           thread's bin for a size class chosen at compile
//                           time, a push onto the block's chunk
//                           (heaplint/detail/tcache.h).
//   hl::bound_allocator<T>  stateful; bound to one hl_allocator instance, e.g.
//                           an hl::static_arena owned next to the container.
//                           Containers keep their allocator (no propagation),
//                           like std::pmr::polymorphic_allocator.
//
// Allocation failure throws std::bad_alloc. Header-only, C++11 and later.
#ifndef HEAPLINT_POOL_ALLOCATOR_HPP
#define HEAPLINT_POOL_ALLOCATOR_HPP

#include <cstddef>
#include <cstdlib>
#include <cstdint>
#include <cstring>
#include <limits>
#include <new>
#include <type_traits>

#include "alloc.h"
#include "detail/tcache.h"

#if defined(__has_cpp_attribute)
#if __has_cpp_attribute(nodiscard) && __cplusplus >= 201703L
#define HEAPLINT_NODISCARD [[nodiscard]]
#endif
#endif
#ifndef HEAPLINT_NODISCARD
#define HEAPLINT_NODISCARD
#endif

namespace hl {
namespace detail {

[[noreturn]] inline void throw_bad_alloc() {
#if defined(__cpp_exceptions) || defined(__EXCEPTIONS)
  throw std::bad_alloc();
#else
  std::abort();
#endif
}

template <class T>
std::size_t array_bytes(std::size_t n) {
  if (n > std::numeric_limits<std::size_t>::max() / sizeof(T)) {
#if defined(__cpp_exceptions) || defined(__EXCEPTIONS)
    throw std::bad_array_new_length();
#else
    std::abort();
#endif
  }
  return n * sizeof(T);
}

// The size class of a single T, as the process-wide allocator picks it:
// the size rounded up to the alignment (at least 8), then 8, 16, ..., 64,
// and four classes per doubling above (heaplint/alloc.h). A class whose size
// is a multiple of 16 is aligned to 16 at least, so the rounding also serves
// alignments up to 16. Inline for up to HL_TCACHE_MAX_SIZE bytes.
constexpr unsigned floor_log2(std::size_t n) { return n < 2 ? 0 : 1 + floor_log2(n / 2); }
constexpr std::size_t class_of(std::size_t bytes) {
  return bytes <= 64 ? (bytes + 7) / 8 - 1
                     : 8 + (floor_log2(bytes - 1) - 6) * 4 + (((bytes - 1) >> (floor_log2(bytes - 1) - 2)) & 3);
}
template <class T>
struct node_class {
  static constexpr std::size_t unit = alignof(T) > 8 ? alignof(T) : 8;
  static constexpr std::size_t bytes = (sizeof(T) + unit - 1) / unit * unit;
  using inline_path = std::integral_constant<bool, HL_TCACHE_INLINE && alignof(T) <= 16 && bytes <= HL_TCACHE_MAX_SIZE>;
  using index = std::integral_constant<std::size_t, class_of(bytes)>;
};

#if HL_TCACHE_INLINE
#define HEAPLINT_LIKELY(x) __builtin_expect(!!(x), 1)

// Adds one to a count of the thread cache (hl_tcache.freed, .recycled).
// Only the owning thread writes it; the statistics read it with an atomic
// load from any thread. A relaxed atomic load and store, which Clang makes
// one add to memory; GCC does not fuse them (a load, an add and a store on
// every inline free), so on x86-64 it gets the one add as assembly, in
// either syntax (-masm=att or intel). A reader sees the add whole.
inline void count_one(std::uint64_t &n) noexcept {
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
  __asm__ __volatile__("{addq $1, %0|add %0, 1}" : "+m"(n));
#else
  __atomic_store_n(&n, __atomic_load_n(&n, __ATOMIC_RELAXED) + 1, __ATOMIC_RELAXED);
#endif
}

// Bin c is empty: a block from the thread's heap, which refills the bin.
// Out of line, with the throw, so that a container's allocate inlines the
// pop and one call, not the exception's construction.
#if defined(__GNUC__)
#define HEAPLINT_COLD __attribute__((noinline, cold))
#else
#define HEAPLINT_COLD
#endif
HEAPLINT_COLD inline void *node_refill(std::size_t c) {
  void *p = hl_tcache_refill(c);
  if (!p) throw_bad_alloc();
  return p;
}

// A block for class c: the one the thread freed last (its stack), else one
// off the thread's bin, else the bin is refilled from the thread's heap. A
// block off the stack is not read: its address is the stack's. A pop off the
// bin reads the block's link, and the next pop reads the new head's: a cache
// miss when that block was freed long ago, so it is fetched now (as hl_malloc
// and hl_pool_alloc do). A prefetch never faults, the list's end (NULL)
// included, on every target GCC and Clang support. A runtime built with
// HEAPLINT_RUNTIME_NODE_STACK=OFF has no stacks (HL_TCACHE_STACK 0): this
// and node_deallocate are then the bin's and the chunks' paths alone; one
// built with HEAPLINT_RUNTIME_NODE_LEAN=ON neither, and its frees go into
// the bin too (node_deallocate's lean form).
inline void *node_allocate(std::size_t c) {
  hl_tcache &t = hl_tcache_tls;
#if HL_TCACHE_STACK
  std::uint32_t n = t.count[c];
  if (HEAPLINT_LIKELY(n != 0)) {
    t.count[c] = n - 1;
    return t.stack[c][n - 1];
  }
#endif
  void *p = t.bin[c];
  if (HEAPLINT_LIKELY(p != nullptr)) {
    void *next;
    std::memcpy(&next, p, sizeof next);
    t.bin[c] = next;
#if HL_TCACHE_STACK
    t.limit[c] = HL_TCACHE_STACK;
#endif
#if HL_TCACHE_LEAN
    t.bound[c] += 1;  // room for the free that gives it back
#endif
    __builtin_prefetch(next, 1);
    return p;
  }
  return node_refill(c);
}

// Onto the thread's stack for class c while it has room, whichever chunk
// the block is of: neither this call nor the allocation that takes the
// block again reads or writes the block or its chunk. Else onto the bin
// when it is of the chunk the class carves from; else onto its chunk's free
// list when this thread owns the chunk and the chunk becomes neither empty
// nor (from full) free again: those need its lists, and hl_tcache_free,
// which also empties a full stack (many frees and no allocation, as in a
// container's clear(): the chunks can then be retired whole).
#if HL_TCACHE_LEAN
// The lean path (HEAPLINT_RUNTIME_NODE_LEAN=ON): into the thread's bin for
// class c, whichever chunk the block is of, without reading the chunk; the
// count of frees into the bin (recycled, which the statistics read) is also
// the bound's: past it, hl_tcache_free gives the whole bin back to the
// chunks and takes this block. Each pop off the bin (node_allocate) raises
// the bound by one, so that the bin holds at most the bound's worth of
// blocks beyond those of its last refill, however many go through it. The
// block stays counted as handed out, as on the stack.
inline void node_deallocate(std::size_t c, void *p) noexcept {
  hl_tcache &t = hl_tcache_tls;
  std::uint64_t n = __atomic_load_n(&t.recycled[c], __ATOMIC_RELAXED);
  if (HEAPLINT_LIKELY(n < t.bound[c])) {
    __atomic_store_n(&t.recycled[c], n + 1, __ATOMIC_RELAXED);
    std::memcpy(p, &t.bin[c], sizeof(void *));
    t.bin[c] = p;
    return;
  }
  hl_tcache_free(c, p);
}
#else
inline void node_deallocate(std::size_t c, void *p) noexcept {
  hl_tcache &t = hl_tcache_tls;
  // A block on the stack or in the bin counts as handed out, as the block
  // did, so its chunk does not change; the statistics count a free and the
  // allocation to come. A block of another thread's chunk stays handed out
  // in that chunk until it is freed onto a chunk again. The limit is 0 in a
  // thread without a heap, which has no stack to give back at its exit.
#if HL_TCACHE_STACK
  std::uint32_t n = t.count[c];
  if (HEAPLINT_LIKELY(n < t.limit[c])) {
    t.stack[c][n] = p;
    t.count[c] = n + 1;
    count_one(t.recycled[c]);
    return;
  }
#endif
  hl_chunk_head *k = reinterpret_cast<hl_chunk_head *>(reinterpret_cast<std::uintptr_t>(p) & hl_tcache_chunk_mask);
  // (The chunk the class carves from keeps blocks of class c while one is
  // live, this one included.)
  if (HEAPLINT_LIKELY(k == t.cur[c])) {
    count_one(t.recycled[c]);
    std::memcpy(p, &t.bin[c], sizeof(void *));
    t.bin[c] = p;
    return;
  }
  // The owner first (a thread without a heap matches no chunk): another
  // thread's chunk is not ours to read further. Then 2 <= used < capacity,
  // in one unsigned comparison (a large block has capacity 0).
  if (HEAPLINT_LIKELY(k->owner == t.heap)) {
    std::uint32_t was = k->used;
    if (HEAPLINT_LIKELY(was - 2u < k->capacity - 2u)) {
      std::memcpy(p, &k->free, sizeof(void *));
      k->free = p;
      k->used = was - 1;
      count_one(t.freed[c]);
      return;
    }
  }
  hl_tcache_free(c, p);
}
#endif

template <class T>
T *pooled_allocate(std::true_type) {
  return static_cast<T *>(node_allocate(node_class<T>::index::value));
}
template <class T>
void pooled_deallocate(T *p, std::true_type) noexcept {
  node_deallocate(node_class<T>::index::value, p);
}
#endif

template <class T>
T *pooled_allocate(std::false_type) {
  void *p = hl_aligned_alloc(alignof(T), sizeof(T));
  if (!p) throw_bad_alloc();
  return static_cast<T *>(p);
}
template <class T>
void pooled_deallocate(T *p, std::false_type) noexcept {
  hl_free(p);
}

}  // namespace detail

template <class T>
class pool_allocator {
 public:
  using value_type = T;
  using size_type = std::size_t;
  using difference_type = std::ptrdiff_t;
  using propagate_on_container_move_assignment = std::true_type;
  using is_always_equal = std::true_type;
  template <class U>
  struct rebind {
    using other = pool_allocator<U>;
  };

  pool_allocator() noexcept = default;
  template <class U>
  pool_allocator(const pool_allocator<U> &) noexcept {}

  HEAPLINT_NODISCARD T *allocate(std::size_t n) {
    if (n == 1) return detail::pooled_allocate<T>(typename detail::node_class<T>::inline_path());
    void *p = hl_aligned_alloc(alignof(T), detail::array_bytes<T>(n));
    if (!p) detail::throw_bad_alloc();
    return static_cast<T *>(p);
  }

  void deallocate(T *p, std::size_t n) noexcept {
    if (n == 1)
      detail::pooled_deallocate(p, typename detail::node_class<T>::inline_path());
    else
      hl_free(p);
  }

  std::size_t max_size() const noexcept { return std::numeric_limits<std::size_t>::max() / sizeof(T); }
};

template <class T, class U>
bool operator==(const pool_allocator<T> &, const pool_allocator<U> &) noexcept {
  return true;
}

template <class T, class U>
bool operator!=(const pool_allocator<T> &, const pool_allocator<U> &) noexcept {
  return false;
}

template <class T>
class bound_allocator {
 public:
  using value_type = T;
  using size_type = std::size_t;
  using difference_type = std::ptrdiff_t;
  // A container stays with the allocator it was built with: its memory
  // belongs to that instance. Swapping containers bound to different
  // instances is undefined, as for std::pmr.
  using propagate_on_container_copy_assignment = std::false_type;
  using propagate_on_container_move_assignment = std::false_type;
  using propagate_on_container_swap = std::false_type;
  using is_always_equal = std::false_type;
  template <class U>
  struct rebind {
    using other = bound_allocator<U>;
  };

  explicit bound_allocator(hl_allocator *a) noexcept : a_(a) {}
  template <class U>
  bound_allocator(const bound_allocator<U> &other) noexcept : a_(other.get()) {}

  HEAPLINT_NODISCARD T *allocate(std::size_t n) {
    void *p = hl_allocator_aligned_alloc(a_, alignof(T), detail::array_bytes<T>(n));
    if (!p) detail::throw_bad_alloc();
    return static_cast<T *>(p);
  }

  void deallocate(T *p, std::size_t) noexcept { hl_allocator_free(a_, p); }

  std::size_t max_size() const noexcept { return std::numeric_limits<std::size_t>::max() / sizeof(T); }

  // A copy of a container uses the same instance.
  bound_allocator select_on_container_copy_construction() const noexcept { return *this; }

  hl_allocator *get() const noexcept { return a_; }

 private:
  hl_allocator *a_;
};

template <class T, class U>
bool operator==(const bound_allocator<T> &a, const bound_allocator<U> &b) noexcept {
  return a.get() == b.get();
}

template <class T, class U>
bool operator!=(const bound_allocator<T> &a, const bound_allocator<U> &b) noexcept {
  return a.get() != b.get();
}

// A size-class allocator living entirely inside this object: no heap, ever.
// Requests above max_class (by default ChunkSize / 16) fail with
// std::bad_alloc, as does running out of chunks. Give it static storage
// duration or make it a member next to the container that uses it.
template <std::size_t Bytes, std::size_t ChunkSize = 16 * 1024>
class static_arena {
  static_assert(ChunkSize >= 4096 && (ChunkSize & (ChunkSize - 1)) == 0,
                "hl::static_arena: ChunkSize must be a power of two of at least 4096");
  static_assert(Bytes >= 2 * ChunkSize,
                "hl::static_arena: Bytes must hold at least two chunks (one is used for the "
                "allocator's own bookkeeping)");

 public:
  explicit static_arena(const char *name = "hl::static_arena", std::size_t max_class = 0) {
    hl_allocator_config cfg;
    hl_allocator_config_default(&cfg);
    cfg.name = name;
    cfg.chunk_size = ChunkSize;
    cfg.max_class = max_class;
    if (hl_allocator_create_static(&a_, bytes_, Bytes, &cfg) != HL_OK) detail::throw_bad_alloc();
  }
  static_arena(const static_arena &) = delete;
  static_arena &operator=(const static_arena &) = delete;
  ~static_arena() { hl_allocator_destroy(a_); }

  hl_allocator *get() const noexcept { return a_; }
#if defined(__cpp_lib_byte)
  template <class T = std::byte>
#else
  template <class T = unsigned char>
#endif
  bound_allocator<T> allocator() const noexcept {
    return bound_allocator<T>(a_);
  }
  template <class T>
  operator bound_allocator<T>() const noexcept {
    return bound_allocator<T>(a_);
  }

 private:
  alignas(ChunkSize) unsigned char bytes_[Bytes];
  hl_allocator *a_ = nullptr;
};

}  // namespace hl

#endif
