// A use of <heaplint/inplace_function.hpp> that instantiates every member
// and signature form the header offers at the standard it is compiled with.
#include <heaplint/inplace_function.hpp>

#include <memory>
#include <utility>

struct point {
  int x;
  int scaled(int k) const { return x * k; }
};

struct move_only {
  std::unique_ptr<int> p;
  int operator()() const { return *p; }
};

static int twice(int x) { return 2 * x; }

int main() {
  int a = 1;
  hl::inplace_function<int(int), 24> f = [a](int x) { return a + x; };
  hl::inplace_function<int(int), 48> wide = f;
  hl::inplace_function<int(int), 48> moved = std::move(f);
  f = twice;
  f = nullptr;
  wide.swap(moved);
  hl::inplace_function<int(int) const> c = [](int x) { return x; };
  hl::inplace_function<int(int)&> l = [](int x) { return x; };
  hl::inplace_function<int(int) &&> r = [](int x) { return x; };
  hl::inplace_function<int(int) const&> cl = [](int x) { return x; };
  hl::inplace_function<int(int) const&&> cr = [](int x) { return x; };
  hl::inplace_function<int(const point&, int)> member = &point::scaled;
  hl::inplace_function<int(const point&)> field = &point::x;
  hl::inplace_move_function<int()> owner = move_only{std::unique_ptr<int>(new int(3))};
  auto lambda = [a](int x) { return a * x; };
  hl::inplace_function_for<decltype(lambda)> exact = lambda;
  hl::inplace_function_for<int (*)(int)> pointer = twice;
#if HEAPLINT_NOEXCEPT_SIGNATURES
  hl::inplace_function<int(int) noexcept> nx = [](int x) noexcept { return x; };
  hl::inplace_function<int(int) const noexcept> cnx = [](int x) noexcept { return x; };
  a += nx(1) + cnx(1);
#endif
  point p{2};
  a += (f ? 1 : 0) + wide(1) + moved(1) + c(1) + l(1) + std::move(r)(1) + cl(1) + std::move(cr)(1) +
       member(p, 2) + field(p) + owner() + exact(2) + pointer(2);
#if HEAPLINT_RTTI
  a += wide.target<int (*)(int)>() != nullptr ? 1 : 0;
  a += wide.target_type() == typeid(void) ? 1 : 0;
#endif
  return a == 0 ? 1 : 0;
}
