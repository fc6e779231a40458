// A use of <heaplint/function_ref.hpp> at the standard it is compiled with.
#include <heaplint/function_ref.hpp>

static int twice(int x) { return 2 * x; }

static int apply(hl::function_ref<int(int)> f, int x) { return f(x); }
static int apply_const(hl::function_ref<int(int) const> f, int x) { return f(x); }

int main() {
  int base = 1;
  auto add = [&base](int x) { return base + x; };
  hl::function_ref<int(int)> r = add;
  hl::function_ref<int(int)> copy = r;
  r = copy;
  r = &twice;
  int sum = apply(add, 1) + apply(twice, 2) + apply(&twice, 3) + apply_const(add, 4) + r(1);
#if HEAPLINT_NOEXCEPT_SIGNATURES
  hl::function_ref<int(int) noexcept> nx = [](int x) noexcept { return x; };
  sum += nx(1);
#endif
#if defined(__cpp_nontype_template_parameter_auto)
  hl::function_ref<int(int)> constant = hl::nontype<&twice>;
  sum += constant(1);
#endif
#if defined(__cpp_deduction_guides)
  hl::function_ref deduced = &twice;
  sum += deduced(1);
#endif
  return sum == 0 ? 1 : 0;
}
