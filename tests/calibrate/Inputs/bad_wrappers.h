// Wrappers that calibration must refuse, for tests/calibrate/errors.test.
#ifndef BAD_WRAPPERS_H
#define BAD_WRAPPERS_H

#include <cstddef>
#include <cstdlib>
#include <new>
#include <utility>

namespace bad {

// Dies on one target: 24 bytes at alignment 8.
template <class Sig> class Crash {
  alignas(16) unsigned char buf_[32];

public:
  template <class F> Crash(F &&) {
    using T = std::decay_t<F>;
    if (sizeof(T) == 24 && alignof(T) == 8) std::abort();
  }
};

// Keeps targets of up to 16 bytes inline, except 8-byte ones: no buffer
// size, header and alignment limit describe that.
template <class Sig> class Erratic {
  alignas(16) unsigned char buf_[16];
  void *heap_ = nullptr;
  void (*destroy_)(void *) = nullptr;

public:
  template <class F> Erratic(F &&f) {
    using T = std::decay_t<F>;
    if (sizeof(T) <= 16 && sizeof(T) != 8) {
      ::new (static_cast<void *>(buf_)) T(std::forward<F>(f));
    } else {
      heap_ = new T(std::forward<F>(f));
      destroy_ = [](void *p) { delete static_cast<T *>(p); };
    }
  }
  Erratic(const Erratic &) = delete;
  ~Erratic() {
    if (destroy_) destroy_(heap_);
  }
};

}  // namespace bad

#endif
