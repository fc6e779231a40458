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
//
// With HL_COUNT_MALLOC defined before it (glibc only), it also replaces
// malloc, calloc, realloc, aligned_alloc, posix_memalign and memalign, and
// counts their calls apart (hl_count::mallocs()): what the C++ runtime
// allocates without operator new (libstdc++'s __cxa_allocate_exception for
// a throw), and what libc itself does (a thread's bookkeeping). operator new
// then takes its memory from glibc's own __libc_malloc, so that each
// allocation is counted once.
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

#if defined(HL_COUNT_MALLOC)
}  // namespace hl_count
#if !defined(__GLIBC__)
#error "HL_COUNT_MALLOC counts through glibc's __libc_malloc: glibc only"
#endif
extern "C" void* __libc_malloc(std::size_t);
extern "C" void* __libc_calloc(std::size_t, std::size_t);
extern "C" void* __libc_realloc(void*, std::size_t);
extern "C" void* __libc_memalign(std::size_t, std::size_t);
namespace hl_count {
inline std::atomic<unsigned long> malloc_calls{0};
// malloc, calloc, realloc, aligned_alloc, posix_memalign and memalign calls
// since the program started.
inline unsigned long mallocs() { return malloc_calls.load(std::memory_order_relaxed); }
// Both kinds: every call into the heap.
inline unsigned long heap_calls() { return allocations() + mallocs(); }
inline void* raw(std::size_t n) { return __libc_malloc(n); }
inline void* raw_aligned(std::size_t a, std::size_t n) { return __libc_memalign(a, n); }
#else
inline void* raw(std::size_t n) { return std::malloc(n); }
inline void* raw_aligned(std::size_t a, std::size_t n) {
  void* p = nullptr;
  return posix_memalign(&p, a, n) == 0 ? p : nullptr;
}
#endif

inline void* plain(std::size_t n) {
  news.fetch_add(1, std::memory_order_relaxed);
  bytes.fetch_add(n, std::memory_order_relaxed);
  return raw(n ? n : 1);
}

inline void* aligned(std::size_t n, std::size_t a) {
  news.fetch_add(1, std::memory_order_relaxed);
  bytes.fetch_add(n, std::memory_order_relaxed);
  if (a < sizeof(void*)) a = sizeof(void*);
  return raw_aligned(a, n ? n : 1);
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

#if defined(HL_COUNT_MALLOC)
extern "C" {
void* malloc(std::size_t n) {
  hl_count::malloc_calls.fetch_add(1, std::memory_order_relaxed);
  return __libc_malloc(n);
}
void* calloc(std::size_t n, std::size_t size) {
  hl_count::malloc_calls.fetch_add(1, std::memory_order_relaxed);
  return __libc_calloc(n, size);
}
void* realloc(void* p, std::size_t n) {
  hl_count::malloc_calls.fetch_add(1, std::memory_order_relaxed);
  return __libc_realloc(p, n);
}
void* memalign(std::size_t a, std::size_t n) {
  hl_count::malloc_calls.fetch_add(1, std::memory_order_relaxed);
  return __libc_memalign(a, n);
}
void* aligned_alloc(std::size_t a, std::size_t n) {
  hl_count::malloc_calls.fetch_add(1, std::memory_order_relaxed);
  return __libc_memalign(a, n);
}
int posix_memalign(void** out, std::size_t a, std::size_t n) {
  hl_count::malloc_calls.fetch_add(1, std::memory_order_relaxed);
  void* p = __libc_memalign(a, n);
  if (!p) return 12; /* ENOMEM */
  *out = p;
  return 0;
}
}
#endif

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
