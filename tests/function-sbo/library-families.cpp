// heaplint answers the traits of a few standard class templates without
// asking the compiler (engine/typeinfo.c, library_family_traits), and the
// layout of std::function from any one of its specializations
// (same_size_templates): they do not depend on the arguments. Each library checks the claim here, at
// every standard heaplint's fixes target, so a library that changes one of
// them fails this test.
// RUN: for std in 11 14 17 20 23; do %gxx -std=c++$std -fsyntax-only %s || exit 1; done
// RUN: for std in 11 14 17 20 23; do %clangxx -std=c++$std -stdlib=libc++ -fsyntax-only %s || exit 1; done
// RUN: for std in 11 14 17 20 23; do %clangxx -std=c++$std -fsyntax-only %s || exit 1; done
//
// What users see: a std::ref of a lambda (a type that cannot be named
// outside its function, so the compiler could not be asked) is decided,
// and a std::string capture's reason says why.
// RUN: %heaplint -v %s -- %libstdcxx -DHL_SITES 2>&1 | %FileCheck %s --check-prefix=GNU --implicit-check-not="not decided"
// RUN: %heaplint -v %s -- %libcxx -DHL_SITES 2>&1 | %FileCheck %s --check-prefix=LLVM --implicit-check-not="not decided"
#include <chrono>
#include <functional>
#include <string>
#include <vector>

struct Throwing {
  Throwing(const Throwing &) noexcept(false);
  Throwing(Throwing &&) noexcept(false);
  ~Throwing() noexcept(false);
};
struct Big { char c[64]; };

// std::basic_string and std::vector with std::allocator, std::function:
// not trivially copyable, may throw when copied, not when moved or destroyed.
template <class T> struct owner {
  static_assert(!__is_trivially_copyable(T), "trivially copyable");
  static_assert(!__is_nothrow_constructible(T, const T &), "nothrow copy constructible");
  static_assert(__is_nothrow_constructible(T, T &&), "may throw when moved");
  static_assert(noexcept(static_cast<T *>(nullptr)->~T()), "may throw when destroyed");
  static const bool ok = true;
};
// std::reference_wrapper, std::chrono::duration of an arithmetic Rep:
// trivially copyable, nothing throws.
template <class T> struct plain {
  static_assert(__is_trivially_copyable(T), "not trivially copyable");
  static_assert(__is_nothrow_constructible(T, const T &), "may throw when copied");
  static_assert(__is_nothrow_constructible(T, T &&), "may throw when moved");
  static_assert(noexcept(static_cast<T *>(nullptr)->~T()), "may throw when destroyed");
  static const bool ok = true;
};

static_assert(owner<std::string>::ok && owner<std::wstring>::ok && owner<std::basic_string<char16_t>>::ok, "");
static_assert(owner<std::vector<int>>::ok && owner<std::vector<bool>>::ok && owner<std::vector<Throwing>>::ok &&
              owner<std::vector<std::string>>::ok && owner<std::vector<Big>>::ok, "");
static_assert(owner<std::function<void()>>::ok && owner<std::function<Throwing(Throwing)>>::ok, "");
// Every std::function has one layout whatever its signature
// (same_size_templates: a std::function<void(const T &)> captured inside a
// template is laid out as the unit's concrete ones).
template <class A, class B> struct same_layout {
  static_assert(sizeof(A) == sizeof(B) && alignof(A) == alignof(B), "std::function layouts differ");
  static const bool ok = true;
};
static_assert(same_layout<std::function<void()>, std::function<Throwing(Throwing, Big &, const Big &)>>::ok &&
                  same_layout<std::function<void()>, std::function<Big &(long double, char)>>::ok &&
                  same_layout<std::function<void()>, std::function<int Big::*(std::string)>>::ok,
              "");
#if defined(__cpp_lib_move_only_function)
static_assert(same_layout<std::move_only_function<void()>, std::move_only_function<Big &(Throwing, long double) const &&>>::ok,
              "");
#endif
static_assert(plain<std::reference_wrapper<int>>::ok && plain<std::reference_wrapper<Throwing>>::ok &&
              plain<std::reference_wrapper<const Big>>::ok && plain<std::reference_wrapper<void()>>::ok, "");
static_assert(plain<std::chrono::milliseconds>::ok && plain<std::chrono::duration<double>>::ok &&
              plain<std::chrono::duration<unsigned char, std::ratio<3, 7>>>::ok, "");

#ifdef HL_SITES
void sites(std::string s) {
  long a = 1, b = 2, c = 3;
  auto lam = [a, b, c] { (void)(a + b + c); };
  std::function<void()> r = std::ref(lam);
  // GNU: library-families.cpp:[[@LINE+3]]:29: warning: std::function<void ()> stores this lambda on the heap
  // GNU: note: not trivially copyable: capture 's' (std::string) is not trivially copyable (copying a std::string copies its characters)
  // LLVM: note: not nothrow copy constructible: capture 's' (std::string) may throw when copied (copying its characters may allocate)
  std::function<void()> f = [s] { (void)s; };
  r();
  f();
}
#endif
int main() {}
