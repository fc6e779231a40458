// The allocation counter of the runtime's C++ tests at every standard: from
// C++17, the probes' count_new.hpp (which also replaces the align_val_t
// overloads that only exist there); below, the same counter over the
// operator new/delete overloads C++11 and C++14 have. Include it in exactly
// one translation unit: it defines the global operators.
#ifndef HEAPLINT_TESTS_RUNTIME_COUNT_HPP
#define HEAPLINT_TESTS_RUNTIME_COUNT_HPP

#if __cplusplus >= 201703L
#include "count_new.hpp"
#else
#include <atomic>
#include <cstddef>
#include <cstdlib>
#include <new>

namespace hl_count {
std::atomic<unsigned long> news{0};

inline unsigned long allocations() { return news.load(std::memory_order_relaxed); }

template <class F> unsigned long count(F&& f) {
  unsigned long before = allocations();
  f();
  return allocations() - before;
}

inline void* plain(std::size_t n) {
  news.fetch_add(1, std::memory_order_relaxed);
  return std::malloc(n ? n : 1);
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
void operator delete(void* p) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete(void* p, const std::nothrow_t&) noexcept { std::free(p); }
void operator delete[](void* p, const std::nothrow_t&) noexcept { std::free(p); }
// The sized forms too, though C++11 code does not call them: a standard
// library built for a later standard (libc++.so) does, and would otherwise
// free through the default (or the sanitizer's) operator delete what this
// operator new took from malloc.
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t) noexcept { std::free(p); }
#endif

#endif
