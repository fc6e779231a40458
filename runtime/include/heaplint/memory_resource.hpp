// heaplint/memory_resource.hpp: hl::pool_resource, a std::pmr::memory_resource
// over heaplint's size-class allocator, so code written against std::pmr
// uses the same pools:
//
//   std::pmr::list<int> l(hl::default_pool_resource());   // hl_malloc's pools
//   hl::pool_resource r(arena.get());                     // one hl_allocator
//   std::pmr::map<int, int> m(&r);
//
// Allocation failure throws std::bad_alloc. Header-only, C++17.
#ifndef HEAPLINT_MEMORY_RESOURCE_HPP
#define HEAPLINT_MEMORY_RESOURCE_HPP

#if __cplusplus < 201703L
#error "heaplint/memory_resource.hpp needs C++17 (std::pmr); the other heaplint headers work from C++11"
#endif

#include <cstddef>
#include <memory_resource>

#include "pool_allocator.hpp"

namespace hl {

class pool_resource final : public std::pmr::memory_resource {
 public:
  // The process-wide allocator (hl_malloc's).
  pool_resource() noexcept = default;
  // One allocator instance, which must outlive the resource.
  explicit pool_resource(hl_allocator* a) noexcept : a_(a) {}

  hl_allocator* get() const noexcept { return a_; }

 private:
  void* do_allocate(std::size_t bytes, std::size_t align) override {
    void* p = a_ ? hl_allocator_aligned_alloc(a_, align, bytes) : hl_aligned_alloc(align, bytes);
    if (!p) detail::throw_bad_alloc();
    return p;
  }

  void do_deallocate(void* p, std::size_t, std::size_t) override {
    if (a_)
      hl_allocator_free(a_, p);
    else
      hl_free(p);
  }

  bool do_is_equal(const std::pmr::memory_resource& other) const noexcept override {
    if (this == &other) return true;
#if defined(__cpp_rtti) || defined(__GXX_RTTI)
    auto* o = dynamic_cast<const pool_resource*>(&other);
    return o && o->a_ == a_;
#else
    return false;
#endif
  }

  hl_allocator* a_ = nullptr;
};

// A resource for the process-wide allocator that lives as long as the program.
inline pool_resource* default_pool_resource() noexcept {
  static pool_resource resource;
  return &resource;
}

}  // namespace hl

#endif
