// The harness of heaplint calibrate's probe programs.
//
// heaplint calibrate writes a C++ program made of count_new.hpp (the
// counting global operator new), this file, the headers of the wrappers it
// measures and calls of hl_probe::wrapper<W, Sig>(index), one per wrapper.
// Run, the program stores targets of every size the alignment allows, at
// every alignment from 1 to 64, and trait variants, into each wrapper, and
// prints what each store cost and where the target landed. For --report a
// second program calls hl_probe::timed<...> for a few chosen probes.
// analyzer/calibrate/programs.c writes both programs and reads their output: the two
// change together.
//
// Output lines (each flushed, so that a crash names its probe):
//   library <libstdc++|libc++|msvc|unknown> <version>
//   abi <namespace|no-namespace> <qualified namespace> <the ABI's name>
//     (only for an ABI variant: how a unit shows it uses it, and its name)
//   pointer <bits>
//   compiler <version string>
//   wrapper <index> <sizeof> <alignof>
//   try <index> <size> <align> <kind>
//   probe <index> <size> <align> <kind> <allocations> <offset, or -1>
//   string <chars> <allocations>
//   absent <index>
//   time <index>:<size>:<align>:<kind> <construct ns> <call ns, or -1>
//   time s:<chars> <construct ns> -1
#ifndef HEAPLINT_PROBES_PROBE_HPP
#define HEAPLINT_PROBES_PROBE_HPP

#if __cplusplus < 201703L
#error "heaplint calibrate's probes need C++17 or later: add -std=c++17 (or later) to the compiler flags"
#endif

#include <chrono>
#include <climits>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <type_traits>
#include <utility>

namespace hl_probe {

// The trait variants of a probe: trivially copyable, or with user-provided
// copy and move constructors each of which is noexcept or may throw.
enum kind : int { trivial, nothrow, copy_throws, move_throws, both_throw };

constexpr bool copy_nothrow(int k) { return k != copy_throws && k != both_throw; }
constexpr bool move_nothrow(int k) { return k != move_throws && k != both_throw; }

// The byte a probe holds at position i: a pattern that a scan of the
// wrapper's bytes finds where the library put the target.
inline unsigned char pattern(std::size_t i) { return static_cast<unsigned char>(i * 151u + 0xA7u); }

// A value of any type a signature may return or take, from static storage
// (so that references bind to something that outlives the call).
template <class T> T value() {
  if constexpr (std::is_void_v<T>) {
    return;
  } else {
    static std::remove_cv_t<std::remove_reference_t<T>> v{};
    if constexpr (std::is_lvalue_reference_v<T>) return v;
    else return static_cast<T>(std::move(v));
  }
}

// What the wrapper's signature returns, and how to call a wrapper of it.
// value wrappers (std::any) have no signature: no_call.
struct no_call {};
template <class Sig> struct sig;
template <> struct sig<no_call> {
  using result = void;
};
#define HL_PROBE_SIG(QUAL, NOEXCEPT, FWD)                                                                          \
  template <class R, class... A> struct sig<R(A...) QUAL NOEXCEPT> {                                               \
    using result = R;                                                                                              \
    template <class W> static R call(W &w) { return FWD(w)(value<A>()...); }                                       \
  };
#define HL_PROBE_SIG_QUAL(QUAL, FWD)                                                                               \
  HL_PROBE_SIG(QUAL, , FWD)                                                                                        \
  HL_PROBE_SIG(QUAL, noexcept, FWD)
HL_PROBE_SIG_QUAL(, )
HL_PROBE_SIG_QUAL(const, )
HL_PROBE_SIG_QUAL(&, )
HL_PROBE_SIG_QUAL(const &, )
HL_PROBE_SIG_QUAL(&&, std::move)
HL_PROBE_SIG_QUAL(const &&, std::move)
#undef HL_PROBE_SIG_QUAL
#undef HL_PROBE_SIG

template <class R> struct invocable {
  template <class... X> R operator()(X &&...) const noexcept { return value<R>(); }
};

// A target of exactly S bytes at alignment A with the traits of kind K.
template <std::size_t S, std::size_t A, int K, class R> struct alignas(A) target : invocable<R> {
  unsigned char b[S];
  target() noexcept {
    for (std::size_t i = 0; i < S; i++) b[i] = pattern(i);
  }
  target(const target &o) noexcept(copy_nothrow(K)) : invocable<R>() { std::memcpy(b, o.b, S); }
  target(target &&o) noexcept(move_nothrow(K)) : invocable<R>() { std::memcpy(b, o.b, S); }
};
template <std::size_t S, std::size_t A, class R> struct alignas(A) target<S, A, trivial, R> : invocable<R> {
  unsigned char b[S];
  target() noexcept {
    for (std::size_t i = 0; i < S; i++) b[i] = pattern(i);
  }
};

// The probes must be what they claim: the fit reads the traits from kind.
template <class T, int K> constexpr bool has_traits() {
  return std::is_trivially_copyable_v<T> == (K == trivial) &&
         std::is_nothrow_copy_constructible_v<T> == copy_nothrow(K) &&
         std::is_nothrow_move_constructible_v<T> == move_nothrow(K);
}

// Keeps the optimizer from dropping v or what was written to it.
template <class T> inline void escape(T &v) {
#if defined(__GNUC__) || defined(__clang__)
  asm volatile("" : : "g"(&v) : "memory");
#else
  static void *volatile sink;
  sink = &v;
#endif
}

// Allocations so far: hl_count::allocations(), defined in the one
// translation unit that includes count_new.hpp.
unsigned long allocations();

// Where the n bytes of pat are in the n_obj bytes at obj, when they are
// there exactly once; else -1.
inline long find(const void *obj, std::size_t n_obj, const unsigned char *pat, std::size_t n) {
  unsigned char bytes[4096];
  if (n_obj > sizeof bytes) n_obj = sizeof bytes;
  std::memcpy(bytes, obj, n_obj);
  long at = -1;
  for (std::size_t i = 0; i + n <= n_obj; i++)
    if (!std::memcmp(bytes + i, pat, n)) {
      if (at >= 0) return -1;
      at = static_cast<long>(i);
    }
  return at;
}

template <std::size_t S, std::size_t A, int K, class Sig> using target_of = target<S, A, K, typename sig<Sig>::result>;

// Stores one target of kind K, S bytes at alignment A, into a W. The "try"
// line first: when the store crashes, it names the probe.
template <class W, class Sig, std::size_t S, std::size_t A, int K> void one(int w) {
  using T = target_of<S, A, K, Sig>;
  static_assert(sizeof(T) == S && alignof(T) == A && has_traits<T, K>(), "a probe is not what it claims");
  std::printf("try %d %zu %zu %d\n", w, S, A, K);
  std::fflush(stdout);
  T t;
  unsigned long before = allocations();
  W wrapper(std::move(t));
  unsigned long n = allocations() - before;
  long at = find(std::addressof(wrapper), sizeof(W), t.b, S);
  std::printf("probe %d %zu %zu %d %lu %ld\n", w, S, A, K, n, at);
  std::fflush(stdout);
}

// The program is compiled in HL_PROBE_PARTS translation units at once;
// the one numbered HL_PROBE_PART instantiates every HL_PROBE_PARTS-th size.
// What differs between the parts has internal linkage, or the linker would
// keep one part's and drop the others'.
#ifndef HL_PROBE_PART
#define HL_PROBE_PART 0
#define HL_PROBE_PARTS 1
#endif
namespace {
template <bool Mine, class W, class Sig, std::size_t S, std::size_t A, int K> void one_if(int w) {
  if constexpr (Mine) one<W, Sig, S, A, K>(w);
}

// Every size from A to the first multiple of A larger than the wrapper:
// what does not fit in the wrapper cannot be stored inside it.
template <class W, class Sig, std::size_t A, int K, std::size_t... I> void sizes(int w, std::index_sequence<I...>) {
  (one_if<(I + A) % HL_PROBE_PARTS == HL_PROBE_PART, W, Sig, (I + 1) * A, A, K>(w), ...);
}

// Every probe of wrapper W (signature Sig, or no_call) that this part has.
template <class W, class Sig> void wrapper(int w) {
  if (HL_PROBE_PART == 0) {
    std::printf("wrapper %d %zu %zu\n", w, sizeof(W), alignof(W));
    std::fflush(stdout);
  }
  sizes<W, Sig, 1, trivial>(w, std::make_index_sequence<sizeof(W) + 1>{});
  sizes<W, Sig, 2, trivial>(w, std::make_index_sequence<sizeof(W) / 2 + 1>{});
  sizes<W, Sig, 4, trivial>(w, std::make_index_sequence<sizeof(W) / 4 + 1>{});
  sizes<W, Sig, 8, trivial>(w, std::make_index_sequence<sizeof(W) / 8 + 1>{});
  sizes<W, Sig, 16, trivial>(w, std::make_index_sequence<sizeof(W) / 16 + 1>{});
  sizes<W, Sig, 32, trivial>(w, std::make_index_sequence<sizeof(W) / 32 + 1>{});
  sizes<W, Sig, 64, trivial>(w, std::make_index_sequence<sizeof(W) / 64 + 1>{});
  // The trait variants, at the smallest size and at a pointer's.
  constexpr std::size_t P = alignof(void *);
  sizes<W, Sig, 1, nothrow>(w, std::index_sequence<0>{});
  sizes<W, Sig, 1, copy_throws>(w, std::index_sequence<0>{});
  sizes<W, Sig, 1, move_throws>(w, std::index_sequence<0>{});
  sizes<W, Sig, 1, both_throw>(w, std::index_sequence<0>{});
  sizes<W, Sig, P, nothrow>(w, std::index_sequence<0>{});
  sizes<W, Sig, P, copy_throws>(w, std::index_sequence<0>{});
  sizes<W, Sig, P, move_throws>(w, std::index_sequence<0>{});
  sizes<W, Sig, P, both_throw>(w, std::index_sequence<0>{});
}
}  // namespace

inline void absent(int w) { std::printf("absent %d\n", w); }

// std::basic_string<C>'s small-string buffer: the longest string made
// without allocating, for each character type (char8_t where the standard
// has it).
template <class C> void string_of(const char *type) {
  for (std::size_t n = 0; n <= sizeof(std::basic_string<C>) / sizeof(C) + 1; n++) {
    unsigned long before = allocations();
    std::basic_string<C> s(n, C('x'));
    escape(s);
    std::printf("string %s %zu %lu\n", type, n, allocations() - before);
    std::fflush(stdout);
  }
}

inline void string_sso() {
  string_of<char>("char");
  string_of<wchar_t>("wchar_t");
#if defined(__cpp_char8_t)
  string_of<char8_t>("char8_t");
#endif
  string_of<char16_t>("char16_t");
  string_of<char32_t>("char32_t");
}

// Nanoseconds per call of f: the best of a few rounds.
template <class F> double ns_per(F &&f) {
  using clock = std::chrono::steady_clock;
  constexpr int iterations = 2000;
  double best = -1;
  for (int round = 0; round < 5; round++) {
    auto t0 = clock::now();
    for (int i = 0; i < iterations; i++) f();
    double ns = std::chrono::duration<double, std::nano>(clock::now() - t0).count() / iterations;
    if (best < 0 || ns < best) best = ns;
  }
  return best;
}

// The timing program (--report): what constructing (and destroying) a W
// from a probe costs, and what calling it costs.
template <class W, class Sig, std::size_t S, std::size_t A, int K> void timed(int w) {
  target_of<S, A, K, Sig> t;
  double construct = ns_per([&] {
    W wrapper(std::move(t));
    escape(wrapper);
  });
  double call = -1;
  if constexpr (!std::is_same_v<Sig, no_call>) {
    W wrapper(std::move(t));
    call = ns_per([&] {
      escape(wrapper);
      sig<Sig>::call(wrapper);
    });
  }
  std::printf("time %d:%zu:%zu:%d %.1f %.1f\n", w, S, A, K, construct, call);
  std::fflush(stdout);
}

inline void string_timed(std::size_t n) {
  double construct = ns_per([&] {
    std::string s(n, 'x');
    escape(s);
  });
  std::printf("time s:%zu %.1f -1\n", n, construct);
  std::fflush(stdout);
}

inline void identify() {
#if defined(_LIBCPP_VERSION)
  std::printf("library libc++ %ld\n", static_cast<long>(_LIBCPP_VERSION));
#elif defined(__GLIBCXX__) && defined(_GLIBCXX_RELEASE)
  std::printf("library libstdc++ %ld (release %d)\n", static_cast<long>(__GLIBCXX__), _GLIBCXX_RELEASE);
#elif defined(__GLIBCXX__)
  std::printf("library libstdc++ %ld\n", static_cast<long>(__GLIBCXX__));
#elif defined(_MSVC_STL_VERSION)
  std::printf("library msvc %ld\n", static_cast<long>(_MSVC_STL_VERSION));
#else
  std::printf("library unknown 0\n");
#endif
  // The library's headers declare these namespaces only under that ABI
  // (Debian's libc++ __config_site pins version 1: a -D there changes nothing).
#if defined(__GLIBCXX__) && !_GLIBCXX_USE_CXX11_ABI
  std::printf("abi no-namespace std::__cxx11 pre-C++11 string ABI (_GLIBCXX_USE_CXX11_ABI=0)\n");
#elif defined(_LIBCPP_VERSION) && _LIBCPP_ABI_VERSION != 1
#define HL_PROBE_STR2(x) #x
#define HL_PROBE_STR(x) HL_PROBE_STR2(x)
  std::printf("abi namespace std::%s ABI version %d (_LIBCPP_ABI_VERSION=%d)\n", HL_PROBE_STR(_LIBCPP_ABI_NAMESPACE),
              _LIBCPP_ABI_VERSION, _LIBCPP_ABI_VERSION);
#endif
  std::printf("pointer %zu\n", sizeof(void *) * CHAR_BIT);
#if defined(__clang__)
  std::printf("compiler clang %s\n", __clang_version__);
#elif defined(__GNUC__)
  std::printf("compiler GCC %s\n", __VERSION__);
#elif defined(_MSC_FULL_VER)
  std::printf("compiler MSVC %ld\n", static_cast<long>(_MSC_FULL_VER));
#else
  std::printf("compiler unknown\n");
#endif
  std::fflush(stdout);
}

}  // namespace hl_probe

#endif
