// hl::inplace_function never allocates, for every target size up to its
// capacity (counted by replacing every global operator new), and behaves
// like std::function where the interfaces meet. Also hl::function_ref.
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
#include "count_new.hpp"
#include "heaplint/function_ref.hpp"
#include "heaplint/inplace_function.hpp"

// ---- zero allocations for every size and alignment that fits -------------

template <std::size_t N, std::size_t A> struct alignas(A) blob {
  unsigned char data[N];
  int operator()(int x) const { return x + data[0] + data[N - 1]; }
};

// A target with non-trivial copy, move and destructor, of about N bytes.
template <std::size_t N> struct heavy {
  static inline int alive = 0;
  unsigned char data[N];
  heavy() : data{} { alive++; }
  heavy(const heavy& o) { std::memcpy(data, o.data, N), alive++; }
  heavy(heavy&& o) noexcept { std::memcpy(data, o.data, N), alive++; }
  ~heavy() { alive--; }
  int operator()(int x) const { return x + data[N - 1]; }
};

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

template <std::size_t... N> static void every_size(std::index_sequence<N...>) {
  (no_allocation<blob<N + 1, 1>, 64, alignof(std::max_align_t)>(), ...);
  (no_allocation<heavy<N + 1>, 64, alignof(std::max_align_t)>(), ...);
}

static void zero_allocations() {
  every_size(std::make_index_sequence<64>());
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
  int x = 3;
  int scaled(int k) const { return x * k; }
};

// Counts its own constructions and destructions.
struct tracked {
  static inline int alive = 0, copies = 0, moves = 0;
  int value;
  explicit tracked(int v) : value(v) { alive++; }
  tracked(const tracked& o) : value(o.value) { alive++, copies++; }
  tracked(tracked&& o) noexcept : value(o.value) { alive++, moves++; }
  ~tracked() { alive--; }
  int operator()(int x) const { return value + x; }
};

struct throws_on_copy {
  int value;
  throws_on_copy(int v) : value(v) {}
  throws_on_copy(const throws_on_copy& o) : value(o.value) {
    if (value < 0) throw std::runtime_error("copy");
  }
  throws_on_copy(throws_on_copy&&) noexcept = default;
  int operator()(int) const { return value; }
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
  CHECK(member(point{}, 5) == 15);
  hl::inplace_function<int(const point&)> field = &point::x;
  CHECK(field(point{}) == 3);

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
  args(out, std::string(100, 's'), std::make_unique<int>(5));
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

  hl::inplace_move_function<int(), 32> owner = [p = std::make_unique<int>(7)] { return *p; };
  hl::inplace_move_function<int(), 64> bigger_owner = std::move(owner);
  CHECK(bigger_owner() == 7 && !owner);
  hl::inplace_move_function<int(int), 64> from_copyable = fn(twice);
  CHECK(from_copyable(2) == 4);
}

struct alignas(64) wide_target {
  char data[64];
  std::uintptr_t operator()() const { return reinterpret_cast<std::uintptr_t>(this); }
};

static void layout() {
  hl::inplace_function<std::uintptr_t(), 64, 64> f = wide_target{};
  CHECK(f() % 64 == 0);
  CHECK(sizeof(hl::inplace_function<void(), 24>) == 24 + sizeof(void*));
}

static_assert(std::is_nothrow_move_constructible_v<fn>);
static_assert(std::is_nothrow_move_assignable_v<fn>);
static_assert(std::is_copy_constructible_v<fn>);
static_assert(std::is_copy_assignable_v<fn>);
static_assert(!std::is_copy_constructible_v<hl::inplace_move_function<void()>>);
static_assert(!std::is_copy_assignable_v<hl::inplace_move_function<void()>>);
static_assert(std::is_nothrow_move_constructible_v<hl::inplace_move_function<void()>>);
static_assert(!std::is_constructible_v<fn, std::string>);
static_assert(!std::is_constructible_v<fn, int (*)(int, int)>);
static_assert(std::is_constructible_v<hl::inplace_function<int(int), 64>, fn>);
static_assert(!std::is_constructible_v<fn, hl::inplace_move_function<int(int), 16>>);
static_assert(fn::capacity() == 32 && fn::alignment() == alignof(std::max_align_t));

// ---- function_ref ------------------------------------------------------------

static_assert(sizeof(hl::function_ref<int(int)>) == 2 * sizeof(void*));
static_assert(std::is_trivially_copyable_v<hl::function_ref<int(int)>>);
static_assert(!std::is_constructible_v<hl::function_ref<int(int)>, std::string&>);

static int apply(hl::function_ref<int(int)> f, int x) { return f(x); }

static void function_refs() {
  int base = 10;
  auto add = [&base](int x) { return base + x; };
  int calls = 0;
  auto count = [calls](int) mutable { return ++calls; };
  const tracked constant(5);
  unsigned long n = hl_count::count([&] {
    CHECK(apply(add, 1) == 11);
    base = 20;
    CHECK(apply(add, 1) == 21);
    hl::function_ref<int(int)> r = count;
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
    hl::function_ref<int(int)> copy = r;
    CHECK(copy(0) == 3);
  });
  CHECK(n == 0);
}

int main() {
  zero_allocations();
  empty_states();
  targets_and_calls();
  copies_moves_and_lifetimes();
  capacity_conversions();
  layout();
  function_refs();
  CHECK(tracked::alive == 0);
  return hl_test::failures();
}
