// ast_reader: C++ that the checker must read right, and pass. Braces in
// comments { and strings, raw strings, character literals, macros, a
// constructor's member initializers, default arguments, lambdas, local
// classes, namespaces, classes, extern "C".
#include "engine/ast_reader.h"

#include <string>
#include <vector>

#define BLOCK(x)                                                                                                       \
  do {                                                                                                                 \
    x;                                                                                                                 \
  } while (0)

namespace hl {
namespace {

const char *text = R"raw(a "quoted" { brace } and a )" fake end)raw";
const char open = '{', quote = '"';
const long big = 1'000'000;

struct holder {
  std::vector<int> v_;
  int n_;
  holder(int n, std::vector<int> v = {}) : v_{v}, n_(n) {}
  int operator()(int x) const { return x + n_; }
  template <class F> int each(F f) const {
    int s = 0;
    for (int x : v_) s += f(x);
    return s;
  }
};

auto twice = [](int x) { return 2 * x; };

} // namespace

// 80 lines, a local class and lambdas inside.
int count(const std::string &s) {
  struct local {
    int k;
    int get() const { return k; }
  };
  local l{1};
  int n = l.get();
  auto f = [&](char c) {
    if (c == open) return 1;
    if (c == quote) return 2;
    return 0;
  };
  for (char c : s) n += f(c);
  BLOCK(n += 1);
  holder h(n, {1, 2, 3});
  n += h.each([](int x) {
    return x;
  });
  n += twice(static_cast<int>(big % 7)) + static_cast<int>(std::string(text).size());
#if defined(__linux__)
  n += 1;
#else
  n += 2;
#endif
  n += 0;
  n += 1;
  n += 2;
  n += 3;
  n += 4;
  n += 5;
  n += 6;
  n += 7;
  n += 8;
  n += 9;
  n += 10;
  n += 11;
  n += 12;
  n += 13;
  n += 14;
  n += 15;
  n += 16;
  n += 17;
  n += 18;
  n += 19;
  n += 20;
  n += 21;
  n += 22;
  n += 23;
  n += 24;
  n += 25;
  n += 26;
  n += 27;
  n += 28;
  n += 29;
  n += 30;
  n += 31;
  n += 32;
  n += 33;
  n += 34;
  n += 35;
  n += 36;
  n += 37;
  n += 38;
  n += 39;
  n += 40;
  n += 41;
  n += 42;
  n += 43;
  n += 44;
  n += 45;
  n += 46;
  n += 47;
  n += 48;
  n += 49;
  n += 50;
  n += 51;
  n += 52;
  n += 53;
  return n;
}

} // namespace hl

extern "C" {
int hl_ast_reader_count(const char *s) { return hl::count(s); }
}
