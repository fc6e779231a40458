// Counting replacements for every replaceable global allocation function.
//
// Include this header in exactly one translation unit of a program: it
// defines (not declares) the global operator new/delete overloads, so that
// every allocation a standard library makes is counted. The align_val_t
// overloads matter: without them an over-aligned target is allocated by the
// library through an uncounted path and a probe reports a false "zero".
//
// heaplint calibrate's probe programs are built on it (heaplint embeds this
// file at build time, see cmake/HeaplintEmbed.cmake); the measured
// ground-truth tests of the analyzer, the runtime's allocation-count tests
// and the benchmarks include it from here.
#ifndef HEAPLINT_PROBES_COUNT_NEW_HPP
#define HEAPLINT_PROBES_COUNT_NEW_HPP

#include <atomic>
#include <cstddef>
#include <cstdlib>
#include <new>

namespace hl_count {
inline std::atomic<unsigned long> news{0};
inline std::atomic<unsigned long> deletes{0};
inline std::atomic<unsigned long> bytes{0};

// Allocations (every operator new overload) since the program started.
inline unsigned long allocations() { return news.load(std::memory_order_relaxed); }

// Counts the allocations made while running f.
template <class F> unsigned long count(F&& f) {
  unsigned long before = allocations();
  f();
  return allocations() - before;
}

inline void* plain(std::size_t n) {
  news.fetch_add(1, std::memory_order_relaxed);
  bytes.fetch_add(n, std::memory_order_relaxed);
  return std::malloc(n ? n : 1);
}

inline void* aligned(std::size_t n, std::size_t a) {
  news.fetch_add(1, std::memory_order_relaxed);
  bytes.fetch_add(n, std::memory_order_relaxed);
  if (a < sizeof(void*)) a = sizeof(void*);
  void* p = nullptr;
  if (posix_memalign(&p, a, n ? n : 1) != 0) return nullptr;
  return p;
}

inline void release(void* p) {
  if (!p) return;
  deletes.fetch_add(1, std::memory_order_relaxed);
  std::free(p);
}
}  // namespace hl_count

void* operator new(std::size_t n) {
  if (void* p = hl_count::plain(n)) return p;
  throw std::bad_alloc();
}
void* operator new[](std::size_t n) {
  if (void* p = hl_count::plain(n)) return p;
  throw std::bad_alloc();
}
void* operator new(std::size_t n, const std::nothrow_t&) noexcept { return hl_count::plain(n); }
void* operator new[](std::size_t n, const std::nothrow_t&) noexcept { return hl_count::plain(n); }
void* operator new(std::size_t n, std::align_val_t a) {
  if (void* p = hl_count::aligned(n, static_cast<std::size_t>(a))) return p;
  throw std::bad_alloc();
}
void* operator new[](std::size_t n, std::align_val_t a) {
  if (void* p = hl_count::aligned(n, static_cast<std::size_t>(a))) return p;
  throw std::bad_alloc();
}
void* operator new(std::size_t n, std::align_val_t a, const std::nothrow_t&) noexcept {
  return hl_count::aligned(n, static_cast<std::size_t>(a));
}
void* operator new[](std::size_t n, std::align_val_t a, const std::nothrow_t&) noexcept {
  return hl_count::aligned(n, static_cast<std::size_t>(a));
}

void operator delete(void* p) noexcept { hl_count::release(p); }
void operator delete[](void* p) noexcept { hl_count::release(p); }
void operator delete(void* p, const std::nothrow_t&) noexcept { hl_count::release(p); }
void operator delete[](void* p, const std::nothrow_t&) noexcept { hl_count::release(p); }
void operator delete(void* p, std::size_t) noexcept { hl_count::release(p); }
void operator delete[](void* p, std::size_t) noexcept { hl_count::release(p); }
void operator delete(void* p, std::align_val_t) noexcept { hl_count::release(p); }
void operator delete[](void* p, std::align_val_t) noexcept { hl_count::release(p); }
void operator delete(void* p, std::size_t, std::align_val_t) noexcept { hl_count::release(p); }
void operator delete[](void* p, std::size_t, std::align_val_t) noexcept { hl_count::release(p); }
void operator delete(void* p, std::align_val_t, const std::nothrow_t&) noexcept { hl_count::release(p); }
void operator delete[](void* p, std::align_val_t, const std::nothrow_t&) noexcept { hl_count::release(p); }

#endif
