// heaplint/inplace_function.hpp: hl::inplace_function<Sig, Capacity,
// Alignment>, a std::function that keeps its target inside itself and never
// allocates. A target larger than Capacity or more aligned than Alignment is
// a compile-time error whose diagnostic shows both numbers:
//
//   static assertion failed: hl::inplace_function: target too large ...
//   note: 'fits<target_size<96>, capacity<32>>::value' evaluates to false
//
// Interface of std::function (call, bool, swap, nullptr, target_type,
// target), plus: the signature may carry the qualifiers of
// std::move_only_function (R(Args...) const, &, &&, const &, const &&, and
// from C++17 noexcept); moves are noexcept (targets must be nothrow movable);
// copies copy the target in place (targets must be copyable, as for
// std::function); an inplace_function converts from one of smaller capacity.
// A std::function, std::any or std::move_only_function is rejected as a
// target: it would keep its own heap allocation alive inside.
// hl::inplace_move_function is the move-only variant for move-only targets;
// hl::inplace_function_for<F> is the smallest one that holds an F.
// sizeof == Capacity + one pointer, rounded up to Alignment.
// hl::function_ref (heaplint/function_ref.hpp) is the non-owning form.
// Header-only, C++11 and later.
#ifndef HEAPLINT_INPLACE_FUNCTION_HPP
#define HEAPLINT_INPLACE_FUNCTION_HPP

#include <cstddef>
#include <cstring>
#include <functional>
#include <new>
#include <type_traits>
#include <utility>
#if __cplusplus >= 201703L
#include <any>
#endif
#if defined(__cpp_rtti) || defined(__GXX_RTTI)
#include <typeinfo>
#define HEAPLINT_RTTI 1
#else
#define HEAPLINT_RTTI 0
#endif

#include "detail/callable.hpp"

namespace hl {

template <class Sig, std::size_t Capacity = 4 * sizeof(void *), std::size_t Alignment = alignof(std::max_align_t),
          bool Copyable = true>
class inplace_function;

template <class Sig, std::size_t Capacity = 4 * sizeof(void *), std::size_t Alignment = alignof(std::max_align_t)>
using inplace_move_function = inplace_function<Sig, Capacity, Alignment, false>;

// Wrappers that own a target on the heap. hl::inplace_function refuses
// them as targets: the wrapper would fit, and its heap block would live on
// inside. Specialize it (as std::true_type) for your own such wrappers.
template <class T>
struct owns_heap_target : std::false_type {};
template <class Sig>
struct owns_heap_target<std::function<Sig>> : std::true_type {};
#if defined(__cpp_lib_any)
template <>
struct owns_heap_target<std::any> : std::true_type {};
#endif
#if defined(__cpp_lib_move_only_function)
template <class Sig>
struct owns_heap_target<std::move_only_function<Sig>> : std::true_type {};
#endif
#if defined(__cpp_lib_copyable_function)
template <class Sig>
struct owns_heap_target<std::copyable_function<Sig>> : std::true_type {};
#endif

namespace detail {

// Carriers of the numbers a failed static_assert shows.
template <std::size_t N>
struct target_size {};
template <std::size_t N>
struct capacity {};
template <std::size_t N>
struct target_alignment {};
template <std::size_t N>
struct alignment {};
template <std::size_t N>
struct source_capacity {};
template <std::size_t N>
struct source_alignment {};
// value is declared here, not inherited, so that compilers name fits<...>
// (and with it the numbers) when the assertion fails.
template <class Need, class Have>
struct fits;
template <std::size_t N, std::size_t C>
struct fits<target_size<N>, capacity<C>> {
  static constexpr bool value = N <= C;
};
template <std::size_t N, std::size_t C>
struct fits<target_alignment<N>, alignment<C>> {
  static constexpr bool value = N <= C && C % N == 0;
};
template <std::size_t N, std::size_t C>
struct fits<source_capacity<N>, capacity<C>> {
  static constexpr bool value = N <= C;
};
template <std::size_t N, std::size_t C>
struct fits<source_alignment<N>, alignment<C>> {
  static constexpr bool value = N <= C && C % N == 0;
};

template <class T>
T *launder_ptr(T *p) noexcept {
#if defined(__cpp_lib_launder)
  return std::launder(p);
#else
  return p;
#endif
}
// target<void>() names these; there is nothing to launder.
inline void *launder_ptr(void *p) noexcept { return p; }
inline const void *launder_ptr(const void *p) noexcept { return p; }

// One table per target type and signature: how to call, copy, move and
// destroy it. Null copy/relocate mean "copy the bytes" (trivially copyable
// targets with data: an empty class has no initialized byte to copy, and
// g++ would warn about reading one), null destroy "nothing to do"; size 0
// marks the empty table.
template <class Invoker>
struct inplace_vtable {
  Invoker invoke;
  void (*copy)(void *dst, const void *src);
  void (*relocate)(void *dst, void *src);  // move to dst, destroy src
  void (*destroy)(void *p);
  std::size_t size;
#if HEAPLINT_RTTI
  const std::type_info *type;
#endif
};

// Finds the target in the buffer, for sig<...>::invoke_as.
struct in_buffer {
  using object = void *;
  template <class F>
  static F &get(void *p) noexcept {
    return *detail::launder_ptr(static_cast<F *>(p));
  }
};

template <class F>
void copy_target(void *dst, const void *src) {
  ::new (dst) F(*detail::launder_ptr(static_cast<const F *>(src)));
}

template <class F>
void relocate_target(void *dst, void *src) {
  F *from = detail::launder_ptr(static_cast<F *>(src));
  ::new (dst) F(std::move(*from));
  from->~F();
}

template <class F>
void destroy_target(void *p) {
  detail::launder_ptr(static_cast<F *>(p))->~F();
}

using copy_fn = void (*)(void *, const void *);
using relocate_fn = void (*)(void *, void *);
using destroy_fn = void (*)(void *);

// Only a copyable inplace function names (and so instantiates) the copy.
template <class F>
constexpr copy_fn copier(std::true_type) {
  return &copy_target<F>;
}
template <class F>
constexpr copy_fn copier(std::false_type) {
  return nullptr;
}
template <class F>
constexpr relocate_fn relocator(std::true_type) {
  return &relocate_target<F>;
}
template <class F>
constexpr relocate_fn relocator(std::false_type) {
  return nullptr;
}
template <class F>
constexpr destroy_fn destroyer(std::true_type) {
  return &destroy_target<F>;
}
template <class F>
constexpr destroy_fn destroyer(std::false_type) {
  return nullptr;
}

template <class Sig>
using vtable_for = inplace_vtable<typename sig<Sig>::template invoker<void *>>;

template <class Sig, class F, bool Copyable>
struct target_vtable {
  static const vtable_for<Sig> *get() noexcept {
    using trivial = std::integral_constant<bool, std::is_trivially_copyable<F>::value && !std::is_empty<F>::value>;
    static constexpr vtable_for<Sig> table = {
        &sig<Sig>::template invoke_as<in_buffer, F>,
        copier<F>(std::integral_constant<bool, Copyable && !trivial::value>()),
        relocator<F>(std::integral_constant<bool, !trivial::value>()),
        destroyer<F>(std::integral_constant<bool, !std::is_trivially_destructible<F>::value>()),
        sizeof(F),
#if HEAPLINT_RTTI
        &typeid(F),
#endif
    };
    return &table;
  }
};

template <class Sig>
struct empty_vtable {
  static const vtable_for<Sig> *get() noexcept {
    static constexpr vtable_for<Sig> table = {
        &sig<Sig>::template empty_call<void *>,
        nullptr,
        nullptr,
        nullptr,
        0,
#if HEAPLINT_RTTI
        &typeid(void),
#endif
    };
    return &table;
  }
};

// The target's bytes and its table: Capacity + one pointer. The copy and
// move logic lives here so that inplace_function can default its special
// members (and copy_guard can delete the copies of the move-only variant).
template <class Sig, std::size_t Capacity, std::size_t Alignment>
struct inplace_storage {
  alignas(Alignment) mutable unsigned char bytes[Capacity];
  const vtable_for<Sig> *ops;

  inplace_storage() noexcept : ops(empty_vtable<Sig>::get()) {}
  inplace_storage(const inplace_storage &o) : ops(empty_vtable<Sig>::get()) { copy_from(o); }
  inplace_storage(inplace_storage &&o) noexcept : ops(empty_vtable<Sig>::get()) { move_from(o); }
  ~inplace_storage() { reset(); }

  inplace_storage &operator=(const inplace_storage &o) {
    if (this != &o) {
      inplace_storage copy(o);
      *this = std::move(copy);
    }
    return *this;
  }

  inplace_storage &operator=(inplace_storage &&o) noexcept {
    if (this != &o) {
      reset();
      move_from(o);
    }
    return *this;
  }

  template <class Other>
  void copy_from(const Other &o) {
    if (o.ops->copy)
      o.ops->copy(bytes, o.bytes);
    else
      std::memcpy(bytes, o.bytes, o.ops->size);
    ops = o.ops;
  }

  template <class Other>
  void move_from(Other &o) noexcept {
    if (o.ops->relocate)
      o.ops->relocate(bytes, o.bytes);
    else
      std::memcpy(bytes, o.bytes, o.ops->size);
    ops = o.ops;
    o.ops = empty_vtable<Sig>::get();
  }

  void reset() noexcept {
    if (ops->destroy) ops->destroy(bytes);
    ops = empty_vtable<Sig>::get();
  }
};

// Deletes the copy operations of the move-only variant, so that
// std::is_copy_constructible tells the truth.
template <bool Copyable>
struct copy_guard {};
template <>
struct copy_guard<false> {
  copy_guard() = default;
  copy_guard(const copy_guard &) = delete;
  copy_guard(copy_guard &&) = default;
  copy_guard &operator=(const copy_guard &) = delete;
  copy_guard &operator=(copy_guard &&) = default;
};

// Whether T is an inplace function of signature Sig (any capacity).
template <class T, class Sig>
struct is_inplace_of : std::false_type {};
template <class Sig, std::size_t C, std::size_t A, bool K>
struct is_inplace_of<inplace_function<Sig, C, A, K>, Sig> : std::true_type {};

template <class F>
bool is_null_target(const F &, std::false_type) noexcept {
  return false;
}
template <class F>
bool is_null_target(const F &f, std::true_type) noexcept {
  return f == nullptr;
}

// The signature of F's call operator, for inplace_function_for: from a
// function pointer, or from the one non-template operator() of a class.
template <class M>
struct member_signature {};
#define HEAPLINT_DETAIL_MEMBER_SIG(QUALS)         \
  template <class R, class C, class... A>         \
  struct member_signature<R (C::*)(A...) QUALS> { \
    using type = R(A...);                         \
  };
#define HEAPLINT_DETAIL_MEMBER_SIGS(NOEX) \
  HEAPLINT_DETAIL_MEMBER_SIG(NOEX)        \
  HEAPLINT_DETAIL_MEMBER_SIG(const NOEX)  \
  HEAPLINT_DETAIL_MEMBER_SIG(&NOEX)       \
  HEAPLINT_DETAIL_MEMBER_SIG(const &NOEX) \
  HEAPLINT_DETAIL_MEMBER_SIG(&&NOEX)      \
  HEAPLINT_DETAIL_MEMBER_SIG(const &&NOEX)
HEAPLINT_DETAIL_MEMBER_SIGS()
#if HEAPLINT_NOEXCEPT_SIGNATURES
HEAPLINT_DETAIL_MEMBER_SIGS(noexcept)
#endif
#undef HEAPLINT_DETAIL_MEMBER_SIGS
#undef HEAPLINT_DETAIL_MEMBER_SIG

template <class F, class = void>
struct deduced_signature {};
template <class R, class... A>
struct deduced_signature<R (*)(A...), void> {
  using type = R(A...);
};
template <class F>
struct deduced_signature<F, decltype(void(&F::operator()))> : member_signature<decltype(&F::operator())> {};

}  // namespace detail

template <class Sig, std::size_t Capacity, std::size_t Alignment, bool Copyable>
class inplace_function
    : public detail::sig<Sig>::template call_base<inplace_function<Sig, Capacity, Alignment, Copyable>>,
      private detail::copy_guard<Copyable> {
  static_assert(Capacity > 0, "hl::inplace_function: Capacity must be at least 1");
  static_assert(Alignment > 0 && (Alignment & (Alignment - 1)) == 0,
                "hl::inplace_function: Alignment must be a power of two");

  using traits = detail::sig<Sig>;
  template <class, std::size_t, std::size_t, bool>
  friend class inplace_function;
  friend typename traits::template call_base<inplace_function>;

  // A target type D (decayed) this inplace_function can be built from: an
  // inplace function of the same signature is converted, not wrapped; a
  // heap-owning wrapper is let in only to be refused with a reason.
  template <class D>
  using accepts = std::integral_constant<bool, !detail::is_inplace_of<D, Sig>::value &&
                                                   (owns_heap_target<D>::value || traits::template callable<D>::value)>;

 public:
  using result_type = typename traits::result;

  inplace_function() noexcept = default;
  inplace_function(std::nullptr_t) noexcept {}
  inplace_function(const inplace_function &) = default;
  inplace_function(inplace_function &&) noexcept = default;
  inplace_function &operator=(const inplace_function &) = default;
  inplace_function &operator=(inplace_function &&) noexcept = default;
  ~inplace_function() = default;

  template <class F, class D = detail::decay_t<F>, detail::enable_if_t<accepts<D>::value, int> = 0>
  inplace_function(F &&f) {
    static_assert(!owns_heap_target<D>::value,
                  "hl::inplace_function: the target is a std::function, std::any, "
                  "std::move_only_function or another wrapper that keeps its own target on the "
                  "heap; storing it here would keep that heap allocation alive: store the "
                  "callable itself");
    static_assert(detail::fits<detail::target_size<sizeof(D)>, detail::capacity<Capacity>>::value,
                  "hl::inplace_function: target too large: sizeof(target) exceeds Capacity "
                  "(the numbers are in fits<target_size<sizeof(target)>, capacity<Capacity>>); "
                  "raise Capacity or capture less");
    static_assert(detail::fits<detail::target_alignment<alignof(D)>, detail::alignment<Alignment>>::value,
                  "hl::inplace_function: target over-aligned: alignof(target) exceeds Alignment (the "
                  "numbers are in fits<target_alignment<alignof(target)>, alignment<Alignment>>); raise "
                  "Alignment");
    static_assert(std::is_nothrow_move_constructible<D>::value,
                  "hl::inplace_function: the target's move constructor may throw (a class "
                  "without one is moved by its copy constructor); inplace functions move "
                  "without throwing: declare the target's move constructor noexcept");
    static_assert(!Copyable || std::is_copy_constructible<D>::value,
                  "hl::inplace_function: the target is not copyable; use "
                  "hl::inplace_move_function for move-only targets");
    construct<D>(
        std::forward<F>(f),
        std::integral_constant<bool, !owns_heap_target<D>::value && sizeof(D) <= Capacity &&
                                         Alignment % alignof(D) == 0 && std::is_nothrow_move_constructible<D>::value &&
                                         (!Copyable || std::is_copy_constructible<D>::value)>());
  }

  // From an inplace function of the same signature and no larger capacity
  // or alignment (a copyable one may become move-only, not the reverse).
  template <std::size_t C, std::size_t A, bool K,
            detail::enable_if_t<(C != Capacity || A != Alignment) && (K || !Copyable), int> = 0>
  inplace_function(const inplace_function<Sig, C, A, K> &other) {
    check_source<C, A>();
    s_.copy_from(other.s_);
  }

  template <std::size_t C, std::size_t A, bool K,
            detail::enable_if_t<(C != Capacity || A != Alignment || K != Copyable) && (K || !Copyable), int> = 0>
  inplace_function(inplace_function<Sig, C, A, K> &&other) noexcept {
    check_source<C, A>();
    s_.move_from(other.s_);
  }

  template <class F, class D = detail::decay_t<F>,
            detail::enable_if_t<!std::is_same<D, inplace_function>::value &&
                                    (accepts<D>::value || detail::is_inplace_of<D, Sig>::value),
                                int> = 0>
  inplace_function &operator=(F &&f) {
    inplace_function tmp(std::forward<F>(f));
    s_ = std::move(tmp.s_);
    return *this;
  }

  inplace_function &operator=(std::nullptr_t) noexcept {
    s_.reset();
    return *this;
  }

  explicit operator bool() const noexcept { return s_.ops->size != 0; }

  void swap(inplace_function &other) noexcept {
    inplace_function tmp(std::move(other));
    other = std::move(*this);
    *this = std::move(tmp);
  }

  friend void swap(inplace_function &a, inplace_function &b) noexcept { a.swap(b); }
  friend bool operator==(const inplace_function &f, std::nullptr_t) noexcept { return !f; }
  friend bool operator==(std::nullptr_t, const inplace_function &f) noexcept { return !f; }
  friend bool operator!=(const inplace_function &f, std::nullptr_t) noexcept { return !!f; }
  friend bool operator!=(std::nullptr_t, const inplace_function &f) noexcept { return !!f; }

#if HEAPLINT_RTTI
  const std::type_info &target_type() const noexcept { return *s_.ops->type; }

  template <class T>
  T *target() noexcept {
    return s_.ops->size != 0 && *s_.ops->type == typeid(T) ? detail::launder_ptr(reinterpret_cast<T *>(s_.bytes))
                                                           : nullptr;
  }

  template <class T>
  const T *target() const noexcept {
    return s_.ops->size != 0 && *s_.ops->type == typeid(T) ? detail::launder_ptr(reinterpret_cast<const T *>(s_.bytes))
                                                           : nullptr;
  }
#endif

  static constexpr std::size_t capacity() noexcept { return Capacity; }
  static constexpr std::size_t alignment() noexcept { return Alignment; }

 private:
  template <std::size_t C, std::size_t A>
  static void check_source() noexcept {
    static_assert(detail::fits<detail::source_capacity<C>, detail::capacity<Capacity>>::value,
                  "hl::inplace_function: the source's Capacity is larger than this one's");
    static_assert(detail::fits<detail::source_alignment<A>, detail::alignment<Alignment>>::value,
                  "hl::inplace_function: the source's Alignment is larger than this one's");
  }

  template <class D, class F>
  void construct(F &&f, std::true_type) {
    // A null function or member pointer leaves it empty; a function passed
    // by reference is never null (and g++ warns about testing it).
    using G = detail::remove_cvref_t<F>;
    if (detail::is_null_target(
            f, std::integral_constant<bool, std::is_pointer<G>::value || std::is_member_pointer<G>::value>()))
      return;
    ::new (static_cast<void *>(s_.bytes)) D(std::forward<F>(f));
    s_.ops = detail::target_vtable<Sig, D, Copyable>::get();
  }
  // A target refused by a static_assert above: nothing more to say about it.
  template <class D, class F>
  void construct(F &&, std::false_type) noexcept {}

  typename traits::template invoker<void *> erased_invoker() const noexcept { return s_.ops->invoke; }
  void *erased_object() const noexcept { return s_.bytes; }

  detail::inplace_storage<Sig, Capacity, Alignment> s_;
};

// The smallest inplace function that holds an F: Capacity sizeof(F),
// Alignment alignof(F), move-only when F is. The signature is that of F's
// call operator (or function pointer type), unqualified; give Sig for a
// generic lambda, an overloaded operator(), or qualifiers.
template <class F, class Sig = typename detail::deduced_signature<detail::decay_t<F>>::type>
using inplace_function_for = inplace_function<Sig, sizeof(detail::decay_t<F>), alignof(detail::decay_t<F>),
                                              std::is_copy_constructible<detail::decay_t<F>>::value>;

}  // namespace hl

#endif
