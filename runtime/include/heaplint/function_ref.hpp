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
// Header-only, C++11 and later.
#ifndef HEAPLINT_FUNCTION_REF_HPP
#define HEAPLINT_FUNCTION_REF_HPP

#include <memory>
#include <type_traits>
#include <utility>

#include "detail/callable.hpp"

namespace hl {

template <class Sig> class function_ref;

namespace detail {

// What a function_ref refers to: an object, or a function (whose pointer
// may not round-trip through void*).
union bound_entity {
  const void* obj;
  void (*fn)();
};

struct bound_object {
  using object = bound_entity;
  template <class T> static T& get(bound_entity e) noexcept {
    return *static_cast<T*>(const_cast<void*>(e.obj));
  }
};

struct bound_function {
  using object = bound_entity;
  template <class Fn> static Fn& get(bound_entity e) noexcept { return *reinterpret_cast<Fn*>(e.fn); }
};

// Function pointers are taken by value (the F* constructor), never by
// reference to the pointer.
template <class T>
struct is_function_pointer
    : std::integral_constant<bool, std::is_pointer<T>::value &&
                                       std::is_function<typename std::remove_pointer<T>::type>::value> {};

}  // namespace detail

template <class Sig>
class function_ref : public detail::sig<Sig>::template call_base<function_ref<Sig>> {
  using traits = detail::sig<Sig>;
  static_assert(!traits::has_ref,
                "hl::function_ref: the signature takes no ref-qualifier (as std::function_ref)");
  friend typename traits::template call_base<function_ref>;

  // cv T&, with cv the signature's: const for R(Args...) const.
  template <class T> using callable = typename traits::template callable_ref<T>;

 public:
  // A function, or a pointer to one (which must not be null).
  template <class Fn, detail::enable_if_t<std::is_function<Fn>::value && callable<Fn>::value, int> = 0>
  function_ref(Fn* f) noexcept : call_(&traits::template invoke_as<detail::bound_function, Fn>) {
    e_.fn = reinterpret_cast<void (*)()>(f);
  }

  // Any other callable object (lambda, functor, std::function, another
  // function_ref's signature); not a member pointer, as in C++26.
  template <class F, class T = typename std::remove_reference<F>::type,
            detail::enable_if_t<!std::is_same<detail::remove_cvref_t<F>, function_ref>::value &&
                                    !std::is_member_pointer<T>::value && !std::is_function<T>::value &&
                                    !detail::is_function_pointer<detail::remove_cvref_t<F>>::value &&
                                    callable<T>::value,
                                int> = 0>
  function_ref(F&& f) noexcept : call_(&traits::template invoke_as<detail::bound_object, T>) {
    e_.obj = static_cast<const void*>(std::addressof(f));
  }

  // A function named directly (not through a pointer).
  template <class F, class T = typename std::remove_reference<F>::type,
            detail::enable_if_t<std::is_function<T>::value && callable<T>::value, int> = 0>
  function_ref(F&& f) noexcept : function_ref(&f) {}

  function_ref(const function_ref&) noexcept = default;
  function_ref& operator=(const function_ref&) noexcept = default;

  // Rebinding to anything but another function_ref (or a function pointer)
  // would most often keep a reference to a temporary: deleted, as in C++26.
  template <class T, detail::enable_if_t<!std::is_same<T, function_ref>::value &&
                                             !std::is_pointer<T>::value,
                                         int> = 0>
  function_ref& operator=(T) = delete;

 private:
  typename traits::template invoker<detail::bound_entity> erased_invoker() const noexcept { return call_; }
  detail::bound_entity erased_object() const noexcept { return e_; }

  detail::bound_entity e_;
  typename traits::template invoker<detail::bound_entity> call_;
};

#if defined(__cpp_deduction_guides)
template <class Fn, detail::enable_if_t<std::is_function<Fn>::value, int> = 0>
function_ref(Fn*) -> function_ref<Fn>;
#endif

}  // namespace hl

#endif
