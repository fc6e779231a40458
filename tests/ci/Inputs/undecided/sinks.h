#include <functional>
#include <utility>

void take(std::function<void()> f);

// Never instantiated in this project: the stored type is never known.
template <class F> void later(F f) { take(std::move(f)); }

// Instantiated below: judged at the call.
template <class F> void wrap(F f) { take(std::move(f)); }
