// A use of <heaplint/memory_resource.hpp> (C++17 and later: std::pmr).
#include <heaplint/memory_resource.hpp>

#include <list>

int main() {
  std::pmr::list<int> l(hl::default_pool_resource());
  l.push_back(1);
  static hl::static_arena<64 * 1024> arena("std-matrix");
  hl::pool_resource r(arena.get());
  std::pmr::list<int> m(&r);
  m.push_back(2);
  return r.is_equal(*hl::default_pool_resource()) || l.size() + m.size() != 2 ? 1 : 0;
}
