#include <functional>
namespace { template <class T> struct Holder { T v; Holder() = default; Holder(const Holder &o) : v(o.v) {} void operator()() const {} }; }
void fa() { std::function<void()> f = Holder<long>(); f(); }
