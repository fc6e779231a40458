// heaplint/function_ref.hpp: hl::function_ref<R(Args...) cv noexcept>, a
// non-owning reference to a callable with C++26 std::function_ref's rules:
// two pointers, trivially copyable, never allocates, no empty state. The
// callable must outlive the function_ref (binding one to a temporary is fine
// for the duration of a call, as with std::string_view); assigning anything
// but another function_ref is deleted, so a reference cannot be rebound to a
// temporary that dies at the end of the statement.
//
//   R(Args...)           calls the referenced object as it is (const if it is)
//   R(Args...) const     calls it as const
//   ... noexcept         (C++17) only binds callables that do not throw;
//                        operator() is noexcept
//
// From C++17, hl::nontype<f> binds a function or member pointer known at
// compile time, alone or with an object or pointer to call it on.
//
// Header-only, C++11 and later.
#ifndef HEAPLINT_FUNCTION_REF_HPP
#define HEAPLINT_FUNCTION_REF_HPP

#include <memory>
#include <type_traits>
#include <utility>

#include "detail/callable.hpp"

namespace hl {

template <class Sig>
class function_ref;

namespace detail {

// What a function_ref refers to: an object, or a function (whose pointer
// may not round-trip through void*).
union bound_entity {
  const void *obj;
  void (*fn)();
};

struct bound_object {
  using object = bound_entity;
  template <class T>
  static T &get(bound_entity e) noexcept {
    return *static_cast<T *>(const_cast<void *>(e.obj));
  }
};

struct bound_function {
  using object = bound_entity;
  template <class Fn>
  static Fn &get(bound_entity e) noexcept {
    return *reinterpret_cast<Fn *>(e.fn);
  }
};

template <class T>
struct is_nontype : std::false_type {};

// Function pointers are taken by value (the F* constructor), never by
// reference to the pointer.
template <class T>
struct is_function_pointer
    : std::integral_constant<bool, std::is_pointer<T>::value &&
                                       std::is_function<typename std::remove_pointer<T>::type>::value> {};

}  // namespace detail

#if defined(__cpp_nontype_template_parameter_auto)
// A callable known at compile time (C++26's std::nontype): a function_ref
// built from one calls it directly, with no pointer to it stored.
template <auto F>
struct nontype_t {
  explicit nontype_t() = default;
};
template <auto F>
constexpr nontype_t<F> nontype{};

namespace detail {

template <auto F>
struct is_nontype<nontype_t<F>> : std::true_type {};

// The calls of a function_ref built from nontype<F>: F alone, F on a bound
// object (called with the signature's cv), F on a bound pointer.
template <auto F>
struct call_constant {
  template <class R, class... A, class... P>
  static R call(bound_entity, P &&...p) {
    return invoke_r<R>::call(F, std::forward<P>(p)...);
  }
};
template <auto F, class T>
struct call_constant_on {
  template <class R, class... A, class... P>
  static R call(bound_entity e, P &&...p) {
    return invoke_r<R>::call(F, *static_cast<T *>(const_cast<void *>(e.obj)), std::forward<P>(p)...);
  }
};
template <auto F, class T>
struct call_constant_through {
  template <class R, class... A, class... P>
  static R call(bound_entity e, P &&...p) {
    return invoke_r<R>::call(F, static_cast<T *>(const_cast<void *>(e.obj)), std::forward<P>(p)...);
  }
};

}  // namespace detail
#endif

template <class Sig>
class function_ref : public detail::sig<Sig>::template call_base<function_ref<Sig>> {
  using traits = detail::sig<Sig>;
  static_assert(!traits::has_ref, "hl::function_ref: the signature takes no ref-qualifier (as std::function_ref)");
  friend typename traits::template call_base<function_ref>;

  // cv T&, with cv the signature's: const for R(Args...) const.
  template <class T>
  using callable = typename traits::template callable_ref<T>;

 public:
  // A function, or a pointer to one (which must not be null).
  template <class Fn, detail::enable_if_t<std::is_function<Fn>::value && callable<Fn>::value, int> = 0>
  function_ref(Fn *f) noexcept : call_(&traits::template invoke_as<detail::bound_function, Fn>) {
    e_.fn = reinterpret_cast<void (*)()>(f);
  }

  // Any other callable object (lambda, functor, std::function, another
  // function_ref's signature); not a member pointer, as in C++26.
  template <
      class F, class T = typename std::remove_reference<F>::type,
      detail::enable_if_t<!std::is_same<detail::remove_cvref_t<F>, function_ref>::value &&
                              !std::is_member_pointer<T>::value && !std::is_function<T>::value &&
                              !detail::is_function_pointer<detail::remove_cvref_t<F>>::value && callable<T>::value,
                          int> = 0>
  function_ref(F &&f) noexcept : call_(&traits::template invoke_as<detail::bound_object, T>) {
    e_.obj = static_cast<const void *>(std::addressof(f));
  }

  // A function named directly (not through a pointer).
  template <class F, class T = typename std::remove_reference<F>::type,
            detail::enable_if_t<std::is_function<T>::value && callable<T>::value, int> = 0>
  function_ref(F &&f) noexcept : function_ref(&f) {}

#if defined(__cpp_nontype_template_parameter_auto)
  // nontype<f>: calls f (a function, member pointer or constant object).
  template <auto F, detail::enable_if_t<traits::template invocable_with<const decltype(F) &>::value, int> = 0>
  function_ref(nontype_t<F>) noexcept
      : call_(&traits::template forward_to<detail::call_constant<F>, detail::bound_entity>) {
    e_.obj = nullptr;
  }

  // nontype<f> and an lvalue obj: calls f(obj, args...), obj as the
  // signature's cv says (e.g. nontype<&Timer::fire> and a Timer).
  template <auto F, class U, class T = typename std::remove_reference<U>::type,
            detail::enable_if_t<
                !std::is_rvalue_reference<U &&>::value &&
                    traits::template invocable_with<const decltype(F) &, typename traits::template target<T>>::value,
                int> = 0>
  function_ref(nontype_t<F>, U &&obj) noexcept
      : call_(&traits::template forward_to<
              detail::call_constant_on<F, typename std::remove_reference<typename traits::template target<T>>::type>,
              detail::bound_entity>) {
    e_.obj = static_cast<const void *>(std::addressof(obj));
  }

  // nontype<f> and a pointer: calls f(ptr, args...).
  template <auto F, class T,
            detail::enable_if_t<traits::template invocable_with<const decltype(F) &, T *>::value, int> = 0>
  function_ref(nontype_t<F>, T *obj) noexcept
      : call_(&traits::template forward_to<detail::call_constant_through<F, T>, detail::bound_entity>) {
    e_.obj = static_cast<const void *>(obj);
  }
#endif

  function_ref(const function_ref &) noexcept = default;
  function_ref &operator=(const function_ref &) noexcept = default;

  // Rebinding to anything but another function_ref (or a function pointer)
  // would most often keep a reference to a temporary: deleted, as in C++26.
  template <class T, detail::enable_if_t<!std::is_same<T, function_ref>::value && !std::is_pointer<T>::value &&
                                             !detail::is_nontype<T>::value,
                                         int> = 0>
  function_ref &operator=(T) = delete;

 private:
  typename traits::template invoker<detail::bound_entity> erased_invoker() const noexcept { return call_; }
  detail::bound_entity erased_object() const noexcept { return e_; }

  detail::bound_entity e_;
  typename traits::template invoker<detail::bound_entity> call_;
};

#if defined(__cpp_deduction_guides)
template <class Fn, detail::enable_if_t<std::is_function<Fn>::value, int> = 0>
function_ref(Fn *) -> function_ref<Fn>;
#endif

}  // namespace hl

#endif
