#include <functional>
#include <vector>
// An API that takes callables as std::function: its callers, in other
// files, build the std::function at each call.
struct Loop {
  void post(std::function<void()> f);
  void call_after(int ms, std::function<void()> f);
  std::vector<std::function<void()>> q;
};
