// heaplint/detail/callable.hpp: what hl::inplace_function and hl::function_ref
// share, written for C++11 so that both work from there: INVOKE and
// is_invocable_r with std::invoke's rules (std::invoke is C++17), the traits
// of a call signature with its qualifiers (R(Args...) const, &, &&, and from
// C++17 noexcept), and how arguments travel through a type-erased call.
// Not a public header: its names may change.
#ifndef HEAPLINT_DETAIL_CALLABLE_HPP
#define HEAPLINT_DETAIL_CALLABLE_HPP

#include <cstddef>
#include <exception>
#include <functional>
#include <type_traits>
#include <utility>

// noexcept is part of a function type from C++17 only; below that
// R(Args...) noexcept cannot be named, so those signatures do not exist.
#if defined(__cpp_noexcept_function_type) && __cpp_noexcept_function_type >= 201510L
#define HEAPLINT_NOEXCEPT_SIGNATURES 1
#else
#define HEAPLINT_NOEXCEPT_SIGNATURES 0
#endif

namespace hl {
namespace detail {

template <class T>
using decay_t = typename std::decay<T>::type;
template <class T>
using remove_cvref_t = typename std::remove_cv<typename std::remove_reference<T>::type>::type;
template <bool B, class T = void>
using enable_if_t = typename std::enable_if<B, T>::type;

template <class T>
struct is_reference_wrapper : std::false_type {};
template <class T>
struct is_reference_wrapper<std::reference_wrapper<T>> : std::true_type {};

// INVOKE(f, t, args...) as [func.require] defines it: member function and
// data pointers on an object, a reference_wrapper or a pointer, or a call.
// Named invoke_fn, not invoke: hl::inplace_function has a base class in
// this namespace, so an unqualified invoke(f, ...) in user code would find
// it by argument-dependent lookup next to std::invoke.
// g++ 12 at -O2, once it sees through the type-erased call, reports the
// member function call's check for a virtual target as reading past a small
// class (-Warray-bounds); that read never happens for a non-virtual one.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Warray-bounds"
#endif
template <class M, class C, class T, class... A,
          enable_if_t<std::is_function<M>::value && std::is_base_of<C, remove_cvref_t<T>>::value, int> = 0>
auto invoke_fn(M C::*f, T &&t, A &&...a) noexcept(noexcept((std::forward<T>(t).*f)(std::forward<A>(a)...)))
    -> decltype((std::forward<T>(t).*f)(std::forward<A>(a)...)) {
  return (std::forward<T>(t).*f)(std::forward<A>(a)...);
}

template <class M, class C, class T, class... A,
          enable_if_t<std::is_function<M>::value && is_reference_wrapper<remove_cvref_t<T>>::value, int> = 0>
auto invoke_fn(M C::*f, T &&t, A &&...a) noexcept(noexcept((t.get().*f)(std::forward<A>(a)...)))
    -> decltype((t.get().*f)(std::forward<A>(a)...)) {
  return (t.get().*f)(std::forward<A>(a)...);
}

template <class M, class C, class T, class... A,
          enable_if_t<std::is_function<M>::value && !std::is_base_of<C, remove_cvref_t<T>>::value &&
                          !is_reference_wrapper<remove_cvref_t<T>>::value,
                      int> = 0>
auto invoke_fn(M C::*f, T &&t, A &&...a) noexcept(noexcept(((*std::forward<T>(t)).*f)(std::forward<A>(a)...)))
    -> decltype(((*std::forward<T>(t)).*f)(std::forward<A>(a)...)) {
  return ((*std::forward<T>(t)).*f)(std::forward<A>(a)...);
}
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif

template <class M, class C, class T,
          enable_if_t<!std::is_function<M>::value && std::is_base_of<C, remove_cvref_t<T>>::value, int> = 0>
auto invoke_fn(M C::*f, T &&t) noexcept -> decltype(std::forward<T>(t).*f) {
  return std::forward<T>(t).*f;
}

template <class M, class C, class T,
          enable_if_t<!std::is_function<M>::value && is_reference_wrapper<remove_cvref_t<T>>::value, int> = 0>
auto invoke_fn(M C::*f, T &&t) noexcept -> decltype(t.get().*f) {
  return t.get().*f;
}

template <class M, class C, class T,
          enable_if_t<!std::is_function<M>::value && !std::is_base_of<C, remove_cvref_t<T>>::value &&
                          !is_reference_wrapper<remove_cvref_t<T>>::value,
                      int> = 0>
auto invoke_fn(M C::*f, T &&t) noexcept(noexcept(*std::forward<T>(t))) -> decltype((*std::forward<T>(t)).*f) {
  return (*std::forward<T>(t)).*f;
}

template <class F, class... A, enable_if_t<!std::is_member_pointer<decay_t<F>>::value, int> = 0>
auto invoke_fn(F &&f, A &&...a) noexcept(noexcept(std::forward<F>(f)(std::forward<A>(a)...)))
    -> decltype(std::forward<F>(f)(std::forward<A>(a)...)) {
  return std::forward<F>(f)(std::forward<A>(a)...);
}

template <class Void, class F, class... A>
struct invoke_result_impl {};
template <class F, class... A>
struct invoke_result_impl<decltype(void(detail::invoke_fn(std::declval<F>(), std::declval<A>()...))), F, A...> {
  using type = decltype(detail::invoke_fn(std::declval<F>(), std::declval<A>()...));
};
template <class F, class... A>
struct invoke_result : invoke_result_impl<void, F, A...> {};

template <class T>
void convert_to(T) noexcept;

// From converts to To without throwing; anything "converts" to void.
template <class From, class To, bool = std::is_void<To>::value>
struct nothrow_converts {
  static constexpr bool value = noexcept(detail::convert_to<To>(std::declval<From>()));
};
template <class From, class To>
struct nothrow_converts<From, To, true> : std::true_type {};

// is_invocable_r and is_nothrow_invocable_r (C++17), for C++11: no result
// (not callable) is false; a void result only converts to void.
template <class Void, class R, class F, class... A>
struct invocable_r {
  static constexpr bool value = false;
  static constexpr bool nothrow = false;
};
template <class R, class F, class... A>
struct invocable_r<enable_if_t<!std::is_void<typename invoke_result<F, A...>::type>::value>, R, F, A...> {
  using result = typename invoke_result<F, A...>::type;
  static constexpr bool value = std::is_void<R>::value || std::is_convertible<result, R>::value;
  static constexpr bool nothrow = value && noexcept(detail::invoke_fn(std::declval<F>(), std::declval<A>()...)) &&
                                  nothrow_converts<result, R>::value;
};
template <class R, class F, class... A>
struct invocable_r<enable_if_t<std::is_void<typename invoke_result<F, A...>::type>::value>, R, F, A...> {
  static constexpr bool value = std::is_void<R>::value;
  static constexpr bool nothrow = value && noexcept(detail::invoke_fn(std::declval<F>(), std::declval<A>()...));
};

template <class R, class F, class... A>
struct is_invocable_r : std::integral_constant<bool, invocable_r<void, R, F, A...>::value> {};
template <class R, class F, class... A>
struct is_nothrow_invocable_r : std::integral_constant<bool, invocable_r<void, R, F, A...>::nothrow> {};

// INVOKE<R>: the result converted to R, or discarded when R is void.
template <class R, bool = std::is_void<R>::value>
struct invoke_r {
  template <class F, class... A>
  static R call(F &&f, A &&...a) {
    return detail::invoke_fn(std::forward<F>(f), std::forward<A>(a)...);
  }
};
template <class R>
struct invoke_r<R, true> {
  template <class F, class... A>
  static R call(F &&f, A &&...a) {
    detail::invoke_fn(std::forward<F>(f), std::forward<A>(a)...);
  }
};

// How an argument travels through the type-erased call: scalars by value
// (no round trip through memory), everything else by reference.
template <class T>
using param_t = typename std::conditional<std::is_scalar<T>::value, T, T &&>::type;

[[noreturn]] inline void throw_bad_function_call() {
#if defined(__cpp_exceptions) || defined(__EXCEPTIONS)
  throw std::bad_function_call();
#else
  std::terminate();
#endif
}

// The traits of a call signature Sig = R(Args...) cv ref noexcept:
//   result, is_noexcept, has_ref
//   invoker<Obj>           R (*)(Obj, param_t<Args>...): the type-erased call
//   target<F>              F with the qualifiers the target is called with
//   callable<F>            F can be called as the signature promises
//                          (std::move_only_function's is-callable-from)
//   callable_ref<F>        the same for a referenced F (std::function_ref's
//                          is-invocable-using)
//   invoke_as<Getter, F>   the invoker for a target F that Getter::get<F>
//                          finds in the Obj
//   forward_to<Call, Obj>  an invoker that passes the Obj and the arguments
//                          to Call::call<R, Args...>
//   empty_call<Obj>        the invoker of an empty wrapper: throws
//                          std::bad_function_call
//   call_base<D>           the base class that gives D operator() with the
//                          signature's qualifiers; D provides erased_invoker()
//                          and erased_object()
// Unqualified signatures call the target as an lvalue from a const
// operator(), as std::function does (a mutable lambda works); the qualified
// ones follow std::move_only_function: const calls the target as const,
// & as an lvalue, && as an rvalue, and operator() carries the same qualifiers.
template <class Sig>
struct sig;

#define HEAPLINT_DETAIL_SIG(SIGQ, NOEX, NOEXB, OPCV, OPREF, FQ, TQ, HASREF)                                          \
  template <class R, class... Args>                                                                                  \
  struct sig<R(Args...) SIGQ NOEX> {                                                                                 \
    using result = R;                                                                                                \
    static constexpr bool is_noexcept = NOEXB;                                                                       \
    static constexpr bool has_ref = HASREF;                                                                          \
    template <class Obj>                                                                                             \
    using invoker = R (*)(Obj, param_t<Args>...);                                                                    \
    template <class F>                                                                                               \
    using target = F FQ;                                                                                             \
    template <class F, class... Pre>                                                                                 \
    using invocable_with = std::integral_constant<bool, NOEXB ? is_nothrow_invocable_r<R, F, Pre..., Args...>::value \
                                                              : is_invocable_r<R, F, Pre..., Args...>::value>;       \
    template <class T>                                                                                               \
    using invocable = std::integral_constant<bool, NOEXB ? is_nothrow_invocable_r<R, T, Args...>::value              \
                                                         : is_invocable_r<R, T, Args...>::value>;                    \
    template <class F>                                                                                               \
    using callable = std::integral_constant<bool, invocable<F FQ>::value && invocable<F TQ>::value>;                 \
    template <class F>                                                                                               \
    using callable_ref = invocable<F FQ>;                                                                            \
    template <class Getter, class F>                                                                                 \
    static R invoke_as(typename Getter::object o, param_t<Args>... args) {                                           \
      return invoke_r<R>::call(static_cast<F FQ>(Getter::template get<F>(o)), std::forward<Args>(args)...);          \
    }                                                                                                                \
    template <class Call, class Obj>                                                                                 \
    static R forward_to(Obj o, param_t<Args>... args) {                                                              \
      return Call::template call<R, Args...>(o, std::forward<Args>(args)...);                                        \
    }                                                                                                                \
    template <class Obj>                                                                                             \
    [[noreturn]] static R empty_call(Obj, param_t<Args>...) {                                                        \
      throw_bad_function_call();                                                                                     \
    }                                                                                                                \
    template <class D>                                                                                               \
    class call_base {                                                                                                \
     public:                                                                                                         \
      R operator()(Args... args) OPCV OPREF NOEX {                                                                   \
        const D &self = static_cast<const D &>(*this);                                                               \
        return self.erased_invoker()(self.erased_object(), std::forward<Args>(args)...);                             \
      }                                                                                                              \
    };                                                                                                               \
  };

#define HEAPLINT_DETAIL_SIGS(NOEX, NOEXB)                                     \
  HEAPLINT_DETAIL_SIG(, NOEX, NOEXB, const, , &, &, false)                    \
  HEAPLINT_DETAIL_SIG(const, NOEX, NOEXB, const, , const &, const, false)     \
  HEAPLINT_DETAIL_SIG(&, NOEX, NOEXB, , &, &, &, true)                        \
  HEAPLINT_DETAIL_SIG(const &, NOEX, NOEXB, const, &, const &, const &, true) \
  HEAPLINT_DETAIL_SIG(&&, NOEX, NOEXB, , &&, &&, &&, true)                    \
  HEAPLINT_DETAIL_SIG(const &&, NOEX, NOEXB, const, &&, const &&, const &&, true)

HEAPLINT_DETAIL_SIGS(, false)
#if HEAPLINT_NOEXCEPT_SIGNATURES
HEAPLINT_DETAIL_SIGS(noexcept, true)
#endif
#undef HEAPLINT_DETAIL_SIGS
#undef HEAPLINT_DETAIL_SIG

}  // namespace detail
}  // namespace hl

#endif
