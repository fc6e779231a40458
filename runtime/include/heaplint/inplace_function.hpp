// heaplint/inplace_function.hpp: hl::inplace_function<R(Args...), Capacity,
// Alignment>, a std::function that keeps its target inside itself and never
// allocates. A target larger than Capacity or more aligned than Alignment is
// a compile-time error whose diagnostic shows both numbers:
//
//   static assertion failed: hl::inplace_function: target too large ...
//   note: 'fits<target_size<96>, capacity<32>>::value' evaluates to false
//
// Interface of std::function (call, bool, swap, nullptr, target_type,
// target), plus: moves are noexcept (targets must be nothrow movable), copies
// copy the target in place (targets must be copyable, as for std::function),
// and an inplace_function converts from one of smaller capacity.
// hl::inplace_move_function is the move-only variant for move-only targets.
// hl::function_ref (heaplint/function_ref.hpp) is the non-owning form.
// Header-only, C++17.
#ifndef HEAPLINT_INPLACE_FUNCTION_HPP
#define HEAPLINT_INPLACE_FUNCTION_HPP

#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <new>
#include <type_traits>
#include <utility>
#if defined(__cpp_rtti) || defined(__GXX_RTTI)
#include <typeinfo>
#define HEAPLINT_RTTI 1
#else
#define HEAPLINT_RTTI 0
#endif

#include "function_ref.hpp"

namespace hl {

template <class Sig, std::size_t Capacity = 4 * sizeof(void*),
          std::size_t Alignment = alignof(std::max_align_t), bool Copyable = true>
class inplace_function;

template <class Sig, std::size_t Capacity = 4 * sizeof(void*),
          std::size_t Alignment = alignof(std::max_align_t)>
using inplace_move_function = inplace_function<Sig, Capacity, Alignment, false>;

namespace detail {

// Carriers of the numbers a failed static_assert shows.
template <std::size_t N> struct target_size {};
template <std::size_t N> struct capacity {};
template <std::size_t N> struct target_alignment {};
template <std::size_t N> struct alignment {};
template <std::size_t N> struct source_capacity {};
template <std::size_t N> struct source_alignment {};
// value is declared here, not inherited, so that compilers name fits<...>
// (and with it the numbers) when the assertion fails.
template <class Need, class Have> struct fits;
template <std::size_t N, std::size_t C> struct fits<target_size<N>, capacity<C>> {
  static constexpr bool value = N <= C;
};
template <std::size_t N, std::size_t C> struct fits<target_alignment<N>, alignment<C>> {
  static constexpr bool value = N <= C && C % N == 0;
};
template <std::size_t N, std::size_t C> struct fits<source_capacity<N>, capacity<C>> {
  static constexpr bool value = N <= C;
};
template <std::size_t N, std::size_t C> struct fits<source_alignment<N>, alignment<C>> {
  static constexpr bool value = N <= C && C % N == 0;
};

[[noreturn]] inline void throw_bad_function_call() {
#if defined(__cpp_exceptions) || defined(__EXCEPTIONS)
  throw std::bad_function_call();
#else
  std::abort();
#endif
}

// How to copy, move and destroy one target type; null entries mean "copy
// the bytes" (trivially copyable targets) or "nothing to do".
struct target_ops {
  void (*copy)(void* dst, const void* src);
  void (*relocate)(void* dst, void* src) noexcept; // move to dst, destroy src
  void (*destroy)(void* p) noexcept;
  std::size_t size;
#if HEAPLINT_RTTI
  const std::type_info* type;
#endif
};

template <class F> void copy_target(void* dst, const void* src) {
  ::new (dst) F(*std::launder(static_cast<const F*>(src)));
}

template <class F> void relocate_target(void* dst, void* src) noexcept {
  F* from = std::launder(static_cast<F*>(src));
  ::new (dst) F(std::move(*from));
  from->~F();
}

template <class F> void destroy_target(void* p) noexcept { std::launder(static_cast<F*>(p))->~F(); }

// Only a copyable inplace function names (and so instantiates) the copy.
template <class F, bool Copyable> constexpr auto copier() {
  using copy_fn = void (*)(void*, const void*);
  if constexpr (Copyable && !std::is_trivially_copyable_v<F>)
    return static_cast<copy_fn>(&copy_target<F>);
  else
    return static_cast<copy_fn>(nullptr);
}

template <class F, bool Copyable> struct ops_of {
  static constexpr bool trivial = std::is_trivially_copyable_v<F>;
  static constexpr target_ops value = {
      copier<F, Copyable>(),
      trivial ? nullptr : &relocate_target<F>,
      std::is_trivially_destructible_v<F> ? nullptr : &destroy_target<F>,
      sizeof(F),
#if HEAPLINT_RTTI
      &typeid(F),
#endif
  };
};

template <class R, class... Args> struct call {
  using invoker = R (*)(void*, param_t<Args>...);

  [[noreturn]] static R empty(void*, param_t<Args>...) { throw_bad_function_call(); }

  template <class F> static R target(void* p, param_t<Args>... args) {
    F& f = *std::launder(static_cast<F*>(p));
    if constexpr (std::is_void_v<R>)
      std::invoke(f, std::forward<Args>(args)...);
    else
      return std::invoke(f, std::forward<Args>(args)...);
  }
};

// The target's bytes, how to call it and how to copy/move/destroy it.
template <class Call, std::size_t Capacity, std::size_t Alignment> struct inplace_state {
  typename Call::invoker invoke = &Call::empty;
  const target_ops* ops = nullptr;
  alignas(Alignment) mutable unsigned char bytes[Capacity];

  inplace_state() noexcept = default;
  inplace_state(const inplace_state& o) { copy_from(o); }
  inplace_state(inplace_state&& o) noexcept { move_from(o); }
  ~inplace_state() { reset(); }

  inplace_state& operator=(const inplace_state& o) {
    if (this != &o) {
      inplace_state copy(o);
      *this = std::move(copy);
    }
    return *this;
  }

  inplace_state& operator=(inplace_state&& o) noexcept {
    if (this != &o) {
      reset();
      move_from(o);
    }
    return *this;
  }

  template <class Other> void copy_from(const Other& o) {
    if (!o.ops) return;
    if (o.ops->copy)
      o.ops->copy(bytes, o.bytes);
    else
      std::memcpy(bytes, o.bytes, o.ops->size);
    invoke = o.invoke;
    ops = o.ops;
  }

  template <class Other> void move_from(Other& o) noexcept {
    if (!o.ops) return;
    if (o.ops->relocate)
      o.ops->relocate(bytes, o.bytes);
    else
      std::memcpy(bytes, o.bytes, o.ops->size);
    invoke = o.invoke;
    ops = o.ops;
    o.invoke = &Call::empty;
    o.ops = nullptr;
  }

  void reset() noexcept {
    if (ops && ops->destroy) ops->destroy(bytes);
    invoke = &Call::empty;
    ops = nullptr;
  }
};

// Deletes the copy operations of the move-only variant, so that
// std::is_copy_constructible tells the truth.
template <bool Copyable> struct copy_guard {};
template <> struct copy_guard<false> {
  copy_guard() = default;
  copy_guard(const copy_guard&) = delete;
  copy_guard(copy_guard&&) = default;
  copy_guard& operator=(const copy_guard&) = delete;
  copy_guard& operator=(copy_guard&&) = default;
};

// Whether T is an inplace function of signature Sig (any capacity).
template <class T, class Sig> struct is_inplace_of : std::false_type {};
template <class Sig, std::size_t C, std::size_t A, bool K>
struct is_inplace_of<inplace_function<Sig, C, A, K>, Sig> : std::true_type {};

template <class F> bool is_null_target(const F& f) noexcept {
  if constexpr (std::is_pointer_v<F> || std::is_member_pointer_v<F>)
    return f == nullptr;
  else
    return false;
}

}  // namespace detail

template <class R, class... Args, std::size_t Capacity, std::size_t Alignment, bool Copyable>
class inplace_function<R(Args...), Capacity, Alignment, Copyable> : detail::copy_guard<Copyable> {
  static_assert(Capacity > 0, "hl::inplace_function: Capacity must be at least 1");
  static_assert(Alignment > 0 && (Alignment & (Alignment - 1)) == 0,
                "hl::inplace_function: Alignment must be a power of two");

  using call = detail::call<R, Args...>;
  template <class, std::size_t, std::size_t, bool> friend class inplace_function;

  // A target type D (decayed) this inplace_function can be built from; an
  // inplace function of the same signature is converted, not wrapped.
  template <class D>
  static constexpr bool accepts =
      !detail::is_inplace_of<D, R(Args...)>::value && std::is_invocable_r_v<R, D&, Args...>;

 public:
  using result_type = R;

  inplace_function() noexcept = default;
  inplace_function(std::nullptr_t) noexcept {}
  inplace_function(const inplace_function&) = default;
  inplace_function(inplace_function&&) noexcept = default;
  inplace_function& operator=(const inplace_function&) = default;
  inplace_function& operator=(inplace_function&&) noexcept = default;
  ~inplace_function() = default;

  template <class F, class D = std::decay_t<F>, class = std::enable_if_t<accepts<D>>>
  inplace_function(F&& f) {
    static_assert(detail::fits<detail::target_size<sizeof(D)>, detail::capacity<Capacity>>::value,
                  "hl::inplace_function: target too large: sizeof(target) exceeds Capacity "
                  "(the numbers are in fits<target_size<sizeof(target)>, capacity<Capacity>>); "
                  "raise Capacity or capture less");
    static_assert(
        detail::fits<detail::target_alignment<alignof(D)>, detail::alignment<Alignment>>::value,
        "hl::inplace_function: target over-aligned: alignof(target) exceeds Alignment (the "
        "numbers are in fits<target_alignment<alignof(target)>, alignment<Alignment>>); raise "
        "Alignment");
    static_assert(std::is_nothrow_move_constructible_v<D>,
                  "hl::inplace_function: the target's move constructor may throw; inplace "
                  "functions move without throwing");
    static_assert(!Copyable || std::is_copy_constructible_v<D>,
                  "hl::inplace_function: the target is not copyable; use "
                  "hl::inplace_move_function for move-only targets");
    if (detail::is_null_target(f)) return;
    ::new (static_cast<void*>(s_.bytes)) D(std::forward<F>(f));
    s_.invoke = &call::template target<D>;
    s_.ops = &detail::ops_of<D, Copyable>::value;
  }

  // From an inplace function of the same signature and no larger capacity
  // or alignment (a copyable one may become move-only, not the reverse).
  template <std::size_t C, std::size_t A, bool K,
            class = std::enable_if_t<(C != Capacity || A != Alignment) && (K || !Copyable)>>
  inplace_function(const inplace_function<R(Args...), C, A, K>& other) {
    check_source<C, A>();
    s_.copy_from(other.s_);
  }

  template <std::size_t C, std::size_t A, bool K,
            class = std::enable_if_t<(C != Capacity || A != Alignment || K != Copyable) &&
                                     (K || !Copyable)>>
  inplace_function(inplace_function<R(Args...), C, A, K>&& other) noexcept {
    check_source<C, A>();
    s_.move_from(other.s_);
  }

  template <class F, class D = std::decay_t<F>,
            class = std::enable_if_t<!std::is_same_v<D, inplace_function> &&
                                     (accepts<D> || detail::is_inplace_of<D, R(Args...)>::value)>>
  inplace_function& operator=(F&& f) {
    inplace_function tmp(std::forward<F>(f));
    s_ = std::move(tmp.s_);
    return *this;
  }

  inplace_function& operator=(std::nullptr_t) noexcept {
    s_.reset();
    return *this;
  }

  R operator()(Args... args) const { return s_.invoke(s_.bytes, std::forward<Args>(args)...); }

  explicit operator bool() const noexcept { return s_.ops != nullptr; }

  void swap(inplace_function& other) noexcept {
    inplace_function tmp(std::move(other));
    other = std::move(*this);
    *this = std::move(tmp);
  }

  friend void swap(inplace_function& a, inplace_function& b) noexcept { a.swap(b); }
  friend bool operator==(const inplace_function& f, std::nullptr_t) noexcept { return !f; }
  friend bool operator==(std::nullptr_t, const inplace_function& f) noexcept { return !f; }
  friend bool operator!=(const inplace_function& f, std::nullptr_t) noexcept { return !!f; }
  friend bool operator!=(std::nullptr_t, const inplace_function& f) noexcept { return !!f; }

#if HEAPLINT_RTTI
  const std::type_info& target_type() const noexcept {
    return s_.ops ? *s_.ops->type : typeid(void);
  }

  template <class T> T* target() noexcept {
    return s_.ops && *s_.ops->type == typeid(T) ? std::launder(reinterpret_cast<T*>(s_.bytes))
                                                : nullptr;
  }

  template <class T> const T* target() const noexcept {
    return s_.ops && *s_.ops->type == typeid(T)
               ? std::launder(reinterpret_cast<const T*>(s_.bytes))
               : nullptr;
  }
#endif

  static constexpr std::size_t capacity() noexcept { return Capacity; }
  static constexpr std::size_t alignment() noexcept { return Alignment; }

 private:
  template <std::size_t C, std::size_t A> static constexpr void check_source() {
    static_assert(detail::fits<detail::source_capacity<C>, detail::capacity<Capacity>>::value,
                  "hl::inplace_function: the source's Capacity is larger than this one's");
    static_assert(detail::fits<detail::source_alignment<A>, detail::alignment<Alignment>>::value,
                  "hl::inplace_function: the source's Alignment is larger than this one's");
  }

  detail::inplace_state<call, Capacity, Alignment> s_;
};

}  // namespace hl

#endif
