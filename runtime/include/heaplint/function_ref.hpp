// heaplint/function_ref.hpp: hl::function_ref<R(Args...)>, a non-owning
// reference to a callable: two pointers, trivially copyable, never
// allocates. The callable must outlive the function_ref (binding one to a
// temporary is fine for the duration of a call, as with std::string_view).
// Header-only, C++17.
#ifndef HEAPLINT_FUNCTION_REF_HPP
#define HEAPLINT_FUNCTION_REF_HPP

#include <functional>
#include <memory>
#include <type_traits>
#include <utility>

namespace hl {
namespace detail {

// How an argument travels through the type-erased call: scalars by value
// (no round trip through memory), everything else by reference.
template <class T> using param_t = std::conditional_t<std::is_scalar_v<T>, T, T&&>;

}  // namespace detail

template <class Sig> class function_ref;

template <class R, class... Args> class function_ref<R(Args...)> {
  union object {
    const void* obj;
    void (*fn)();
  };
  using thunk = R (*)(object, detail::param_t<Args>...);

  template <class F>
  static constexpr bool callable_object =
      !std::is_same_v<std::remove_cv_t<std::remove_reference_t<F>>, function_ref> &&
      !std::is_function_v<std::remove_pointer_t<std::remove_reference_t<F>>> &&
      std::is_invocable_r_v<R, F&, Args...>;

  template <class F> static R call_object(object o, detail::param_t<Args>... args) {
    auto* f = static_cast<std::add_pointer_t<F>>(const_cast<void*>(o.obj));
    if constexpr (std::is_void_v<R>)
      std::invoke(*f, std::forward<Args>(args)...);
    else
      return std::invoke(*f, std::forward<Args>(args)...);
  }

  template <class Fn> static R call_function(object o, detail::param_t<Args>... args) {
    auto* f = reinterpret_cast<Fn*>(o.fn);
    if constexpr (std::is_void_v<R>)
      f(std::forward<Args>(args)...);
    else
      return f(std::forward<Args>(args)...);
  }

 public:
  // Any callable object (lambda, functor, std::function, member pointer).
  template <class F, class = std::enable_if_t<callable_object<F>>>
  function_ref(F&& f) noexcept : call_(&call_object<std::remove_reference_t<F>>) {
    o_.obj = static_cast<const void*>(std::addressof(f));
  }

  // A function, or a pointer to one (which must not be null).
  template <class Fn, class = std::enable_if_t<std::is_function_v<Fn> &&
                                               std::is_invocable_r_v<R, Fn&, Args...>>>
  function_ref(Fn* f) noexcept : call_(&call_function<Fn>) {
    o_.fn = reinterpret_cast<void (*)()>(f);
  }

  R operator()(Args... args) const { return call_(o_, std::forward<Args>(args)...); }

 private:
  object o_;
  thunk call_;
};

}  // namespace hl

#endif
