// Stores into boost::function, each one on one line and counted against
// the global operator new: run, the program prints "<line> <allocations>
// <label>" per store, which hl-groundtruth compares with heaplint's warnings
// under rules/profiles/extra/boost-function.yaml.
#include <count_new.hpp>

#include <boost/function.hpp>
#include <cstdio>
#include <functional>
#include <memory>
#include <string>

static unsigned long before;
static void begin() { before = hl_count::allocations(); }
static void end(int line, const char *label) {
  std::printf("%d %lu %s\n", line, hl_count::allocations() - before, label);
}
template <class... T> void use(const T &...) {}

struct alignas(16) Wide16 { char c[16]; void operator()() const {} };
struct CopyMayThrow {
  long x = 1;
  CopyMayThrow() = default;
  CopyMayThrow(const CopyMayThrow &o) noexcept(false) : x(o.x) {}
  void operator()() const {}
};
static void f0() {}
static void g3(int, int, int) {}

int main() {
  long a = 1, b = 2, c = 3, d = 4;
  std::string s = "short";
  auto shared = std::make_shared<int>(1);
  { begin(); boost::function<void()> f = [a] { use(a); }; end(__LINE__, "8-byte lambda"); }
  { begin(); boost::function<void()> f = [a, b, c] { use(a, b, c); }; end(__LINE__, "24-byte lambda"); }
  { begin(); boost::function<void()> f = [a, b, c, d] { use(a, b, c, d); }; end(__LINE__, "32-byte lambda"); }
  { begin(); boost::function<void()> f = [s] { use(s); }; end(__LINE__, "lambda capturing a std::string"); }
  { begin(); boost::function<void()> f = [shared] { use(shared); }; end(__LINE__, "lambda capturing a shared_ptr"); }
  { begin(); boost::function<void()> f = CopyMayThrow{}; end(__LINE__, "functor whose copy may throw"); }
  { begin(); boost::function<void()> f = Wide16{}; end(__LINE__, "alignas(16) functor"); }
  { begin(); boost::function<void()> f = &f0; end(__LINE__, "function pointer"); }
  { begin(); boost::function<void()> f = std::bind(&g3, 1, 2, 3); end(__LINE__, "std::bind with 3 ints"); }
  { boost::function<void()> f; begin(); f = [a, b, c, d] { use(a, b, c, d); }; end(__LINE__, "assigned 32-byte lambda"); }
  { boost::function<void()> f; begin(); f = [a] { use(a); }; end(__LINE__, "assigned 8-byte lambda"); }
  { boost::function<void(int)> f; begin(); f = [a, b, c](int) { use(a, b, c); }; end(__LINE__, "24-byte lambda taking an int"); }
}
