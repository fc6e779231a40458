// A project's own callback wrapper, written by hand for the calibrate tests:
// a move-only callable with an N-byte inline buffer. It keeps a target
// inline when the target fits N bytes, is aligned no more than
// std::max_align_t and moves without throwing; anything else goes to the
// heap. heaplint knows none of this until 'heaplint calibrate --wrapper'
// measures it.
#ifndef MY_CALLBACK_H
#define MY_CALLBACK_H

#include <cstddef>
#include <new>
#include <type_traits>
#include <utility>

namespace my {

template <class Sig, std::size_t N = 24> class Callback;

template <class R, class... A, std::size_t N> class Callback<R(A...), N> {
  template <class F>
  static constexpr bool local =
      sizeof(F) <= N && alignof(F) <= alignof(std::max_align_t) && std::is_nothrow_move_constructible<F>::value;

  struct ops {
    R (*call)(void *, A &&...);
    void (*move)(void *from, void *to) noexcept;
    void (*destroy)(void *) noexcept;
  };

  template <class F> static F *get(void *buf) {
    if constexpr (local<F>) return static_cast<F *>(buf);
    else return *static_cast<F **>(buf);
  }

  template <class F> static const ops *ops_for() {
    static const ops o = {
        [](void *buf, A &&...a) -> R { return (*get<F>(buf))(std::forward<A>(a)...); },
        [](void *from, void *to) noexcept {
          if constexpr (local<F>) {
            ::new (to) F(std::move(*get<F>(from)));
            get<F>(from)->~F();
          } else {
            *static_cast<F **>(to) = get<F>(from);
          }
        },
        [](void *buf) noexcept {
          if constexpr (local<F>) get<F>(buf)->~F();
          else delete get<F>(buf);
        },
    };
    return &o;
  }

  template <class G> void assign(G &&g) {
    using F = std::decay_t<G>;
    if constexpr (local<F>) ::new (static_cast<void *>(buf_)) F(std::forward<G>(g));
    else *reinterpret_cast<F **>(buf_) = new F(std::forward<G>(g));
    ops_ = ops_for<F>();
  }

  void reset() noexcept {
    if (ops_) ops_->destroy(buf_);
    ops_ = nullptr;
  }

  alignas(std::max_align_t) unsigned char buf_[N < sizeof(void *) ? sizeof(void *) : N];
  const ops *ops_ = nullptr;

public:
  Callback() = default;
  template <class G, class = std::enable_if_t<!std::is_same<std::decay_t<G>, Callback>::value>>
  Callback(G &&g) {
    assign(std::forward<G>(g));
  }
  Callback(Callback &&o) noexcept : ops_(o.ops_) {
    if (ops_) ops_->move(o.buf_, buf_);
    o.ops_ = nullptr;
  }
  template <class G, class = std::enable_if_t<!std::is_same<std::decay_t<G>, Callback>::value>>
  Callback &operator=(G &&g) {
    reset();
    assign(std::forward<G>(g));
    return *this;
  }
  Callback &operator=(Callback &&o) noexcept {
    if (this != &o) {
      reset();
      ops_ = o.ops_;
      if (ops_) ops_->move(o.buf_, buf_);
      o.ops_ = nullptr;
    }
    return *this;
  }
  Callback(const Callback &) = delete;
  Callback &operator=(const Callback &) = delete;
  ~Callback() { reset(); }

  explicit operator bool() const noexcept { return ops_ != nullptr; }
  R operator()(A... a) { return ops_->call(buf_, std::forward<A>(a)...); }
};

}  // namespace my

#endif
