// Uses each public C++ header of the installed runtime once.
#include <heaplint/containers.hpp>
#include <heaplint/function_ref.hpp>
#include <heaplint/inplace_function.hpp>
#include <heaplint/memory_resource.hpp>
#include <heaplint/pool_allocator.hpp>

static int call(hl::function_ref<int(int)> f) { return f(2); }

int main() {
  hl::list<int> l{1, 2, 3};
  hl::map<int, hl::string> m{{1, "one"}};
  int k = 40;
  hl::inplace_function<int(int), 32> f = [k](int x) { return k + x; };
  std::pmr::list<int> p(hl::default_pool_resource());
  p.push_back(call(f));
  return l.size() == 3 && m[1] == "one" && p.back() == 42 ? 0 : 1;
}
