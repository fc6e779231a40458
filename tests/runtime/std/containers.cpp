// A use of <heaplint/containers.hpp> at the standard it is compiled with:
// every alias instantiated.
#include <heaplint/containers.hpp>

int main() {
  hl::list<int> l{1};
  hl::forward_list<int> fl{1};
  hl::deque<int> d{1};
  hl::map<int, int> m{{1, 2}};
  hl::multimap<int, int> mm{{1, 2}};
  hl::set<int> s{1};
  hl::multiset<int> ms{1};
  hl::unordered_map<hl::string, int> um{{hl::string("a"), 1}};
  hl::unordered_multimap<int, int> umm{{1, 2}};
  hl::unordered_set<std::string> us{"a"};
  hl::unordered_multiset<int> ums{1};
  hl::string str("text that does not fit any small-string buffer");
  hl::wstring wstr(L"w");
  hl::u16string u16(u"u");
  hl::u32string u32(U"u");
  hl::ostringstream os;
  os << 42;
  hl::istringstream is("1");
  hl::stringstream ss;
  hl::queue<int> q;
  q.push(1);
  hl::stack<int> st;
  st.push(1);
  static hl::static_arena<64 * 1024> arena("std-matrix");
  hl::bound::list<int> bl(arena);
  bl.push_back(1);
  hl::bound::unordered_map<int, int> bum(8, hl::default_hash_t<int>(), std::equal_to<int>(), arena);
  bum[1] = 2;
  hl::bound::string bs("bound", arena);
  std::size_t n = l.size() + d.size() + m.size() + mm.size() + s.size() + ms.size() + um.size() +
                  umm.size() + us.size() + ums.size() + str.size() + wstr.size() + u16.size() +
                  u32.size() + os.str().size() + q.size() + st.size() + bl.size() + bum.size() +
                  bs.size() + hl::hash<hl::string>()(str);
  return (n == 0 || fl.empty() || !is || !ss) ? 1 : 0;
}
