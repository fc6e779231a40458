// hl::inplace_function never allocates, for every target size up to its
// capacity and every signature form (counted by replacing every global
// operator new), and behaves like std::function (unqualified signatures) or
// std::move_only_function (qualified ones) where the interfaces meet. Also
// hl::function_ref, with C++26 std::function_ref's rules. Written in C++11:
// built at C++11 and C++17 (and with libc++); what needs C++17 (noexcept
// signatures) is tested where the standard has it.
#include <array>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <typeinfo>
#include <utility>

#include "check.hpp"
#include "count.hpp"
#include "heaplint/function_ref.hpp"
#include "heaplint/inplace_function.hpp"

// ---- zero allocations for every size and alignment that fits -------------

template <std::size_t N, std::size_t A> struct alignas(A) blob {
  unsigned char data[N];
  int operator()(int x) const { return x + data[0] + data[N - 1]; }
};

// A target with non-trivial copy, move and destructor, of about N bytes.
template <std::size_t N> struct heavy {
  static int alive;
  unsigned char data[N];
  heavy() : data() { alive++; }
  heavy(const heavy& o) { std::memcpy(data, o.data, N), alive++; }
  heavy(heavy&& o) noexcept { std::memcpy(data, o.data, N), alive++; }
  ~heavy() { alive--; }
  int operator()(int x) const { return x + data[N - 1]; }
};
template <std::size_t N> int heavy<N>::alive = 0;

template <class Target, std::size_t Capacity, std::size_t Alignment> static void no_allocation() {
  using F = hl::inplace_function<int(int), Capacity, Alignment>;
  using Bigger = hl::inplace_function<int(int), Capacity * 2, Alignment>;
  Target t{};
  int sum = 0;
  unsigned long n = hl_count::count([&] {
    F f(t);
    F g(f);
    F h(std::move(g));
    g = h;
    h = std::move(g);
    F e;
    e = t;
    f.swap(e);
    swap(f, h);
    Bigger wide(f);
    Bigger wider(std::move(e));
    sum = f(1) + h(1) + wide(1) + wider(1);
    CHECK(!e && f && h);
  });
  if (n != 0)
    std::fprintf(stderr, "sizeof %zu alignof %zu: %lu allocations\n", sizeof(Target),
                 alignof(Target), n);
  CHECK(n == 0);
  CHECK(sum == 4 + 4 * Target{}(0));
}

// Sizes 1..N, with trivially copyable and with non-trivial targets.
template <std::size_t N> struct every_size {
  static void run() {
    every_size<N - 1>::run();
    no_allocation<blob<N, 1>, 64, alignof(std::max_align_t)>();
    no_allocation<heavy<N>, 64, alignof(std::max_align_t)>();
  }
};
template <> struct every_size<0> {
  static void run() {}
};

static void zero_allocations() {
  every_size<64>::run();
  no_allocation<blob<8, 8>, 8, 8>();
  no_allocation<blob<16, 16>, 16, 16>();
  no_allocation<blob<64, 16>, 64, 16>();
  no_allocation<blob<64, 64>, 64, 64>();
  no_allocation<blob<32, 32>, 64, 64>();
  CHECK(heavy<1>::alive == 0 && heavy<64>::alive == 0);

  double a = 1, b = 2, c = 3;
  std::array<char, 40> big{};
  big[39] = 5;
  unsigned long n = hl_count::count([&] {
    hl::inplace_function<double(), 32> f = [a, b, c] { return a + b + c; };
    hl::inplace_function<int(), 48> g = [big] { return big[39]; };
    hl::inplace_function<int(), 48> h = g;
    CHECK(f() == 6 && g() == 5 && h() == 5);
  });
  CHECK(n == 0);
}

// ---- std::function's interface ---------------------------------------------

static int twice(int x) { return 2 * x; }

struct point {
  int x;
  point() : x(3) {}
  int scaled(int k) const { return x * k; }
};

// Counts its own constructions and destructions.
struct tracked {
  static int alive, copies, moves;
  int value;
  explicit tracked(int v) : value(v) { alive++; }
  tracked(const tracked& o) : value(o.value) { alive++, copies++; }
  tracked(tracked&& o) noexcept : value(o.value) { alive++, moves++; }
  ~tracked() { alive--; }
  int operator()(int x) const { return value + x; }
};
int tracked::alive = 0, tracked::copies = 0, tracked::moves = 0;

struct throws_on_copy {
  int value;
  throws_on_copy(int v) : value(v) {}
  throws_on_copy(const throws_on_copy& o) : value(o.value) {
    if (value < 0) throw std::runtime_error("copy");
  }
  throws_on_copy(throws_on_copy&&) noexcept = default;
  int operator()(int) const { return value; }
};

// A move-only target: owns an int.
struct owner_of {
  std::unique_ptr<int> p;
  explicit owner_of(int v) : p(new int(v)) {}
  int operator()() const { return *p; }
};

using fn = hl::inplace_function<int(int), 32>;

static void empty_states() {
  fn f;
  CHECK(!f && f == nullptr && nullptr == f && !(f != nullptr));
  bool threw = false;
  try {
    f(1);
  } catch (const std::bad_function_call&) {
    threw = true;
  }
  CHECK(threw);
  CHECK(f.target_type() == typeid(void));
  CHECK(f.target<void>() == nullptr);
  int (*null_fn)(int) = nullptr;
  fn g = null_fn;
  CHECK(!g);
  int (point::*null_member)(int) const = nullptr;
  hl::inplace_function<int(const point&, int)> h = null_member;
  CHECK(!h);
  fn k = twice;
  CHECK(k && k(4) == 8);
  k = nullptr;
  CHECK(!k);
}

static void targets_and_calls() {
  fn f = twice;
  CHECK(f(21) == 42);
  CHECK(f.target_type() == typeid(int (*)(int)));
  CHECK(f.target<int (*)(int)>() && *f.target<int (*)(int)>() == &twice);
  CHECK(f.target<tracked>() == nullptr);

  hl::inplace_function<int(const point&, int)> member = &point::scaled;
  CHECK(member(point(), 5) == 15);
  hl::inplace_function<int(const point*, int)> through_pointer = &point::scaled;
  point pt;
  CHECK(through_pointer(&pt, 2) == 6);
  hl::inplace_function<int(std::reference_wrapper<point>, int)> through_ref = &point::scaled;
  CHECK(through_ref(std::ref(pt), 3) == 9);
  hl::inplace_function<int(const point&)> field = &point::x;
  CHECK(field(point()) == 3);

  int calls = 0;
  fn counter = [calls](int) mutable { return ++calls; };
  counter(0);
  counter(0);
  fn copy = counter;
  CHECK(counter(0) == 3 && copy(0) == 3 && calls == 0);
  const fn constant = counter;
  CHECK(constant(0) == 4);

  hl::inplace_function<long(int)> widened = [](int x) { return x * 3; };
  CHECK(widened(5) == 15L);
  int seen = 0;
  hl::inplace_function<void(int)> discard = [&seen](int x) { return seen = x; };
  discard(7);
  CHECK(seen == 7);

  hl::inplace_function<void(int&, std::string, std::unique_ptr<int>&&)> args =
      [](int& out, std::string s, std::unique_ptr<int>&& p) { out = static_cast<int>(s.size()) + *p; };
  int out = 0;
  args(out, std::string(100, 's'), std::unique_ptr<int>(new int(5)));
  CHECK(out == 105);

  // A different signature wraps an inplace function as an ordinary target.
  hl::inplace_function<long(int), 64> wrapper = fn(twice);
  CHECK(wrapper(4) == 8L);
}

static void copies_moves_and_lifetimes() {
  {
    fn a = tracked(1);
    tracked::copies = tracked::moves = 0;
    fn b = a;
    CHECK(tracked::copies == 1 && a(1) == 2 && b(1) == 2);
    fn c = std::move(a);
    CHECK(tracked::moves == 1 && !a && c(1) == 2);
    a = c;
    b = std::move(c);
    CHECK(!c && a(0) == 1 && b(0) == 1);
    fn& self = a;  // self-assignment, without the compiler's warning
    a = self;
    a = std::move(self);
    CHECK(a && a(0) == 1);
    a.swap(a);
    fn d = [](int x) { return -x; };
    a.swap(d);
    CHECK(a(1) == -1 && d(1) == 2);
    CHECK(tracked::alive == 2);  // in b and d
    d = nullptr;
    CHECK(tracked::alive == 1);
    b = [](int x) { return x; };
    CHECK(tracked::alive == 0);
  }
  CHECK(tracked::alive == 0);

  // Strong guarantee: a failed copy leaves the destination as it was.
  fn bad = throws_on_copy(-1);
  fn keep = [](int) { return 9; };
  bool threw = false;
  try {
    keep = bad;
  } catch (const std::runtime_error&) {
    threw = true;
  }
  CHECK(threw && keep(0) == 9);
}

static void capacity_conversions() {
  hl::inplace_function<int(int), 16, 8> small = tracked(10);
  hl::inplace_function<int(int), 64> big = small;
  CHECK(big(1) == 11 && small(1) == 11);
  hl::inplace_function<int(int), 64> moved = std::move(small);
  CHECK(moved(1) == 11 && !small);
  big = hl::inplace_function<int(int), 16, 8>(twice);
  CHECK(big(3) == 6);
  CHECK(tracked::alive == 1);
  moved = nullptr;
  CHECK(tracked::alive == 0);

  hl::inplace_move_function<int(), 32> owner = owner_of(7);
  hl::inplace_move_function<int(), 64> bigger_owner = std::move(owner);
  CHECK(bigger_owner() == 7 && !owner);
  hl::inplace_move_function<int(int), 64> from_copyable = fn(twice);
  CHECK(from_copyable(2) == 4);
}

// ---- qualified signatures: std::move_only_function's rules -------------------

// Says which of its call operators was chosen.
struct which {
  int operator()() & { return 1; }
  int operator()() const& { return 2; }
  int operator()() && { return 3; }
  int operator()() const&& { return 4; }
};

// Callable only as a non-const lvalue, like a mutable lambda.
struct mutable_only {
  int n;
  int operator()() { return ++n; }
};

template <class Sig> static int call_lvalue() {
  hl::inplace_function<Sig, 8, 8> f = which();
  return f();
}

static void qualified_signatures() {
  unsigned long n = hl_count::count([] {
    // Unqualified: called as an lvalue from a const operator(), as std::function.
    const hl::inplace_function<int(), 8, 8> plain = which();
    CHECK(plain() == 1);
    const hl::inplace_function<int() const, 8, 8> c = which();
    CHECK(c() == 2);
    CHECK(call_lvalue<int()&>() == 1);
    const hl::inplace_function<int() const&, 8, 8> cl = which();
    CHECK(cl() == 2);
    hl::inplace_function<int() &&, 8, 8> r = which();
    CHECK(std::move(r)() == 3);
    const hl::inplace_function<int() const&&, 8, 8> cr = which();
    CHECK(std::move(cr)() == 4);

    // The qualified forms copy, move and convert like the unqualified one.
    hl::inplace_function<int() const, 8, 8> c2 = c;
    hl::inplace_function<int() const, 16, 8> wider = std::move(c2);
    hl::inplace_move_function<int() &&, 16, 8> owner = std::move(r);
    CHECK(wider() == 2 && !c2 && std::move(owner)() == 3 && !r);

    hl::inplace_function<int()&, 8, 8> counting = mutable_only{0};
    counting();
    CHECK(counting() == 2);
  });
  CHECK(n == 0);
}

// operator() carries the signature's qualifiers.
template <class F, class = void> struct callable_as_const_lvalue : std::false_type {};
template <class F>
struct callable_as_const_lvalue<F, decltype(void(std::declval<const F&>()()))> : std::true_type {};
template <class F, class = void> struct callable_as_lvalue : std::false_type {};
template <class F>
struct callable_as_lvalue<F, decltype(void(std::declval<F&>()()))> : std::true_type {};
template <class F, class = void> struct callable_as_rvalue : std::false_type {};
template <class F>
struct callable_as_rvalue<F, decltype(void(std::declval<F&&>()()))> : std::true_type {};

static_assert(callable_as_const_lvalue<hl::inplace_function<int()>>::value, "plain: const call");
static_assert(callable_as_const_lvalue<hl::inplace_function<int() const>>::value, "const");
static_assert(!callable_as_const_lvalue<hl::inplace_function<int()&>>::value, "&: not on const");
static_assert(callable_as_lvalue<hl::inplace_function<int()&>>::value, "&: lvalue");
static_assert(!callable_as_rvalue<hl::inplace_function<int()&>>::value, "&: not on rvalues");
static_assert(callable_as_rvalue<hl::inplace_function<int() const&>>::value, "const&: rvalues too");
static_assert(!callable_as_lvalue<hl::inplace_function<int() &&>>::value, "&&: not on lvalues");
static_assert(callable_as_rvalue<hl::inplace_function<int() &&>>::value, "&&: rvalue");
static_assert(!callable_as_lvalue<hl::inplace_function<int() const&&>>::value, "const&&: not on lvalues");

// A target must be callable the way the signature promises.
static_assert(std::is_constructible<hl::inplace_function<int()>, mutable_only>::value,
              "unqualified takes a mutable target, as std::function");
static_assert(!std::is_constructible<hl::inplace_function<int() const>, mutable_only>::value,
              "const needs a const-callable target");
static_assert(!std::is_constructible<hl::inplace_function<int() const&>, mutable_only>::value,
              "const& needs a const-callable target");
static_assert(std::is_constructible<hl::inplace_function<int()&>, mutable_only>::value, "& is fine");
static_assert(std::is_constructible<hl::inplace_function<int() &&>, mutable_only>::value, "&& too");

#if HEAPLINT_NOEXCEPT_SIGNATURES
static int never_throws(int x) noexcept { return x + 1; }

static void noexcept_signatures() {
  unsigned long n = hl_count::count([] {
    hl::inplace_function<int(int) noexcept, 16> f = [](int x) noexcept { return x * 2; };
    hl::inplace_function<int(int) const noexcept, 16> g = never_throws;
    hl::inplace_function<int(int) && noexcept, 16> h = [](int x) noexcept { return x; };
    hl::inplace_function<int(int) noexcept, 32> wider = std::move(f);
    CHECK(wider(2) == 4 && g(2) == 3 && std::move(h)(5) == 5 && !f);
  });
  CHECK(n == 0);
}

static_assert(noexcept(std::declval<hl::inplace_function<int(int) noexcept>&>()(1)), "noexcept call");
static_assert(!noexcept(std::declval<hl::inplace_function<int(int)>&>()(1)), "plain call may throw");
static_assert(!std::is_constructible<hl::inplace_function<int(int) noexcept>, int (*)(int)>::value,
              "noexcept needs a target that does not throw");
static_assert(std::is_constructible<hl::inplace_function<int(int) noexcept>, int (*)(int) noexcept>::value,
              "a noexcept function pointer");
#endif

// ---- layout, inplace_function_for and the heap-owning wrappers ----------------

struct alignas(64) wide_target {
  char data[64];
  std::uintptr_t operator()() const { return reinterpret_cast<std::uintptr_t>(this); }
};

static void layout() {
  hl::inplace_function<std::uintptr_t(), 64, 64> f = wide_target();
  CHECK(f() % 64 == 0);
}

// Capacity + one pointer (the ops table), rounded up to Alignment.
static_assert(sizeof(hl::inplace_function<void(), 24>) == 24 + sizeof(void*), "24 + pointer");
static_assert(sizeof(hl::inplace_function<void(), 8, 8>) == 8 + sizeof(void*), "8 + pointer");
static_assert(sizeof(hl::inplace_function<void(), 56>) == 56 + sizeof(void*), "56 + pointer");
static_assert(sizeof(hl::inplace_function<void() const&&, 24>) == 24 + sizeof(void*),
              "qualifiers cost nothing");
static_assert(sizeof(hl::inplace_move_function<void(), 24>) == 24 + sizeof(void*), "move-only too");

struct three_longs {
  long a, b, c;
  long operator()(int k) const { return a + b + c + k; }
};
struct alignas(32) aligned_target {
  char data[32];
  int operator()() const { return data[0]; }
};

using for_three = hl::inplace_function_for<three_longs>;
static_assert(std::is_same<for_three, hl::inplace_function<long(int), 24, alignof(long)>>::value,
              "signature, capacity and alignment from the type");
static_assert(sizeof(for_three) == 24 + sizeof(void*), "the smallest");
static_assert(std::is_same<hl::inplace_function_for<int (*)(int)>,
                           hl::inplace_function<int(int), sizeof(void*), alignof(int (*)(int))>>::value,
              "function pointers");
static_assert(std::is_same<hl::inplace_function_for<owner_of>,
                           hl::inplace_move_function<int(), sizeof(owner_of), alignof(owner_of)>>::value,
              "move-only for a move-only type");
static_assert(hl::inplace_function_for<aligned_target>::alignment() == 32, "over-aligned type");
static_assert(std::is_same<hl::inplace_function_for<three_longs, long(int) const>,
                           hl::inplace_function<long(int) const, 24, alignof(long)>>::value,
              "an explicit signature");

static void for_a_type() {
  long x = 1;
  auto lambda = [x](int k) { return x + k; };
  unsigned long n = hl_count::count([&] {
    hl::inplace_function_for<decltype(lambda)> f = lambda;
    for_three g = three_longs{1, 2, 3};
    hl::inplace_function_for<aligned_target> h = aligned_target();
    CHECK(f(1) == 2 && g(1) == 7 && h() == 0);
  });
  CHECK(n == 0);
}

// Rejected by a static_assert in the constructor (tests/runtime/compile_fail):
// they are let in by overload resolution only to be refused with the reason.
static_assert(hl::owns_heap_target<std::function<int(int)>>::value, "std::function");
static_assert(!hl::owns_heap_target<fn>::value, "not an inplace function");
static_assert(!hl::owns_heap_target<hl::function_ref<int(int)>>::value, "not a function_ref");

static_assert(std::is_nothrow_move_constructible<fn>::value, "noexcept move");
static_assert(std::is_nothrow_move_assignable<fn>::value, "noexcept move assignment");
static_assert(std::is_copy_constructible<fn>::value, "copyable");
static_assert(std::is_copy_assignable<fn>::value, "copy assignable");
static_assert(!std::is_copy_constructible<hl::inplace_move_function<void()>>::value, "move-only");
static_assert(!std::is_copy_assignable<hl::inplace_move_function<void()>>::value, "move-only");
static_assert(std::is_nothrow_move_constructible<hl::inplace_move_function<void()>>::value, "noexcept");
static_assert(!std::is_constructible<fn, std::string>::value, "not callable");
static_assert(!std::is_constructible<fn, int (*)(int, int)>::value, "wrong arity");
static_assert(std::is_constructible<hl::inplace_function<int(int), 64>, fn>::value, "wider");
static_assert(!std::is_constructible<fn, hl::inplace_move_function<int(int), 16>>::value, "not copyable");
static_assert(fn::capacity() == 32 && fn::alignment() == alignof(std::max_align_t), "defaults");

// ---- function_ref ------------------------------------------------------------

using ref = hl::function_ref<int(int)>;
static_assert(sizeof(ref) == 2 * sizeof(void*), "two pointers");
static_assert(std::is_trivially_copyable<ref>::value, "trivially copyable");
static_assert(!std::is_constructible<ref, std::string&>::value, "not callable");
static_assert(!std::is_default_constructible<ref>::value, "no empty state");
static_assert(!std::is_constructible<hl::function_ref<int(const point&)>, int point::*>::value,
              "no member pointers, as std::function_ref");
// Rebinding to a callable object would keep a reference to a temporary.
static_assert(std::is_assignable<ref&, int (*)(int)>::value, "a function pointer rebinds");
static_assert(std::is_assignable<ref&, const ref&>::value, "another function_ref rebinds");
static_assert(!std::is_assignable<ref&, tracked>::value, "an object does not");
static_assert(!std::is_assignable<ref&, fn&>::value, "not even an lvalue");
static_assert(std::is_constructible<hl::function_ref<int()>, mutable_only&>::value, "mutable object");
static_assert(!std::is_constructible<hl::function_ref<int()>, const mutable_only&>::value,
              "a const object is called as const");
static_assert(!std::is_constructible<hl::function_ref<int() const>, mutable_only&>::value,
              "const calls as const");
static_assert(std::is_constructible<hl::function_ref<int() const>, which&>::value, "const-callable");

static int apply(ref f, int x) { return f(x); }
static int apply_const(hl::function_ref<int() const> f) { return f(); }

static void function_refs() {
  int base = 10;
  auto add = [&base](int x) { return base + x; };
  int calls = 0;
  auto count = [calls](int) mutable { return ++calls; };
  const tracked constant(5);
  which w;
  unsigned long n = hl_count::count([&] {
    CHECK(apply(add, 1) == 11);
    base = 20;
    CHECK(apply(add, 1) == 21);
    ref r = count;
    r(0);
    CHECK(r(0) == 2);
    CHECK(apply(constant, 1) == 6);
    CHECK(apply(twice, 4) == 8);
    CHECK(apply(&twice, 5) == 10);
    CHECK(apply([](int x) { return x * x; }, 6) == 36);
    fn owned = twice;
    CHECK(apply(owned, 7) == 14);
    hl::function_ref<long(int)> widened = add;
    CHECK(widened(2) == 22L);
    hl::function_ref<void(int)> discard = add;
    discard(1);
    ref copy = r;
    CHECK(copy(0) == 3);
    copy = &twice;
    CHECK(copy(3) == 6);
    // The signature's cv decides how the object is called.
    hl::function_ref<int()> as_is = w;
    CHECK(as_is() == 1 && apply_const(w) == 2);
    const which cw{};
    hl::function_ref<int()> as_const = cw;
    CHECK(as_const() == 2);
  });
  CHECK(n == 0);
}

#if HEAPLINT_NOEXCEPT_SIGNATURES
static_assert(noexcept(std::declval<hl::function_ref<int(int) noexcept>&>()(1)), "noexcept call");
static_assert(!std::is_constructible<hl::function_ref<int(int) noexcept>, int (*)(int)>::value,
              "noexcept binds only non-throwing callables");
static_assert(std::is_same<decltype(hl::function_ref(&never_throws)), hl::function_ref<int(int) noexcept>>::value,
              "deduced from a function pointer");

static void noexcept_function_refs() {
  auto f = [](int x) noexcept { return x + 2; };
  hl::function_ref<int(int) noexcept> r = f;
  hl::function_ref<int(int) const noexcept> c = never_throws;
  CHECK(r(1) == 3 && c(1) == 2);
}
#endif

#if __cplusplus >= 201703L
// The runtime's helpers must not compete with std's through argument-
// dependent lookup: an unqualified invoke or launder on an inplace_function
// (whose base class lives in hl::detail) picks std's alone.
static void unqualified_std_calls() {
  fn f = twice;
  using std::invoke;
  using std::launder;
  fn* p = launder(&f);
  CHECK(invoke(*p, 2) == 4);
}
#endif

#if defined(__cpp_nontype_template_parameter_auto)
struct account {
  int balance;
  int deposit(int k) { return balance += k; }
  int peek(int k) const { return balance + k; }
};

static_assert(!std::is_constructible<hl::function_ref<int(int)>, hl::nontype_t<&account::deposit>, account>::value,
              "an rvalue object would dangle");
static_assert(!std::is_constructible<hl::function_ref<int(int) const>, hl::nontype_t<&account::deposit>,
                                     account&>::value,
              "const calls the object as const");
static_assert(std::is_assignable<ref&, hl::nontype_t<&twice>>::value, "rebinds to a constant");

static void nontype_function_refs() {
  account acc{10};
  const account frozen{5};
  unsigned long n = hl_count::count([&] {
    ref f = hl::nontype<&twice>;
    CHECK(f(4) == 8);
    ref dep{hl::nontype<&account::deposit>, acc};
    CHECK(dep(5) == 15 && acc.balance == 15);
    ref through{hl::nontype<&account::deposit>, &acc};
    CHECK(through(1) == 16);
    hl::function_ref<int(int) const> peek{hl::nontype<&account::peek>, frozen};
    CHECK(peek(1) == 6);
    f = hl::nontype<&twice>;
    CHECK(f(1) == 2);
  });
  CHECK(n == 0);
}
#endif

int main() {
  zero_allocations();
  empty_states();
  targets_and_calls();
  copies_moves_and_lifetimes();
  capacity_conversions();
  qualified_signatures();
  layout();
  for_a_type();
  function_refs();
#if HEAPLINT_NOEXCEPT_SIGNATURES
  noexcept_signatures();
  noexcept_function_refs();
#endif
#if defined(__cpp_nontype_template_parameter_auto)
  nontype_function_refs();
#endif
#if __cplusplus >= 201703L
  unqualified_std_calls();
#endif
  CHECK(tracked::alive == 0);
  return hl_test::failures();
}
