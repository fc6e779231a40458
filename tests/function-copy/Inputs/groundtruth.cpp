// The measured ground truth of function-copy: each line that calls end()
// copies a std::function or std::any and prints "<line> <allocations>
// <label>"; heaplint must warn on exactly the lines whose copy allocated.
// Compiled with g++ (libstdc++) and clang++ -stdlib=libc++, -O0, with the
// counting operator new. Each target is built on its own line before the
// measured one (function-sbo's business, not measured); a copy of an inline
// target must measure 0 and be silent.
#include <count_new.hpp>
#include <any>
#include <cstdio>
#include <functional>
#include <memory>
#include <utility>
#include <vector>

static unsigned long start_;
static void begin() { start_ = hl_count::allocations(); }
static void end(int line, const char *label) {
  std::printf("%d %lu %s\n", line, hl_count::allocations() - start_, label);
}

struct X { void on(int, long) {} };
using cb_t = std::function<void(int)>;
__attribute__((noinline)) void run(cb_t cb) { (void)cb; }
__attribute__((noinline)) void cref(const cb_t &cb) { (void)cb; }
void on_int(int) {}

// Copies of a std::bind result, 32 bytes.
__attribute__((noinline)) void copies_bind(X *x, long a, long b, long c, long d, std::shared_ptr<long> sp) {
  (void)x, (void)a, (void)b, (void)c, (void)d, (void)sp;
  std::vector<cb_t> vec;
  vec.reserve(8);
  cb_t v0 = std::bind(&X::on, x, std::placeholders::_1, 7L);
  begin(); run(v0); end(__LINE__, "bind by-value argument");
  cb_t v1 = std::bind(&X::on, x, std::placeholders::_1, 7L);
  begin(); cb_t copied(v1); end(__LINE__, "bind copy construction");
  cb_t v2 = std::bind(&X::on, x, std::placeholders::_1, 7L);
  begin(); cb_t init = v2; end(__LINE__, "bind copy initialization");
  cb_t v3 = std::bind(&X::on, x, std::placeholders::_1, 7L);
  cb_t assigned;
  begin(); assigned = v3; end(__LINE__, "bind copy assignment");
  cb_t v4 = std::bind(&X::on, x, std::placeholders::_1, 7L);
  begin(); vec.push_back(v4); end(__LINE__, "bind push_back");
  cb_t v5 = std::bind(&X::on, x, std::placeholders::_1, 7L);
  begin(); vec.emplace_back(v5); end(__LINE__, "bind emplace_back");
  cb_t v6 = std::bind(&X::on, x, std::placeholders::_1, 7L);
  begin(); vec.insert(vec.begin(), v6); end(__LINE__, "bind insert");
  cb_t v7 = std::bind(&X::on, x, std::placeholders::_1, 7L);
  begin(); auto l1 = [v7] { v7(1); }; end(__LINE__, "bind capture");
  cb_t v8 = std::bind(&X::on, x, std::placeholders::_1, 7L);
  begin(); auto l2 = [w = v8] { w(1); }; end(__LINE__, "bind init capture");
  cb_t v9 = std::bind(&X::on, x, std::placeholders::_1, 7L);
  begin(); auto l3 = [=] { v9(1); }; end(__LINE__, "bind default capture");
  cb_t v10 = std::bind(&X::on, x, std::placeholders::_1, 7L);
  begin(); cref(v10); end(__LINE__, "bind const reference");
  cb_t v11 = std::bind(&X::on, x, std::placeholders::_1, 7L);
  begin(); cb_t first = v11; end(__LINE__, "bind first copy");
  begin(); run(first); end(__LINE__, "bind a copy of a copy");
  (void)copied, (void)init;
  l1(), l2(), l3();
}

// Copies of a lambda of three longs.
__attribute__((noinline)) void copies_l24(X *x, long a, long b, long c, long d, std::shared_ptr<long> sp) {
  (void)x, (void)a, (void)b, (void)c, (void)d, (void)sp;
  std::vector<cb_t> vec;
  vec.reserve(8);
  cb_t v0 = [a, b, c](int) { (void)(a + b + c); };
  begin(); run(v0); end(__LINE__, "l24 by-value argument");
  cb_t v1 = [a, b, c](int) { (void)(a + b + c); };
  begin(); cb_t copied(v1); end(__LINE__, "l24 copy construction");
  cb_t v2 = [a, b, c](int) { (void)(a + b + c); };
  begin(); cb_t init = v2; end(__LINE__, "l24 copy initialization");
  cb_t v3 = [a, b, c](int) { (void)(a + b + c); };
  cb_t assigned;
  begin(); assigned = v3; end(__LINE__, "l24 copy assignment");
  cb_t v4 = [a, b, c](int) { (void)(a + b + c); };
  begin(); vec.push_back(v4); end(__LINE__, "l24 push_back");
  cb_t v5 = [a, b, c](int) { (void)(a + b + c); };
  begin(); vec.emplace_back(v5); end(__LINE__, "l24 emplace_back");
  cb_t v6 = [a, b, c](int) { (void)(a + b + c); };
  begin(); vec.insert(vec.begin(), v6); end(__LINE__, "l24 insert");
  cb_t v7 = [a, b, c](int) { (void)(a + b + c); };
  begin(); auto l1 = [v7] { v7(1); }; end(__LINE__, "l24 capture");
  cb_t v8 = [a, b, c](int) { (void)(a + b + c); };
  begin(); auto l2 = [w = v8] { w(1); }; end(__LINE__, "l24 init capture");
  cb_t v9 = [a, b, c](int) { (void)(a + b + c); };
  begin(); auto l3 = [=] { v9(1); }; end(__LINE__, "l24 default capture");
  cb_t v10 = [a, b, c](int) { (void)(a + b + c); };
  begin(); cref(v10); end(__LINE__, "l24 const reference");
  cb_t v11 = [a, b, c](int) { (void)(a + b + c); };
  begin(); cb_t first = v11; end(__LINE__, "l24 first copy");
  begin(); run(first); end(__LINE__, "l24 a copy of a copy");
  (void)copied, (void)init;
  l1(), l2(), l3();
}

// Copies of a lambda of four longs.
__attribute__((noinline)) void copies_l32(X *x, long a, long b, long c, long d, std::shared_ptr<long> sp) {
  (void)x, (void)a, (void)b, (void)c, (void)d, (void)sp;
  std::vector<cb_t> vec;
  vec.reserve(8);
  cb_t v0 = [a, b, c, d](int) { (void)(a + b + c + d); };
  begin(); run(v0); end(__LINE__, "l32 by-value argument");
  cb_t v1 = [a, b, c, d](int) { (void)(a + b + c + d); };
  begin(); cb_t copied(v1); end(__LINE__, "l32 copy construction");
  cb_t v2 = [a, b, c, d](int) { (void)(a + b + c + d); };
  begin(); cb_t init = v2; end(__LINE__, "l32 copy initialization");
  cb_t v3 = [a, b, c, d](int) { (void)(a + b + c + d); };
  cb_t assigned;
  begin(); assigned = v3; end(__LINE__, "l32 copy assignment");
  cb_t v4 = [a, b, c, d](int) { (void)(a + b + c + d); };
  begin(); vec.push_back(v4); end(__LINE__, "l32 push_back");
  cb_t v5 = [a, b, c, d](int) { (void)(a + b + c + d); };
  begin(); vec.emplace_back(v5); end(__LINE__, "l32 emplace_back");
  cb_t v6 = [a, b, c, d](int) { (void)(a + b + c + d); };
  begin(); vec.insert(vec.begin(), v6); end(__LINE__, "l32 insert");
  cb_t v7 = [a, b, c, d](int) { (void)(a + b + c + d); };
  begin(); auto l1 = [v7] { v7(1); }; end(__LINE__, "l32 capture");
  cb_t v8 = [a, b, c, d](int) { (void)(a + b + c + d); };
  begin(); auto l2 = [w = v8] { w(1); }; end(__LINE__, "l32 init capture");
  cb_t v9 = [a, b, c, d](int) { (void)(a + b + c + d); };
  begin(); auto l3 = [=] { v9(1); }; end(__LINE__, "l32 default capture");
  cb_t v10 = [a, b, c, d](int) { (void)(a + b + c + d); };
  begin(); cref(v10); end(__LINE__, "l32 const reference");
  cb_t v11 = [a, b, c, d](int) { (void)(a + b + c + d); };
  begin(); cb_t first = v11; end(__LINE__, "l32 first copy");
  begin(); run(first); end(__LINE__, "l32 a copy of a copy");
  (void)copied, (void)init;
  l1(), l2(), l3();
}

// Copies of a lambda of one long.
__attribute__((noinline)) void copies_l8(X *x, long a, long b, long c, long d, std::shared_ptr<long> sp) {
  (void)x, (void)a, (void)b, (void)c, (void)d, (void)sp;
  std::vector<cb_t> vec;
  vec.reserve(8);
  cb_t v0 = [a](int) { (void)a; };
  begin(); run(v0); end(__LINE__, "l8 by-value argument");
  cb_t v1 = [a](int) { (void)a; };
  begin(); cb_t copied(v1); end(__LINE__, "l8 copy construction");
  cb_t v2 = [a](int) { (void)a; };
  begin(); cb_t init = v2; end(__LINE__, "l8 copy initialization");
  cb_t v3 = [a](int) { (void)a; };
  cb_t assigned;
  begin(); assigned = v3; end(__LINE__, "l8 copy assignment");
  cb_t v4 = [a](int) { (void)a; };
  begin(); vec.push_back(v4); end(__LINE__, "l8 push_back");
  cb_t v5 = [a](int) { (void)a; };
  begin(); vec.emplace_back(v5); end(__LINE__, "l8 emplace_back");
  cb_t v6 = [a](int) { (void)a; };
  begin(); vec.insert(vec.begin(), v6); end(__LINE__, "l8 insert");
  cb_t v7 = [a](int) { (void)a; };
  begin(); auto l1 = [v7] { v7(1); }; end(__LINE__, "l8 capture");
  cb_t v8 = [a](int) { (void)a; };
  begin(); auto l2 = [w = v8] { w(1); }; end(__LINE__, "l8 init capture");
  cb_t v9 = [a](int) { (void)a; };
  begin(); auto l3 = [=] { v9(1); }; end(__LINE__, "l8 default capture");
  cb_t v10 = [a](int) { (void)a; };
  begin(); cref(v10); end(__LINE__, "l8 const reference");
  cb_t v11 = [a](int) { (void)a; };
  begin(); cb_t first = v11; end(__LINE__, "l8 first copy");
  begin(); run(first); end(__LINE__, "l8 a copy of a copy");
  (void)copied, (void)init;
  l1(), l2(), l3();
}

// Copies of a lambda holding a shared_ptr.
__attribute__((noinline)) void copies_sp(X *x, long a, long b, long c, long d, std::shared_ptr<long> sp) {
  (void)x, (void)a, (void)b, (void)c, (void)d, (void)sp;
  std::vector<cb_t> vec;
  vec.reserve(8);
  cb_t v0 = [sp](int) { (void)sp; };
  begin(); run(v0); end(__LINE__, "sp by-value argument");
  cb_t v1 = [sp](int) { (void)sp; };
  begin(); cb_t copied(v1); end(__LINE__, "sp copy construction");
  cb_t v2 = [sp](int) { (void)sp; };
  begin(); cb_t init = v2; end(__LINE__, "sp copy initialization");
  cb_t v3 = [sp](int) { (void)sp; };
  cb_t assigned;
  begin(); assigned = v3; end(__LINE__, "sp copy assignment");
  cb_t v4 = [sp](int) { (void)sp; };
  begin(); vec.push_back(v4); end(__LINE__, "sp push_back");
  cb_t v5 = [sp](int) { (void)sp; };
  begin(); vec.emplace_back(v5); end(__LINE__, "sp emplace_back");
  cb_t v6 = [sp](int) { (void)sp; };
  begin(); vec.insert(vec.begin(), v6); end(__LINE__, "sp insert");
  cb_t v7 = [sp](int) { (void)sp; };
  begin(); auto l1 = [v7] { v7(1); }; end(__LINE__, "sp capture");
  cb_t v8 = [sp](int) { (void)sp; };
  begin(); auto l2 = [w = v8] { w(1); }; end(__LINE__, "sp init capture");
  cb_t v9 = [sp](int) { (void)sp; };
  begin(); auto l3 = [=] { v9(1); }; end(__LINE__, "sp default capture");
  cb_t v10 = [sp](int) { (void)sp; };
  begin(); cref(v10); end(__LINE__, "sp const reference");
  cb_t v11 = [sp](int) { (void)sp; };
  begin(); cb_t first = v11; end(__LINE__, "sp first copy");
  begin(); run(first); end(__LINE__, "sp a copy of a copy");
  (void)copied, (void)init;
  l1(), l2(), l3();
}

// Copies of a function pointer.
__attribute__((noinline)) void copies_fp(X *x, long a, long b, long c, long d, std::shared_ptr<long> sp) {
  (void)x, (void)a, (void)b, (void)c, (void)d, (void)sp;
  std::vector<cb_t> vec;
  vec.reserve(8);
  cb_t v0 = &on_int;
  begin(); run(v0); end(__LINE__, "fp by-value argument");
  cb_t v1 = &on_int;
  begin(); cb_t copied(v1); end(__LINE__, "fp copy construction");
  cb_t v2 = &on_int;
  begin(); cb_t init = v2; end(__LINE__, "fp copy initialization");
  cb_t v3 = &on_int;
  cb_t assigned;
  begin(); assigned = v3; end(__LINE__, "fp copy assignment");
  cb_t v4 = &on_int;
  begin(); vec.push_back(v4); end(__LINE__, "fp push_back");
  cb_t v5 = &on_int;
  begin(); vec.emplace_back(v5); end(__LINE__, "fp emplace_back");
  cb_t v6 = &on_int;
  begin(); vec.insert(vec.begin(), v6); end(__LINE__, "fp insert");
  cb_t v7 = &on_int;
  begin(); auto l1 = [v7] { v7(1); }; end(__LINE__, "fp capture");
  cb_t v8 = &on_int;
  begin(); auto l2 = [w = v8] { w(1); }; end(__LINE__, "fp init capture");
  cb_t v9 = &on_int;
  begin(); auto l3 = [=] { v9(1); }; end(__LINE__, "fp default capture");
  cb_t v10 = &on_int;
  begin(); cref(v10); end(__LINE__, "fp const reference");
  cb_t v11 = &on_int;
  begin(); cb_t first = v11; end(__LINE__, "fp first copy");
  begin(); run(first); end(__LINE__, "fp a copy of a copy");
  (void)copied, (void)init;
  l1(), l2(), l3();
}

// Known through a member: every value stored into it allocates.
struct Armed {
  cb_t m;
  void arm(X *x) { m = std::bind(&X::on, x, std::placeholders::_1, 7L); }
  cb_t get() { return m; } static constexpr int get_line = __LINE__;
  void pass() { begin(); run(m); end(__LINE__, "member passed by value"); }
};
struct ArmedSmall {
  cb_t m;
  void arm(long a) { m = [a](int) { (void)a; }; }
  cb_t get() { return m; } static constexpr int get_line = __LINE__;
};

// Known through a parameter of a function only this file calls.
namespace {
__attribute__((noinline)) void keep(cb_t cb) { begin(); cb_t copy(cb); end(__LINE__, "parameter copied"); copy(1); }
__attribute__((noinline)) void keep_small(cb_t cb) { begin(); cb_t copy(cb); end(__LINE__, "small parameter copied"); copy(1); }
}  // namespace

// Emptied or moved from before the copy: nothing to copy, and silent.
__attribute__((noinline)) void emptied(X *x) {
  cb_t reset = std::bind(&X::on, x, std::placeholders::_1, 7L);
  reset = nullptr;
  begin(); run(reset); end(__LINE__, "reset to nullptr");
  cb_t moved = std::bind(&X::on, x, std::placeholders::_1, 7L);
  cb_t thief = std::move(moved);
  begin(); run(moved); end(__LINE__, "moved from");
  thief(1);
}

// A loop: one allocation per iteration.
__attribute__((noinline)) void loop(X *x) {
  cb_t cb = std::bind(&X::on, x, std::placeholders::_1, 7L);
  std::vector<cb_t> vec;
  vec.reserve(4);
  begin(); for (int i = 0; i < 4; i++) vec.push_back(cb); end(__LINE__, "push_back in a loop");
}

// std::any: an empty std::vector<int> (24 bytes) is on the heap with
// libstdc++ (8-byte buffer) and inline with libc++ (24); a long fits both.
__attribute__((noinline)) void anys() {
  std::any big = std::vector<int>{};
  begin(); std::any big_copy = big; end(__LINE__, "any holding a vector copied");
  std::any big2 = std::vector<int>{};
  std::any big_assigned;
  begin(); big_assigned = big2; end(__LINE__, "any holding a vector assigned");
  std::any small = 1L;
  begin(); std::any small_copy = small; end(__LINE__, "any holding a long copied");
  std::vector<std::any> vec;
  vec.reserve(2);
  std::any big3 = std::vector<int>{};
  begin(); vec.push_back(big3); end(__LINE__, "any holding a vector pushed");
}

// The paths to a copy: declared empty and assigned in each branch, one
// branch heap-stored and the other inline (the heap one taken here: heaplint
// says "may"), a heap-stored target assigned only after the copy.
__attribute__((noinline)) void paths(X *x, bool c, int n, std::shared_ptr<long> sp) {
  cb_t both;
  if (c)
    both = std::bind(&X::on, x, std::placeholders::_1, 7L);
  else
    both = [sp](int) { (void)sp; };
  begin(); run(both); end(__LINE__, "assigned in both branches");
  cb_t mixed;
  if (n > 1)
    mixed = std::bind(&X::on, x, std::placeholders::_1, 7L);
  else
    mixed = [](int) {};
  begin(); run(mixed); end(__LINE__, "heap-stored or inline, heap taken");
  cb_t after = [](int) {};
  begin(); run(after); end(__LINE__, "inline, heap-stored assigned after");
  after = std::bind(&X::on, x, std::placeholders::_1, 7L);
  cb_t empty_then;
  begin(); run(empty_then); end(__LINE__, "empty, heap-stored assigned after");
  empty_then = std::bind(&X::on, x, std::placeholders::_1, 7L);
  after(1), empty_then(1);
  // A for loop's init-statement copies once, before the loop assigns.
  cb_t before = [](int) {};
  begin(); for (cb_t copy = before; n < 3; n = 3) { end(__LINE__, "for-init copy, heap-stored assigned in the loop"); before = std::bind(&X::on, x, std::placeholders::_1, 7L); }
  cb_t heap_before = std::bind(&X::on, x, std::placeholders::_1, 7L);
  begin(); for (cb_t copy = heap_before; c; c = false) { end(__LINE__, "for-init copy of a heap target, inline assigned in the loop"); heap_before = [](int) {}; }
}

int main() {
  X x;
  auto sp = std::make_shared<long>(1);
  copies_bind(&x, 1, 2, 3, 4, sp);
  copies_l24(&x, 1, 2, 3, 4, sp);
  copies_l32(&x, 1, 2, 3, 4, sp);
  copies_l8(&x, 1, 2, 3, 4, sp);
  copies_sp(&x, 1, 2, 3, 4, sp);
  copies_fp(&x, 1, 2, 3, 4, sp);
  Armed armed;
  armed.arm(&x);
  begin(); cb_t got = armed.get(); end(Armed::get_line, "member returned");
  armed.pass();
  ArmedSmall small;
  small.arm(1);
  begin(); cb_t got_small = small.get(); end(ArmedSmall::get_line, "small member returned");
  keep(std::bind(&X::on, &x, std::placeholders::_1, 7L));
  keep_small([](int) {});
  emptied(&x);
  loop(&x);
  anys();
  paths(&x, true, 2, sp);
  got(1), got_small(1);
}
