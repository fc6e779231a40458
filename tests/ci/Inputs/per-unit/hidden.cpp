#include <functional>
// Inside the anonymous namespace Holder is its own; at the end of the file,
// where the compiler is asked, Holder<long> is ambiguous: the question fails,
// and the site stays silent.
template <class T> struct Holder;
namespace {
template <class T> struct Holder { T v; Holder() = default; Holder(const Holder &o) : v(o.v) {} void operator()() const {} };
void fe() { std::function<void()> f = Holder<long>(); f(); }
}
