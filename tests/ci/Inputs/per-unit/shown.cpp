#include <functional>
template <class T> struct Holder { T v; Holder() = default; Holder(const Holder &o) : v(o.v) {} void operator()() const {} };
void ff() { std::function<void()> f = Holder<long>(); f(); }
