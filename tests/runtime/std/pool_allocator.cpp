// A use of <heaplint/pool_allocator.hpp> at the standard it is compiled with.
#include <heaplint/pool_allocator.hpp>

#include <list>
#include <map>

int main() {
  std::list<int, hl::pool_allocator<int>> l{1, 2, 3};
  static hl::static_arena<64 * 1024> arena("std-matrix");
  std::map<int, int, std::less<int>, hl::bound_allocator<std::pair<const int, int>>> m(arena);
  m[1] = 2;
  hl::bound_allocator<long> a = arena.allocator<long>();
  long* p = a.allocate(4);
  a.deallocate(p, 4);
  return static_cast<int>(l.size() + m.size()) == 4 ? 0 : 1;
}
