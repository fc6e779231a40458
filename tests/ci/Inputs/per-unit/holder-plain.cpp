#include <functional>
namespace { template <class T> struct Holder { T v; void operator()() const {} }; }
void fb() { std::function<void()> f = Holder<long>(); f(); }
