// heaplint/memory_resource.hpp: std::pmr::memory_resources over heaplint's
// allocators, so code written against std::pmr uses the same pools:
//
//   std::pmr::list<int> l(hl::default_pool_resource());   // hl_malloc's pools
//   hl::pool_resource r(arena.get());                     // one hl_allocator
//   hl::pool_resource p(256 * 1024, upstream);            // pools in memory from upstream
//   hl::arena_resource frame(buf, sizeof buf);            // monotonic, reset() per frame
//   std::pmr::map<int, int> m(&r);
//
// Allocation failure throws std::bad_alloc. Header-only, C++17 (std::pmr).
#ifndef HEAPLINT_MEMORY_RESOURCE_HPP
#define HEAPLINT_MEMORY_RESOURCE_HPP

#if __cplusplus < 201703L
#error "heaplint/memory_resource.hpp needs C++17 (std::pmr); the other heaplint headers work from C++11"
#endif

#include <cstddef>
#include <functional>
#include <memory_resource>

#include "arena.h"
#include "pool_allocator.hpp"

namespace hl {

namespace detail {

// A std::pmr::memory_resource as the C core's source of blocks (an
// hl_fallback). Blocks are always asked for with one alignment, so that they
// can be given back with it (hl_fallback.free has no alignment). Exceptions
// stop here: the C code sees NULL, and the resource throws std::bad_alloc.
struct pmr_source {
  std::pmr::memory_resource *resource;
  std::size_t align;

  static void *alloc(void *ctx, std::size_t size, std::size_t align) noexcept {
    auto *s = static_cast<pmr_source *>(ctx);
    if (align > s->align) return nullptr;
#if defined(__cpp_exceptions) || defined(__EXCEPTIONS)
    try {
      return s->resource->allocate(size, s->align);
    } catch (...) {
      return nullptr;
    }
#else
    return s->resource->allocate(size, s->align);
#endif
  }

  static void free(void *ctx, void *p, std::size_t size) noexcept {
    auto *s = static_cast<pmr_source *>(ctx);
    s->resource->deallocate(p, size, s->align);
  }

  hl_fallback fallback() noexcept {
    if (resource == std::pmr::null_memory_resource()) return hl_fallback_none;
    return hl_fallback{&pmr_source::alloc, &pmr_source::free, this};
  }
};

}  // namespace detail

// The size-class allocator as a memory resource: the process-wide one, one
// hl_allocator instance, or a private one over memory from an upstream.
class pool_resource final : public std::pmr::memory_resource {
 public:
  // The process-wide allocator (hl_malloc's).
  pool_resource() noexcept = default;
  // One allocator instance, which must outlive the resource.
  explicit pool_resource(hl_allocator *a) noexcept : a_(a) {}
  // Pools of its own in `bytes` taken from upstream once, here (at least 32
  // KiB; rounded down to 16 KiB chunks); what the pools cannot serve (larger
  // than 1 KiB, or when they are full) goes to upstream itself, as with
  // std::pmr's pool resources. Everything goes back to upstream at
  // destruction.
  pool_resource(std::size_t bytes, std::pmr::memory_resource *upstream) : upstream_(upstream) {
    bytes_ = bytes / chunk * chunk;
    if (bytes_ < 2 * chunk) detail::throw_bad_alloc();
    region_ = upstream_->allocate(bytes_, chunk);
    hl_allocator_config cfg;
    hl_allocator_config_default(&cfg);
    cfg.name = "hl::pool_resource";
    cfg.chunk_size = chunk;
    if (hl_allocator_create_static(&a_, region_, bytes_, &cfg) != HL_OK) {
      upstream_->deallocate(region_, bytes_, chunk);
      detail::throw_bad_alloc();
    }
  }
  pool_resource(const pool_resource &) = delete;
  pool_resource &operator=(const pool_resource &) = delete;
  ~pool_resource() override {
    if (region_) {
      hl_allocator_destroy(a_);
      upstream_->deallocate(region_, bytes_, chunk);
    }
  }

  hl_allocator *get() const noexcept { return a_; }
  // The upstream of a pool_resource with pools of its own, else nullptr.
  std::pmr::memory_resource *upstream_resource() const noexcept { return upstream_; }

 private:
  static constexpr std::size_t chunk = 16 * 1024;

  bool in_region(void *p) const noexcept {
    auto *b = static_cast<unsigned char *>(p);
    auto *r = static_cast<unsigned char *>(region_);
    return std::less_equal<unsigned char *>()(r, b) && std::less<unsigned char *>()(b, r + bytes_);
  }

  void *do_allocate(std::size_t bytes, std::size_t align) override {
    void *p = a_ ? hl_allocator_aligned_alloc(a_, align, bytes) : hl_aligned_alloc(align, bytes);
    if (!p && upstream_) return upstream_->allocate(bytes, align);
    if (!p) detail::throw_bad_alloc();
    return p;
  }

  void do_deallocate(void *p, std::size_t bytes, std::size_t align) override {
    if (upstream_ && !in_region(p))
      upstream_->deallocate(p, bytes, align);
    else if (a_)
      hl_allocator_free(a_, p);
    else
      hl_free(p);
  }

  bool do_is_equal(const std::pmr::memory_resource &other) const noexcept override {
    if (this == &other) return true;
#if defined(__cpp_rtti) || defined(__GXX_RTTI)
    auto *o = dynamic_cast<const pool_resource *>(&other);
    return o && o->a_ == a_;
#else
    return false;
#endif
  }

  hl_allocator *a_ = nullptr;
  std::pmr::memory_resource *upstream_ = nullptr;
  void *region_ = nullptr;
  std::size_t bytes_ = 0;
};

// A resource for the process-wide allocator that lives as long as the program.
inline pool_resource *default_pool_resource() noexcept {
  static pool_resource resource;
  return &resource;
}

// A monotonic arena (hl_arena) as a memory resource: like
// std::pmr::monotonic_buffer_resource, deallocation does nothing and the
// memory comes back all at once, with reset() (keeping the largest block for
// the next round) or at destruction. Growth blocks come from upstream;
// std::pmr::null_memory_resource() as upstream means never grow (full:
// std::bad_alloc) and never touch the heap.
class arena_resource final : public std::pmr::memory_resource {
 public:
  // Everything from upstream, the first block `initial_size` bytes.
  explicit arena_resource(std::pmr::memory_resource *upstream = std::pmr::get_default_resource(),
                          std::size_t initial_size = 4096)
      : source_{upstream, HL_ARENA_BLOCK_ALIGN} {
    hl_fallback fb = source_.fallback();
    hl_arena_config cfg = {"hl::arena_resource", initial_size, &fb};
    if (hl_arena_create(&a_, &cfg) != HL_OK) detail::throw_bad_alloc();
  }

  // The first region is [buffer, buffer + size) (which also holds the
  // arena's own bookkeeping, about 150 bytes); then blocks from upstream.
  arena_resource(void *buffer, std::size_t size, std::pmr::memory_resource *upstream = std::pmr::get_default_resource())
      : source_{upstream, HL_ARENA_BLOCK_ALIGN} {
    hl_fallback fb = source_.fallback();
    hl_arena_config cfg = {"hl::arena_resource", size, &fb};
    if (hl_arena_create_static(&a_, buffer, size, &cfg) != HL_OK) detail::throw_bad_alloc();
  }

  arena_resource(const arena_resource &) = delete;
  arena_resource &operator=(const arena_resource &) = delete;
  ~arena_resource() override { hl_arena_destroy(a_); }

  // Every allocation from this resource becomes invalid.
  void reset() noexcept { hl_arena_reset(a_); }

  std::pmr::memory_resource *upstream_resource() const noexcept { return source_.resource; }
  hl_arena *get() const noexcept { return a_; }

 private:
  void *do_allocate(std::size_t bytes, std::size_t align) override {
    void *p = hl_arena_alloc(a_, bytes, align);
    if (!p) detail::throw_bad_alloc();
    return p;
  }

  void do_deallocate(void *, std::size_t, std::size_t) override {}

  bool do_is_equal(const std::pmr::memory_resource &other) const noexcept override { return this == &other; }

  detail::pmr_source source_;
  hl_arena *a_ = nullptr;
};

}  // namespace hl

#endif
